#!/usr/bin/python3
"""sparse_array against scipy.sparse and pydata/sparse on everyday kernels (issue 20).

Kernels, each a function of its own compiled by sparse-array-pipeline and
timed inside the program (sa_rt_seconds around the call, best of
--repeat), the references timed in Python on the same matrices (best of
--repeat), results cross-checked (entry count of sparse results, value
sum):

  add      C = A + B              map @add_f64 (the standard library's exact add)
  mul      C = A .* B             map @fmul (declared: annihilator 0)
  max      C = max(A, B)          map @max_f64 (exact: NaN and -0.0 < +0.0)
  xor      C = A xor B            Boolean patterns, map @xor_i1
  spmv     y = A x                Σ_j A(i, j) x(j), declared @fadd / @fmul
  spmv-exact                      the same with the standard library's exact
                                  @add_f64 / @mul_f64 (strategy
                                  signed_zero_dot: the dense fold's bits,
                                  x's inf/NaN/-0.0 included)
  rowsum   y = Σ_j A(i, j)        reduce @fadd dims [1]
  colsum   y = Σ_i A(i, j)        reduce @fadd dims [0] (a scatter reduction)
  rowsum-exact, colsum-exact      the same with the standard library's exact
                                  @add_f64 (identity -0.0; strategy
                                  signed_zero_sum: the dense fold's bits)
  rowmax   y = max_j A(i, j)      reduce @max_f64 dims [1]
  matmul   C = A @ B              CSR x CSR -> CSR with compressed(nonordered)
                                  columns, row-wise (Gustavson); scipy's rows
                                  are unsorted too
  matmul-sorted                   the same into CSR with ordered columns,
                                  against scipy's A @ B then sort_indices()
  matmul-exact                    matmul with the exact @add_f64 / @mul_f64
                                  (sparse-array-guard-exact-products: the
                                  row-wise product under a per-call guard)

@fadd / @fmul declare the finite-math properties scipy assumes (associative
add with identity 0.0, 0 annihilates mul); the standard library's exact
f64 add and mul give the dense program's result bit for bit at sparse cost
(rowsum-exact, colsum-exact, spmv-exact).
GraphBLAS runs in bench/graphblas (its C API; (min, +) SpMV there).

Inputs: two generated n x n CSR matrices with --per-row random columns per
row (default n = 2^19, 10 per row: 5.24M entries each) and values in
(-1, 1); matmul on n = 65536 (655k entries each); and the square real
matrices of ../shared/data/matrices (--matrix NAME, default four), B = Aᵀ
there. 32-bit positions and coordinates, as scipy stores them.

  bench/peers/bench_peers.py [--build build] [--rows 524288] [--repeat 5]
      [--matrix bcsstk13.mtx ...] [--no-pydata] [--plot FILE.png]
"""

import argparse
import math
import os
import sys
import tempfile

import numpy as np
import scipy.io
import scipy.sparse as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from common import FADD, FMUL, TIMING_DECLS, agree, best_of, run, write_json  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data", "matrices")
DEFAULT_MATRICES = ["bcsstk13.mtx", "cryg2500.mtx", "jagmesh7.mtx", "olm1000.mtx"]

KERNELS = ["add", "mul", "max", "xor", "spmv", "spmv-exact", "rowsum", "rowsum-exact", "colsum",
           "colsum-exact", "rowmax", "matmul", "matmul-sorted", "matmul-exact"]

FUNCS = """
sparse_array.func @add_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @mul_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<1.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
""" + FADD + FMUL + """sparse_array.func @max_f64(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<-inf : f64>} {
  %r = arith.maximumf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @xor_i1(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, identity = #sparse_array.identity<0 : i1>} {
  %r = arith.xori %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @nz(%x: f64) -> i1 {
  %z = arith.constant 0.0 : f64
  %r = arith.cmpf une, %x, %z : f64
  sparse_array.yield %r : i1
}
""" + TIMING_DECLS

W32 = ", pos_width = 32, crd_width = 32"
CSR = "#sparse_array.format<[dense, compressed]%s>" % W32
CSRU = "#sparse_array.format<[dense, compressed(nonordered)]%s>" % W32


def sa_program(n, repeat, kernels):
    A = "!sparse_array.array<%dx%dxf64, %s>" % (n, n, CSR)
    Ab = "!sparse_array.array<%dx%dxi1, %s>" % (n, n, CSR)
    Y = "!sparse_array.array<%dxf64>" % n
    U = "!sparse_array.array<%dx%dxf64, %s>" % (n, n, CSRU)
    funcs = []

    def fn(name, params, result, body):
        funcs.append("func.func @%s(%s) -> %s attributes {passthrough = [\"noinline\"]} {\n%s\n  return %%r : %s\n}"
                     % (name, ", ".join("%%%s: %s" % p for p in params), result, body, result))

    fn("bool", [("a", A)], Ab, "  %%r = sparse_array.map @nz(%%a) : (%s) -> %s" % (A, Ab))
    fn("add", [("a", A), ("b", A)], A, "  %%r = sparse_array.map @add_f64(%%a, %%b) : (%s, %s) -> %s" % (A, A, A))
    fn("mul", [("a", A), ("b", A)], A, "  %%r = sparse_array.map @fmul(%%a, %%b) : (%s, %s) -> %s" % (A, A, A))
    fn("max", [("a", A), ("b", A)], A, "  %%r = sparse_array.map @max_f64(%%a, %%b) : (%s, %s) -> %s" % (A, A, A))
    fn("xor", [("a", Ab), ("b", Ab)], Ab, "  %%r = sparse_array.map @xor_i1(%%a, %%b) : (%s, %s) -> %s" % (Ab, Ab, Ab))
    for name, mul, add in (("spmv", "fmul", "fadd"), ("spmv_exact", "mul_f64", "add_f64")):
        fn(name, [("a", A), ("x", Y)], Y, "\n".join([
            "  %%r = sparse_array.kernel ins(%%a, %%x : %s, %s) -> %s {" % (A, Y, Y),
            "  ^bb0(%%i: index, %%j: index, %%A: %s, %%X: %s):" % (A, Y),
            "    %%aij = sparse_array.access %%A[%%i, %%j] : %s" % A,
            "    %%xj = sparse_array.access %%X[%%j] : %s" % Y,
            "    %%p = sparse_array.apply @%s(%%aij, %%xj) : (f64, f64) -> f64" % mul,
            "    %%s = sparse_array.reduce_over [%%j] %%p with @%s : f64" % add,
            "    sparse_array.yield %s : f64",
            "  }"]))
    fn("rowsum", [("a", A)], Y, "  %%r = sparse_array.reduce @fadd %%a dims [1] : %s -> %s" % (A, Y))
    fn("colsum", [("a", A)], Y, "  %%r = sparse_array.reduce @fadd %%a dims [0] : %s -> %s" % (A, Y))
    fn("rowsum_exact", [("a", A)], Y, "  %%r = sparse_array.reduce @add_f64 %%a dims [1] : %s -> %s" % (A, Y))
    fn("colsum_exact", [("a", A)], Y, "  %%r = sparse_array.reduce @add_f64 %%a dims [0] : %s -> %s" % (A, Y))
    fn("rowmax", [("a", A)], Y, "  %%r = sparse_array.reduce @max_f64 %%a dims [1] : %s -> %s" % (A, Y))
    for name, C, mul, add in (("matmul", U, "fmul", "fadd"), ("matmul-sorted", A, "fmul", "fadd"),
                              ("matmul-exact", U, "mul_f64", "add_f64")):
        fn(name.replace("-", "_"), [("a", A), ("b", A)], C, "\n".join([
            "  %%r = sparse_array.kernel ins(%%a, %%b : %s, %s) -> %s {" % (A, A, C),
            "  ^bb0(%%i: index, %%j: index, %%k: index, %%P: %s, %%Q: %s):" % (A, A),
            "    %%p = sparse_array.access %%P[%%i, %%k] : %s" % A,
            "    %%q = sparse_array.access %%Q[%%k, %%j] : %s" % A,
            "    %%pq = sparse_array.apply @%s(%%p, %%q) : (f64, f64) -> f64" % mul,
            "    %%s = sparse_array.reduce_over [%%k] %%pq with @%s : f64" % add,
            "    sparse_array.yield %s : f64",
            "  }"]))
    args = {"add": ["%a", "%b"], "mul": ["%a", "%b"], "max": ["%a", "%b"], "xor": ["%ab", "%bb"],
            "spmv": ["%a", "%x"], "spmv-exact": ["%a", "%x"], "rowsum": ["%a"], "colsum": ["%a"],
            "rowsum-exact": ["%a"], "colsum-exact": ["%a"], "rowmax": ["%a"],
            "matmul": ["%a", "%b"], "matmul-sorted": ["%a", "%b"], "matmul-exact": ["%a", "%b"]}
    types = {"%a": A, "%b": A, "%ab": Ab, "%bb": Ab, "%x": Y}
    results = {"add": A, "mul": A, "max": A, "xor": Ab, "spmv": Y, "spmv-exact": Y, "rowsum": Y, "colsum": Y,
               "rowsum-exact": Y, "colsum-exact": Y,
               "rowmax": Y, "matmul": U, "matmul-sorted": A, "matmul-exact": U}
    main = ["func.func @main() {",
            "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
            "  %%nrep = arith.constant %d : index" % repeat,
            "  %big = arith.constant 1.0e300 : f64", "  %z = arith.constant 0.0 : f64",
            "  %sp = llvm.mlir.addressof @sp : !llvm.ptr",
            '  %a = sparse_array.read input %c0 {file_format = "mtx"} : ' + A,
            '  %b = sparse_array.read input %c1 {file_format = "mtx"} : ' + A,
            "  %%ab = func.call @bool(%%a) : (%s) -> %s" % (A, Ab),
            "  %%bb = func.call @bool(%%b) : (%s) -> %s" % (A, Ab),
            "  %%x = func.call @rowsum(%%a) : (%s) -> %s" % (A, Y)]
    for k, name in enumerate(kernels):
        rt = results[name]
        elt = "i1" if name == "xor" else "f64"
        call = "func.call @%s(%s) : (%s) -> %s" % (
            name.replace("-", "_"), ", ".join(args[name]), ", ".join(types[a] for a in args[name]), rt)
        # Boolean values sum as their count of true.
        add = ("      %w = arith.uitofp %e : i1 to f64\n      %a2 = arith.addf %acc, %w : f64"
               if elt == "i1" else "      %a2 = arith.addf %acc, %e : f64")
        main += [
            "  %%best%d, %%nnz%d, %%sum%d = scf.for %%r = %%c0 to %%nrep step %%c1"
            " iter_args(%%bb0 = %%big, %%n0 = %%c0, %%s0 = %%z) -> (f64, index, f64) {" % (k, k, k),
            "    %t0 = func.call @sa_rt_seconds() : () -> f64",
            "    %%c = %s" % call,
            "    %t1 = func.call @sa_rt_seconds() : () -> f64",
            "    %%v = sparse_array.values %%c : %s -> memref<?x%s>" % (rt, elt),
            "    %%n = memref.dim %%v, %%c0 : memref<?x%s>" % elt,
            "    %dt = arith.subf %t1, %t0 : f64",
            "    %b1 = arith.minimumf %bb0, %dt : f64",
            "    %s = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {",
            "      %%e = memref.load %%v[%%p] : memref<?x%s>" % elt,
            add,
            "      scf.yield %a2 : f64",
            "    }",
            "    sparse_array.dealloc %c : " + rt,
            "    scf.yield %b1, %n, %s : f64, index, f64",
            "  }",
            "  func.call @sa_rt_print_f64(%%best%d) : (f64) -> ()" % k,
            "  func.call @sa_rt_print_str(%sp) : (!llvm.ptr) -> ()",
            "  %%nn%d = arith.index_cast %%nnz%d : index to i64" % (k, k),
            "  func.call @sa_rt_print_i64(%%nn%d) : (i64) -> ()" % k,
            "  func.call @sa_rt_print_str(%sp) : (!llvm.ptr) -> ()",
            "  func.call @sa_rt_print_f64(%%sum%d) : (f64) -> ()" % k,
            "  func.call @sa_rt_print_newline() : () -> ()"]
    main += ["  return", "}"]
    return FUNCS + "\n".join(funcs) + "\n" + "\n".join(main) + "\n"

def summary(r, dense):
    """(entries, value sum): a dense result counts all its entries, as
    sparse_array's dense values buffer does."""
    if isinstance(r, np.ndarray) or dense:
        r = np.asarray(r.todense() if hasattr(r, "todense") else r).ravel()
        return int(r.size), float(r.astype(np.float64).sum())
    data = np.asarray(r.data)
    return int(r.nnz), float(data.astype(np.float64).sum())


DENSE = {"spmv", "spmv-exact", "rowsum", "colsum", "rowmax", "rowsum-exact", "colsum-exact"}


def sorted_product(a, b):
    c = a @ b
    c.sort_indices()
    return c


def reference_runs(a, b, kernels, repeat, with_pydata):
    x = np.asarray(a.sum(axis=1)).ravel()
    ab, bb = a.astype(bool), b.astype(bool)
    ops = {
        "scipy": {
            "add": lambda: a + b, "mul": lambda: a.multiply(b), "max": lambda: a.maximum(b),
            "xor": lambda: ab != bb, "spmv": lambda: a @ x,
            "rowsum": lambda: np.asarray(a.sum(axis=1)).ravel(),
            "colsum": lambda: np.asarray(a.sum(axis=0)).ravel(),
            "rowmax": lambda: a.max(axis=1).toarray().ravel(), "matmul": lambda: a @ b,
            "matmul-sorted": lambda: sorted_product(a, b),
            "matmul-exact": lambda: a @ b,
        }}
    ops["scipy"]["spmv-exact"] = ops["scipy"]["spmv"]
    ops["scipy"]["rowsum-exact"] = ops["scipy"]["rowsum"]
    ops["scipy"]["colsum-exact"] = ops["scipy"]["colsum"]
    if with_pydata:
        import sparse
        ga, gb = sparse.GCXS.from_scipy_sparse(a), sparse.GCXS.from_scipy_sparse(b)
        gab, gbb = ga.astype(bool), gb.astype(bool)
        ops["pydata"] = {
            "add": lambda: ga + gb, "mul": lambda: ga * gb,
            "max": lambda: sparse.elemwise(np.maximum, ga, gb),
            "xor": lambda: gab ^ gbb, "spmv": lambda: ga @ x,
            "rowsum": lambda: ga.sum(axis=1), "colsum": lambda: ga.sum(axis=0),
            "rowmax": lambda: ga.max(axis=1), "matmul": lambda: ga @ gb,
            "matmul-sorted": lambda: ga @ gb, "matmul-exact": lambda: ga @ gb,
        }
        ops["pydata"]["spmv-exact"] = ops["pydata"]["spmv"]
        ops["pydata"]["rowsum-exact"] = ops["pydata"]["rowsum"]
        ops["pydata"]["colsum-exact"] = ops["pydata"]["colsum"]
    out = {}
    for system, table in ops.items():
        out[system] = {}
        for name in kernels:
            t, r = best_of(repeat, table[name])
            out[system][name] = (t,) + summary(r, name in DENSE)
    return out

def sa_runs(sa_run, work, name, a_path, b_path, n, kernels, repeat):
    prog = os.path.join(work, name + ".mlir")
    with open(prog, "w") as f:
        f.write(sa_program(n, repeat, kernels))
    out = run([sa_run, prog, "--", a_path, b_path]).split("\n")
    res = {}
    for kern, line in zip(kernels, out):
        t, nnz, s = line.split()
        res[kern] = (float(t), int(nnz), float(s))
    return res

def write_mtx(path, a):
    c = a.tocoo()
    with open(path, "w") as f:
        f.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n"
                % (c.shape[0], c.shape[1], c.nnz))
        np.savetxt(f, np.column_stack([c.row + 1, c.col + 1, c.data]), fmt="%d %d %.17g")


def generated(n, per_row, seed):
    rng = np.random.default_rng(seed)
    rows = np.repeat(np.arange(n), per_row)
    cols = rng.integers(0, n, size=n * per_row)
    vals = rng.uniform(-1.0, 1.0, size=n * per_row)
    a = sp.csr_matrix((vals, (rows, cols)), shape=(n, n))
    a.sum_duplicates()
    return a


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--rows", type=int, default=1 << 19)
    p.add_argument("--matmul-rows", type=int, default=1 << 16)
    p.add_argument("--per-row", type=int, default=10)
    p.add_argument("--matrix", action="append", default=[])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--kernels", default=",".join(KERNELS))
    p.add_argument("--no-pydata", action="store_true")
    p.add_argument("--pydata-max-entries", type=int, default=1 << 20,
                   help="skip pydata above this many entries (its matmul and "
                   "reductions take seconds)")
    p.add_argument("--plot", default="")
    p.add_argument("--keep", default="")
    p.add_argument("--json", default="", help="write {kernel/input: scipy/sa} here")
    args = p.parse_args()
    kernels = args.kernels.split(",")
    work = args.keep or tempfile.mkdtemp(prefix="sparse-array-bench-peers-")
    os.makedirs(work, exist_ok=True)
    sa_run = os.path.join(args.build, "bin", "sa-run")

    # (name, A, B, kernels)
    inputs = []
    products = [k for k in kernels if k.startswith("matmul")]
    big = [k for k in kernels if k not in products]
    if big:
        inputs.append(("gen-%d" % args.rows, generated(args.rows, args.per_row, 1),
                       generated(args.rows, args.per_row, 2), big))
    if products:
        inputs.append(("gen-%d" % args.matmul_rows, generated(args.matmul_rows, args.per_row, 3),
                       generated(args.matmul_rows, args.per_row, 4), products))
    for m in args.matrix or DEFAULT_MATRICES:
        path = m if os.path.isabs(m) else os.path.join(SHARED, m)
        if not os.path.exists(path):
            print("skipping %s: not found" % path)
            continue
        a = sp.csr_matrix(scipy.io.mmread(path), dtype=np.float64)
        if a.shape[0] != a.shape[1]:
            print("skipping %s: not square" % path)
            continue
        a.sum_duplicates()
        a.eliminate_zeros()
        inputs.append((os.path.basename(m)[:-4], a, sp.csr_matrix(a.T), kernels))

    table = []  # (kernel, input, nnz, times, agree, detail)
    for name, a, b, kerns in inputs:
        pa, pb = os.path.join(work, name + "-a.mtx"), os.path.join(work, name + "-b.mtx")
        write_mtx(pa, a)
        write_mtx(pb, b)
        sa = sa_runs(sa_run, work, name, pa, pb, a.shape[0], kerns, args.repeat)
        ref = reference_runs(a, b, kerns, args.repeat,
                             not args.no_pydata and a.nnz <= args.pydata_max_entries)
        for k in kerns:
            sc, py = ref["scipy"][k], ref.get("pydata", {}).get(k)
            # scipy's matmul keeps products that cancel to 0: sums only.
            ok = agree(sa[k], sc) or (k.startswith("matmul") and math.isclose(sa[k][2], sc[2], rel_tol=1e-9))
            table.append((k, name, a.nnz, sa[k][0], sc[0], py[0] if py else float("nan"), ok,
                          (sa[k], sc, py)))
        print("measured %s" % name, file=sys.stderr)

    print("%-8s %-14s %9s %10s %10s %11s %9s %9s %6s" % (
        "kernel", "input", "entries", "sa [ms]", "scipy [ms]", "pydata [ms]", "scipy/sa",
        "pydata/sa", "agree"))
    for k, name, nnz, ts, tc, tp, ok, detail in table:
        print("%-8s %-14s %9d %10.3f %10.3f %11.3f %9.2f %9.2f %6s" % (
            k, name, nnz, 1e3 * ts, 1e3 * tc, 1e3 * tp, tc / ts, tp / ts, "yes" if ok else "NO"))
        if not ok:
            print("    sa %s scipy %s pydata %s" % detail)
    gm = lambda v: math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")
    large = [r[4] / r[3] for r in table if r[2] >= 1000000]
    counted = [r for r in table if r[2] >= 100000]
    print("\ngeomean scipy/sa, inputs >= 1M entries: %.2f (target >= 1.2)" % gm(large))
    worst = min(counted, key=lambda r: r[4] / r[3]) if counted else None
    if worst:
        print("least scipy/sa, inputs >= 100k entries: %.2f (%s on %s; target >= 1.0)"
              % (worst[4] / worst[3], worst[0], worst[1]))
    if args.json:
        write_json(args.json, {"%s/%s" % (r[0], r[1]): r[4] / r[3] for r in table})
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(10, 5))
        names = sorted({r[1] for r in table})
        for i, name in enumerate(names):
            rows = [r for r in table if r[1] == name]
            ax.bar([KERNELS.index(r[0]) + 0.8 * i / len(names) for r in rows],
                   [r[4] / r[3] for r in rows], width=0.8 / len(names), label=name)
        ax.axhline(1.0, color="k", lw=0.8)
        ax.set_xticks(range(len(KERNELS)), KERNELS, rotation=30)
        ax.set_yscale("log")
        ax.set_ylabel("scipy time / sparse_array time")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
        print("plot: %s" % args.plot)
    if any(not r[6] for r in table):
        sys.exit("results disagree")


if __name__ == "__main__":
    main()
