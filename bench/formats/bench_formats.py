#!/usr/bin/python3
"""Level formats on the matrices they exist for (issue 58; seed 002 §2):
SpMV y = A x in the project's DIA ([dense, diagonal]) and ELL ([dense,
ellpack]) against its CSR ([dense, compressed]) and scipy's dia_matrix and
csr_matrix (scipy has no ELL), on banded, stencil and mesh-like matrices.

sparse_array's SpMV is one compiled function per format (declared
@fadd / @fmul, as scipy assumes), timed inside the program (sa_rt_seconds
around the call, best of --repeat); the matrix is read once as CSR and
converted to DIA by the runtime (not timed). scipy is timed in Python on
the same matrix (best of --repeat). Results are cross-checked (the sums
of y agree to rounding). One thread (OMP_NUM_THREADS=1 unless set).
DIA runs where the diagonals are few (not on mesh9 or rows8).

Matrices (generated, so that the demo needs no data):
  stencil5   the 5-point Laplacian of a g x g grid (g = --grid, 1024: 1M
             rows, 5.2M entries; 5 diagonals)
  band11     n x n (n = --rows), 11 diagonals at offsets -5..5, every
             entry present
  band-holes the same with 30 % of the entries missing (stored as the fill
             by DIA and ELL, skipped by CSR)
  mesh9      the 9-point stencil of a g x g grid (a quadrilateral mesh's
             vertex adjacency: 9 entries in every row but the boundary's)
             with its vertices numbered at random, so no diagonals to speak
             of: ELL's case (seed 002 §2: meshes bound the entries per row)
  rows8      n x n, 6 to 8 entries per row at random columns: bounded but
             uneven rows, ELL pads each to 8 (1 slot in 8 on average, so it
             moves 96 bytes a row where CSR moves 7 x 12 + 4 = 88)
  blocks3/4  block-banded, dense b x b blocks (b = 3, 4: a finite-element
             matrix's nodes with 3 or 4 unknowns each), 5 blocks per block
             row at block offsets -2..2, about 5M entries: BCSR
             ([dense, compressed, dense, dense], blocks = [b, b]) against
             the project's CSR and scipy's bsr_matrix and csr_matrix
  prune24    a square matrix pruned 2:4 (NVIDIA's structured sparsity:
             exactly 2 entries in every block of 4 columns; --prune-rows
             rows, half the entries of the dense matrix): N:M structured
             ([dense, dense, structured[2, 4]], blocks = [1, 4]) against
             the project's CSR and scipy's csr_matrix

  bench/formats/bench_formats.py [--build build] [--grid 1024] [--rows 1048576]
      [--repeat 10] [--block-entries 5242880] [--prune-rows 4096] [--plot FILE.png]
"""

import argparse
import os
import sys
import tempfile

import numpy as np
import scipy.io
import scipy.sparse as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from common import FADD, FMUL, TIMING_DECLS, best_of, run  # noqa: E402

FUNCS = FADD + FMUL + TIMING_DECLS

W32 = ", pos_width = 32, crd_width = 32"
FORMATS = {"csr": "#sparse_array.format<[dense, compressed]%s>" % W32,
           "dia": "#sparse_array.format<[dense, diagonal]%s>" % W32,
           "ell": "#sparse_array.format<[dense, ellpack]%s>" % W32,
           "bsr3": "#sparse_array.format<[dense, compressed, dense, dense], "
                   "order = [0, 1, 0, 1], blocks = [3, 3]%s>" % W32,
           "bsr4": "#sparse_array.format<[dense, compressed, dense, dense], "
                   "order = [0, 1, 0, 1], blocks = [4, 4]%s>" % W32,
           "nm24": "#sparse_array.format<[dense, dense, structured[2, 4]], "
                   "order = [0, 1, 1], blocks = [1, 4]%s>" % W32}


def program(n, repeat, formats):
    """@spmv_<fmt> per format and a main that reads A (CSR), converts it,
    and prints "<seconds> <sum of y>" per format."""
    Y = "!sparse_array.array<%dxf64>" % n
    types = {f: "!sparse_array.array<%dx%dxf64, %s>" % (n, n, FORMATS[f]) for f in formats}
    out = [FUNCS]
    for f, A in types.items():
        out += ["func.func @spmv_%s(%%a: %s, %%x: %s) -> %s attributes {passthrough = [\"noinline\"]} {" % (f, A, Y, Y),
                "  %%r = sparse_array.kernel ins(%%a, %%x : %s, %s) -> %s {" % (A, Y, Y),
                "  ^bb0(%%i: index, %%j: index, %%A: %s, %%X: %s):" % (A, Y),
                "    %%aij = sparse_array.access %%A[%%i, %%j] : %s" % A,
                "    %%xj = sparse_array.access %%X[%%j] : %s" % Y,
                "    %p = sparse_array.apply @fmul(%aij, %xj) : (f64, f64) -> f64",
                "    %s = sparse_array.reduce_over [%j] %p with @fadd : f64",
                "    sparse_array.yield %s : f64",
                "  }",
                "  return %%r : %s" % Y, "}"]
    out += ["func.func @main() {",
            "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
            "  %%nrep = arith.constant %d : index" % repeat,
            "  %%nv = arith.constant %d : index" % n,
            "  %big = arith.constant 1.0e300 : f64", "  %z = arith.constant 0.0 : f64",
            "  %sp = llvm.mlir.addressof @sp : !llvm.ptr",
            '  %%a_csr = sparse_array.read input %%c0 {file_format = "mtx"} : %s' % types["csr"]] + [
            "  %%a_%s = sparse_array.convert %%a_csr : %s to %s" % (f, types["csr"], types[f])
            for f in formats if f != "csr"] + [
            # x: A's row sums (as bench/peers), computed the same way below.
            "  %%x = sparse_array.reduce @fadd %%a_csr dims [1] : %s -> %s" % (types["csr"], Y)]
    for k, f in enumerate(formats):
        out += [
            "  %%best%d, %%sum%d = scf.for %%r = %%c0 to %%nrep step %%c1"
            " iter_args(%%b0 = %%big, %%s0 = %%z) -> (f64, f64) {" % (k, k),
            "    %t0 = func.call @sa_rt_seconds() : () -> f64",
            "    %%y = func.call @spmv_%s(%%a_%s, %%x) : (%s, %s) -> %s" % (f, f, types[f], Y, Y),
            "    %t1 = func.call @sa_rt_seconds() : () -> f64",
            "    %dt = arith.subf %t1, %t0 : f64",
            "    %b1 = arith.minimumf %b0, %dt : f64",
            "    %%v = sparse_array.values %%y : %s -> memref<?xf64>" % Y,
            "    %s = scf.for %p = %c0 to %nv step %c1 iter_args(%acc = %z) -> (f64) {",
            "      %e = memref.load %v[%p] : memref<?xf64>",
            "      %a2 = arith.addf %acc, %e : f64",
            "      scf.yield %a2 : f64",
            "    }",
            "    sparse_array.dealloc %%y : %s" % Y,
            "    scf.yield %b1, %s : f64, f64",
            "  }",
            "  func.call @sa_rt_print_f64(%%best%d) : (f64) -> ()" % k,
            "  func.call @sa_rt_print_str(%sp) : (!llvm.ptr) -> ()",
            "  func.call @sa_rt_print_f64(%%sum%d) : (f64) -> ()" % k,
            "  func.call @sa_rt_print_newline() : () -> ()"]
    main = "\n".join(out)
    return main + "\n  return\n}\n"


def stencil5(g):
    i = sp.eye(g, format="csr")
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(g, g), format="csr")
    return (sp.kron(i, t) + sp.kron(t, i)).tocsr()


def band(n, width, keep, rng):
    offsets = list(range(-(width // 2), width // 2 + 1))
    diags = [rng.uniform(-1, 1, n - abs(o)) for o in offsets]
    a = sp.diags(diags, offsets, shape=(n, n), format="csr")
    if keep < 1.0:
        a.data[rng.random(a.nnz) >= keep] = 0.0
        a.eliminate_zeros()
    return a


def mesh9(g, rng):
    t = sp.diags([1.0, 1.0, 1.0], [-1, 0, 1], shape=(g, g), format="csr")
    a = sp.kron(t, t, format="coo")
    perm = rng.permutation(g * g)
    return sp.csr_matrix((rng.uniform(-1, 1, a.nnz), (perm[a.row], perm[a.col])),
                         shape=a.shape)


def rows8(n, rng):
    counts = rng.integers(6, 9, n)
    rows = np.repeat(np.arange(n), counts)
    cols = rng.integers(0, n, len(rows))
    a = sp.csr_matrix((rng.uniform(-1, 1, len(rows)), (rows, cols)), shape=(n, n))
    a.sum_duplicates()
    return a


def blocks(b, entries, rng):
    nb = entries // (5 * b * b)
    rows = np.repeat(np.arange(nb), 5)
    cols = rows + np.tile(np.arange(-2, 3), nb)
    keep = (cols >= 0) & (cols < nb)
    pattern = sp.csr_matrix((np.ones(keep.sum()), (rows[keep], cols[keep])), shape=(nb, nb))
    pattern.sort_indices()
    data = rng.uniform(-1, 1, (pattern.nnz, b, b))
    return sp.bsr_matrix((data, pattern.indices, pattern.indptr), shape=(nb * b, nb * b))


def prune24(n, rng):
    """n x n, in every block of 4 columns of every row exactly 2 entries."""
    blocks = n // 4
    # Two distinct places out of 4 per block: one of the 6 pairs.
    pairs = np.array([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
    pick = pairs[rng.integers(0, 6, n * blocks)]
    cols = (np.arange(blocks)[None, :, None] * 4 + pick.reshape(n, blocks, 2)).reshape(n, -1)
    indptr = np.arange(0, n * blocks * 2 + 1, blocks * 2)
    return sp.csr_matrix((rng.uniform(-1, 1, n * blocks * 2), cols.ravel(), indptr),
                         shape=(n, n))


def run_case(sa_run, tmp, a, formats, repeat):
    """Times per format (seconds) and the sums of y, checked against
    scipy's CSR product; scipy's CSR time."""
    n = a.shape[0]
    x = np.asarray(a.sum(axis=1)).ravel()
    a_path = os.path.join(tmp, "a.mtx")
    scipy.io.mmwrite(a_path, a.tocoo())
    prog = os.path.join(tmp, "spmv.mlir")
    with open(prog, "w") as f:
        f.write(program(n, repeat, formats))
    lines = [l.split() for l in run([sa_run, prog, "--", a_path]).splitlines() if l]
    t = {f: float(line[0]) for f, line in zip(formats, lines)}
    sums = [float(line[1]) for line in lines]
    ac = a.tocsr()
    t_spcsr, yc = best_of(repeat, lambda: ac @ x)
    return t, sums, t_spcsr, float(yc.sum()), x


def check(name, sums, want):
    for got in sums:
        if not np.isclose(got, want, rtol=1e-9, atol=1e-6):
            sys.exit("%s: result sums differ: %r vs scipy %r" % (name, got, want))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(HERE)), "build"))
    parser.add_argument("--grid", type=int, default=1024)
    parser.add_argument("--rows", type=int, default=1 << 20)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--block-entries", type=int, default=5 << 20)
    parser.add_argument("--prune-rows", type=int, default=4096)
    parser.add_argument("--plot")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    rng = np.random.default_rng(58)
    sa_run = os.path.join(args.build, "bin", "sa-run")
    cases = [("stencil5", stencil5(args.grid), ["csr", "dia", "ell"]),
             ("band11", band(args.rows, 11, 1.0, rng), ["csr", "dia", "ell"]),
             ("band-holes", band(args.rows, 11, 0.7, rng), ["csr", "dia", "ell"]),
             ("mesh9", mesh9(args.grid, rng), ["csr", "ell"]),
             ("rows8", rows8(args.rows, rng), ["csr", "ell"])]
    threads = os.environ["OMP_NUM_THREADS"]
    print("SpMV, %s (OMP_NUM_THREADS=%s), best of %d; ratio = the other's time / ours"
          % ("one thread" if threads == "1" else "%s threads" % threads, threads, args.repeat))
    print("%-11s %8s %8s | %8s %8s %8s %8s %8s | %7s %7s %7s %7s %7s" % (
        "matrix", "rows", "entries", "sa DIA", "sa ELL", "sa CSR", "sp dia", "sp csr",
        "csr/DIA", "csr/ELL", "spdia/D", "spcsr/D", "spcsr/E"))
    rows, block_rows = [], []
    fmt_ms = lambda t: "%6.2fms" % (t * 1e3) if t else "       -"
    fmt_x = lambda a, b: "%6.2fx" % (a / b) if a and b else "      -"
    with tempfile.TemporaryDirectory() as tmp:
        for name, a, formats in cases:
            n = a.shape[0]
            t, sums, t_spcsr, want, x = run_case(sa_run, tmp, a, formats, args.repeat)
            t_spdia = None
            if "dia" in formats:
                ad = a.todia()
                t_spdia, yd = best_of(args.repeat, lambda: ad @ x)
                sums.append(float(yd.sum()))
            check(name, sums, want)
            d, e, c = t.get("dia"), t.get("ell"), t["csr"]
            rows.append((name, n, a.nnz, d, e, c, t_spdia, t_spcsr))
            print("%-11s %8d %8d | %s %s %s %s %s | %s %s %s %s %s" % (
                name, n, a.nnz, fmt_ms(d), fmt_ms(e), fmt_ms(c), fmt_ms(t_spdia), fmt_ms(t_spcsr),
                fmt_x(c, d), fmt_x(c, e), fmt_x(t_spdia, d), fmt_x(t_spcsr, d), fmt_x(t_spcsr, e)))
        print()
        print("%-11s %8s %8s | %8s %8s %8s %8s | %7s %7s %7s" % (
            "matrix", "rows", "entries", "sa BSR", "sa CSR", "sp bsr", "sp csr",
            "csr/BSR", "spbsr/B", "spcsr/B"))
        for b in (3, 4):
            name, a = "blocks%d" % b, blocks(b, args.block_entries, rng)
            bsr = "bsr%d" % b
            t, sums, t_spcsr, want, x = run_case(sa_run, tmp, a, ["csr", bsr], args.repeat)
            t_spbsr, yb = best_of(args.repeat, lambda: a @ x)
            sums.append(float(yb.sum()))
            check(name, sums, want)
            bt, c = t[bsr], t["csr"]
            block_rows.append((name, a.shape[0], a.nnz, bt, c, t_spbsr, t_spcsr))
            print("%-11s %8d %8d | %s %s %s %s | %s %s %s" % (
                name, a.shape[0], a.nnz, fmt_ms(bt), fmt_ms(c), fmt_ms(t_spbsr),
                fmt_ms(t_spcsr), fmt_x(c, bt), fmt_x(t_spbsr, bt), fmt_x(t_spcsr, bt)))
        print()
        print("%-11s %8s %8s | %8s %8s %8s | %7s %7s" % (
            "matrix", "rows", "entries", "sa 2:4", "sa CSR", "sp csr", "csr/2:4", "spcsr/N"))
        a = prune24(args.prune_rows, rng)
        t, sums, t_spcsr, want, x = run_case(sa_run, tmp, a, ["csr", "nm24"], args.repeat)
        check("prune24", sums, want)
        nm, c = t["nm24"], t["csr"]
        print("%-11s %8d %8d | %s %s %s | %s %s" % (
            "prune24", a.shape[0], a.nnz, fmt_ms(nm), fmt_ms(c), fmt_ms(t_spcsr),
            fmt_x(c, nm), fmt_x(t_spcsr, nm)))
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 3.5))
        labels = ["sa DIA", "sa ELL", "sa CSR", "scipy dia", "scipy csr"]
        w = 0.16
        for k, label in enumerate(labels):
            ax.bar([i + k * w for i in range(len(rows))], [(r[3 + k] or 0) * 1e3 for r in rows], w,
                   label=label)
        ax.set_xticks([i + 2 * w for i in range(len(rows))], [r[0] for r in rows])
        ax.set_ylabel("SpMV ms (OMP_NUM_THREADS=%s)" % os.environ["OMP_NUM_THREADS"])
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot)


if __name__ == "__main__":
    main()
