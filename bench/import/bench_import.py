#!/usr/bin/env python3
"""The same linalg programs on sparse_tensor tensors, compiled two ways.

Each program (SpMV, element-wise add of two CSR matrices into CSR, SpGEMM
into CSR, row sums, SpMM and SDDMM with dense factors of --width columns,
linalg.dot of a sparse and a dense vector of 16 n entries, a 2-D
convolution of a dense image of n * per_row pixels with a sparse 5 x 5
filter, MTTKRP of a sparse n x 256 x 256 tensor of n * per_row entries) is
written once as frontends emit it — linalg on
#sparse_tensor.encoding tensors, inputs read with sparse_tensor.new from
getTensorFilename(i) — and run:
  * upstream: mlir-opt --sparsifier | mlir-runner (TENSOR<i> name the files);
  * sparse_array: sa-run, which imports it (sparse-array-import-sparse-tensor)
    and compiles it with sparse-array-pipeline (inputs by position).
Each program times its kernel call with rtclock (libmlir_c_runner_utils) in
the same process, repeated; the best time per kernel is reported with the
ratio upstream / sparse_array (> 1: sparse_array is faster), for sa-run's
default (OpenMP on all cores) and for --disable-openmp (sequential code,
as upstream's pipeline makes). Both runs read
the same generated Matrix Market files; the first printed result of each
run is compared entry by entry so that a fast wrong answer cannot win.

  bench/import/bench_import.py [--sa-run build/bin/sa-run] [--n 200000]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.io
import scipy.sparse as sp

LLVM = "/usr/lib/llvm-22"
RUNNER_LIBS = [f"{LLVM}/lib/libmlir_c_runner_utils.so",
               f"{LLVM}/lib/libmlir_runner_utils.so"]

HEADER = """
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#DV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense) }>
#DD = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : dense) }>
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
#CSF = #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : compressed, d1 : compressed, d2 : compressed) }>
func.func private @rtclock() -> f64
func.func private @printFlops(f64)
func.func private @getTensorFilename(index) -> (!llvm.ptr)
"""

# name -> (kernel function, inputs as (file index, type), result type)
KERNELS = {
    "spmv": ("""
func.func @kernel(%A: tensor<{n}x{n}xf64, #CSR>, %x: tensor<{n}xf64, #DV>) -> tensor<{n}xf64> {{
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<{n}xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<{n}xf64>) -> tensor<{n}xf64>
  %r = linalg.matvec ins(%A, %x : tensor<{n}x{n}xf64, #CSR>, tensor<{n}xf64, #DV>) outs(%y : tensor<{n}xf64>) -> tensor<{n}xf64>
  return %r : tensor<{n}xf64>
}}""", ["tensor<{n}x{n}xf64, #CSR>", "tensor<{n}xf64, #DV>"], "tensor<{n}xf64>"),
    "add": ("""
func.func @kernel(%A: tensor<{n}x{n}xf64, #CSR>, %B: tensor<{n}x{n}xf64, #CSR>) -> tensor<{n}x{n}xf64, #CSR> {{
  %e = tensor.empty() : tensor<{n}x{n}xf64, #CSR>
  %r = linalg.add ins(%A, %B : tensor<{n}x{n}xf64, #CSR>, tensor<{n}x{n}xf64, #CSR>) outs(%e : tensor<{n}x{n}xf64, #CSR>) -> tensor<{n}x{n}xf64, #CSR>
  return %r : tensor<{n}x{n}xf64, #CSR>
}}""", ["tensor<{n}x{n}xf64, #CSR>", "tensor<{n}x{n}xf64, #CSR>"],
        "tensor<{n}x{n}xf64, #CSR>"),
    "spgemm": ("""
func.func @kernel(%A: tensor<{n}x{n}xf64, #CSR>, %B: tensor<{n}x{n}xf64, #CSR>) -> tensor<{n}x{n}xf64, #CSR> {{
  %e = tensor.empty() : tensor<{n}x{n}xf64, #CSR>
  %r = linalg.matmul ins(%A, %B : tensor<{n}x{n}xf64, #CSR>, tensor<{n}x{n}xf64, #CSR>) outs(%e : tensor<{n}x{n}xf64, #CSR>) -> tensor<{n}x{n}xf64, #CSR>
  return %r : tensor<{n}x{n}xf64, #CSR>
}}""", ["tensor<{n}x{n}xf64, #CSR>", "tensor<{n}x{n}xf64, #CSR>"],
        "tensor<{n}x{n}xf64, #CSR>"),
    "rowsum": ("""
func.func @kernel(%A: tensor<{n}x{n}xf64, #CSR>) -> tensor<{n}xf64> {{
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<{n}xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<{n}xf64>) -> tensor<{n}xf64>
  %r = linalg.reduce ins(%A : tensor<{n}x{n}xf64, #CSR>) outs(%y : tensor<{n}xf64>) dimensions = [1]
    (%in: f64, %acc: f64) {{
      %s = arith.addf %acc, %in : f64
      linalg.yield %s : f64
    }}
  return %r : tensor<{n}xf64>
}}""", ["tensor<{n}x{n}xf64, #CSR>"], "tensor<{n}xf64>"),
    # C = A B with B dense n x W (what GNN layers do).
    "spmm": ("""
func.func @kernel(%A: tensor<{n}x{n}xf64, #CSR>, %B: tensor<{n}x{w}xf64, #DD>) -> tensor<{n}x{w}xf64> {{
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<{n}x{w}xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<{n}x{w}xf64>) -> tensor<{n}x{w}xf64>
  %r = linalg.matmul ins(%A, %B : tensor<{n}x{n}xf64, #CSR>, tensor<{n}x{w}xf64, #DD>) outs(%y : tensor<{n}x{w}xf64>) -> tensor<{n}x{w}xf64>
  return %r : tensor<{n}x{w}xf64>
}}""", ["tensor<{n}x{n}xf64, #CSR>", "tensor<{n}x{w}xf64, #DD>"], "tensor<{n}x{w}xf64>"),
    # X = S .* (U V) sampled at S's entries, into CSR (fused: upstream's
    # own sparse_sampled_mm_fusion kernel).
    "sddmm": ("""
func.func @kernel(%S: tensor<{n}x{n}xf64, #CSR>, %U: tensor<{n}x{w}xf64, #DD>, %V: tensor<{w}x{n}xf64, #DD>) -> tensor<{n}x{n}xf64, #CSR> {{
  %e = tensor.empty() : tensor<{n}x{n}xf64, #CSR>
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}}
    ins(%S, %U, %V : tensor<{n}x{n}xf64, #CSR>, tensor<{n}x{w}xf64, #DD>, tensor<{w}x{n}xf64, #DD>) outs(%e : tensor<{n}x{n}xf64, #CSR>) {{
    ^bb0(%s: f64, %u: f64, %v: f64, %x: f64):
      %p = arith.mulf %u, %v : f64
      %q = arith.mulf %s, %p : f64
      %a = arith.addf %x, %q : f64
      linalg.yield %a : f64
  }} -> tensor<{n}x{n}xf64, #CSR>
  return %r : tensor<{n}x{n}xf64, #CSR>
}}""", ["tensor<{n}x{n}xf64, #CSR>", "tensor<{n}x{w}xf64, #DD>", "tensor<{w}x{n}xf64, #DD>"],
        "tensor<{n}x{n}xf64, #CSR>"),
    # linalg.dot of a sparse and a dense vector into a 0-d tensor made by
    # a splat constant.
    "dot": ("""
func.func @kernel(%a: tensor<{nn}xf64, #SV>, %b: tensor<{nn}xf64, #DV>) -> tensor<f64> {{
  %z = arith.constant dense<0.0> : tensor<f64>
  %r = linalg.dot ins(%a, %b : tensor<{nn}xf64, #SV>, tensor<{nn}xf64, #DV>) outs(%z : tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>
}}""", ["tensor<{nn}xf64, #SV>", "tensor<{nn}xf64, #DV>"], "tensor<f64>"),
    # 2-D convolution of a dense h x h image with a sparse 5 x 5 filter
    # (upstream's sparse_conv_2d shape), h = sqrt(n * per_row).
    "conv": ("""
func.func @kernel(%I: tensor<{h}x{h}xf64, #DD>, %F: tensor<5x5xf64, #CSR>) -> tensor<{ho}x{ho}xf64> {{
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<{ho}x{ho}xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<{ho}x{ho}xf64>) -> tensor<{ho}x{ho}xf64>
  %r = linalg.conv_2d ins(%I, %F : tensor<{h}x{h}xf64, #DD>, tensor<5x5xf64, #CSR>) outs(%y : tensor<{ho}x{ho}xf64>) -> tensor<{ho}x{ho}xf64>
  return %r : tensor<{ho}x{ho}xf64>
}}""", ["tensor<{h}x{h}xf64, #DD>", "tensor<5x5xf64, #CSR>"], "tensor<{ho}x{ho}xf64>"),
    # MTTKRP: A(i, j) = sum_k,l B(i, k, l) C(k, j) D(l, j), B a sparse
    # n x 256 x 256 CSF tensor.
    "mttkrp": ("""
func.func @kernel(%B: tensor<{n}x256x256xf64, #CSF>, %C: tensor<256x{w}xf64, #DD>, %D: tensor<256x{w}xf64, #DD>) -> tensor<{n}x{w}xf64> {{
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<{n}x{w}xf64>
  %y = linalg.fill ins(%z : f64) outs(%e : tensor<{n}x{w}xf64>) -> tensor<{n}x{w}xf64>
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j, k, l) -> (i, k, l)>, affine_map<(i, j, k, l) -> (k, j)>, affine_map<(i, j, k, l) -> (l, j)>, affine_map<(i, j, k, l) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}}
    ins(%B, %C, %D : tensor<{n}x256x256xf64, #CSF>, tensor<256x{w}xf64, #DD>, tensor<256x{w}xf64, #DD>) outs(%y : tensor<{n}x{w}xf64>) {{
    ^bb0(%b: f64, %c: f64, %d: f64, %a: f64):
      %p = arith.mulf %b, %c : f64
      %q = arith.mulf %p, %d : f64
      %s = arith.addf %a, %q : f64
      linalg.yield %s : f64
  }} -> tensor<{n}x{w}xf64>
  return %r : tensor<{n}x{w}xf64>
}}""", ["tensor<{n}x256x256xf64, #CSF>", "tensor<256x{w}xf64, #DD>", "tensor<256x{w}xf64, #DD>"],
        "tensor<{n}x{w}xf64>"),
}


def conv_side(n, per_row):
    return max(int(round((n * per_row) ** 0.5)), 8)


def program(name, n, repeat, w=8, per_row=10):
    body, in_types, out_type = KERNELS[name]
    h = conv_side(n, per_row)
    fmt = dict(n=n, w=w, nn=n * 16, h=h, ho=h - 4)
    in_types = [t.format(**fmt) for t in in_types]
    out_type = out_type.format(**fmt)
    lines = [HEADER, body.format(**fmt), "func.func @main() {",
             "  %giga = arith.constant 1.0e9 : f64"]
    args = []
    for i, t in enumerate(in_types):
        lines.append(f"  %c{i} = arith.constant {i} : index")
        lines.append(f"  %f{i} = call @getTensorFilename(%c{i}) : (index) -> !llvm.ptr")
        lines.append(f"  %in{i} = sparse_tensor.new %f{i} : !llvm.ptr to {t}")
        args.append(f"%in{i}")
    sig = f"({', '.join(in_types)}) -> {out_type}"
    # The first result is printed (compared between the two runs); the
    # timed calls follow.
    lines.append(f"  %r0 = call @kernel({', '.join(args)}) : {sig}")
    if "#CSR" in out_type:
        lines.append(f"  sparse_tensor.print %r0 : {out_type}")
    elif out_type == "tensor<f64>":
        lines.append("  %v0 = tensor.extract %r0[] : tensor<f64>")
        lines.append("  vector.print %v0 : f64")
    else:
        dense = "#DV" if out_type.count("x") == 1 else "#DD"
        lines.append(f"  %p0 = sparse_tensor.convert %r0 : {out_type} to {out_type}, {dense}>\n"
                     f"  sparse_tensor.print %p0 : {out_type}, {dense}>")
    for k in range(repeat):
        lines.append(f"  %t{k}a = call @rtclock() : () -> f64")
        lines.append(f"  %r{k + 1} = call @kernel({', '.join(args)}) : {sig}")
        lines.append(f"  %t{k}b = call @rtclock() : () -> f64")
        lines.append(f"  %d{k} = arith.subf %t{k}b, %t{k}a : f64")
        # printFlops writes "X GFLOPS" (X = its argument / 1e9) to stderr:
        # the seconds, and no clash with the printF64 upstream's print
        # lowering declares.
        lines.append(f"  %ns{k} = arith.mulf %d{k}, %giga : f64")
        lines.append(f"  call @printFlops(%ns{k}) : (f64) -> ()")
        lines.append(f"  bufferization.dealloc_tensor %r{k + 1} : {out_type}")
    lines.append("  return\n}")
    return "\n".join(lines)


def fix_dv(text):
    # tensor<Nxf64>, #DV> -> tensor<Nxf64, #DV> (and #DD)
    return text.replace(">, #DV>", ", #DV>").replace(">, #DD>", ", #DD>")


def times_of(stderr):
    """The seconds printFlops wrote ("X GFLOPS" lines)."""
    return [float(line.split()[0]) for line in stderr.splitlines()
            if line.endswith("GFLOPS")]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap.add_argument("--sa-run", default=os.path.join(root, "build/bin/sa-run"))
    ap.add_argument("--n", type=int, default=200000)
    ap.add_argument("--per-row", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--kernels",
                    default="spmv,add,rowsum,spgemm,spmm,sddmm,dot,conv,mttkrp")
    ap.add_argument("--width", type=int, default=8,
                    help="columns of SpMM's and SDDMM's dense factors")
    args = ap.parse_args()
    sys.path.insert(0, os.path.join(root, "test/Import/Inputs"))
    import compare_prints

    rng = np.random.default_rng(19)
    n = args.n
    with tempfile.TemporaryDirectory() as tmp:
        def matrix(path, seed):
            r = np.random.default_rng(seed)
            nnz = n * args.per_row
            m = sp.coo_matrix((r.standard_normal(nnz),
                               (r.integers(0, n, nnz), r.integers(0, n, nnz))),
                              shape=(n, n)).tocsr()
            m.sum_duplicates()
            scipy.io.mmwrite(path, m)
            return path
        a = matrix(os.path.join(tmp, "a.mtx"), 1)
        b = matrix(os.path.join(tmp, "b.mtx"), 2)
        # A dense vector as a FROSTT file (one line per entry).
        xt = os.path.join(tmp, "x.tns")
        with open(xt, "w") as f:
            f.write(f"1 {n}\n{n}\n")
            for i, v in enumerate(rng.standard_normal(n)):
                f.write(f"{i + 1} {v!r}\n")
        def dense_tns(path, rows, cols, seed):
            # A dense matrix as a FROSTT file (every entry listed).
            r = np.random.default_rng(seed)
            vals = r.standard_normal(rows * cols)
            with open(path, "w") as f:
                f.write(f"2 {rows * cols}\n{rows} {cols}\n")
                ii, jj = np.divmod(np.arange(rows * cols), cols)
                f.writelines(f"{i + 1} {j + 1} {v!r}\n"
                             for i, j, v in zip(ii, jj, vals))
            return path
        w = args.width
        nn = n * 16
        u = dense_tns(os.path.join(tmp, "u.tns"), n, w, 3)
        v = dense_tns(os.path.join(tmp, "v.tns"), w, n, 4)
        # Sparse and dense vectors of n * 16 entries (dot).
        sv = os.path.join(tmp, "sv.tns")
        r = np.random.default_rng(5)
        where = np.sort(r.choice(nn, nn // 10, replace=False))
        with open(sv, "w") as f:
            f.write(f"1 {len(where)}\n{nn}\n")
            f.writelines(f"{i + 1} {x!r}\n"
                         for i, x in zip(where, r.standard_normal(len(where))))
        dv = os.path.join(tmp, "dv.tns")
        with open(dv, "w") as f:
            f.write(f"1 {nn}\n{nn}\n")
            f.writelines(f"{i + 1} {x!r}\n"
                         for i, x in enumerate(rng.standard_normal(nn)))
        # conv: a dense h x h image (n * per_row entries) and a 5 x 5 filter
        # with 9 entries.
        h = conv_side(n, args.per_row)
        image = dense_tns(os.path.join(tmp, "image.tns"), h, h, 6)
        fr = np.random.default_rng(7)
        taps = fr.choice(25, 9, replace=False)
        filt = sp.coo_matrix((fr.standard_normal(9), (taps // 5, taps % 5)),
                             shape=(5, 5))
        filt_path = os.path.join(tmp, "filter.mtx")
        scipy.io.mmwrite(filt_path, filt)
        # mttkrp: n x 256 x 256 with n * per_row entries, factors 256 x w.
        bt = os.path.join(tmp, "b3.tns")
        r3 = np.random.default_rng(8)
        nnz = n * args.per_row
        coords = np.unique(np.stack([r3.integers(0, n, nnz),
                                     r3.integers(0, 256, nnz),
                                     r3.integers(0, 256, nnz)], axis=1), axis=0)
        with open(bt, "w") as f:
            f.write(f"3 {len(coords)}\n{n} 256 256\n")
            f.writelines(f"{i + 1} {k + 1} {l + 1} {x!r}\n"
                         for (i, k, l), x in zip(coords, r3.standard_normal(len(coords))))
        cf = dense_tns(os.path.join(tmp, "c.tns"), 256, w, 9)
        df = dense_tns(os.path.join(tmp, "d.tns"), 256, w, 10)
        files = {"spmv": [a, xt], "add": [a, b], "spgemm": [a, b],
                 "rowsum": [a], "spmm": [a, u], "sddmm": [a, u, v],
                 "dot": [sv, dv], "conv": [image, filt_path],
                 "mttkrp": [bt, cf, df]}
        print(f"n = {n}, {args.per_row} entries per row, best of "
              f"{args.repeat} calls per kernel (ms)")
        print(f"{'kernel':8} {'upstream':>10} {'sparse_array':>13} "
              f"{'ratio':>7} {'sequential':>13} {'ratio':>7}")
        for name in args.kernels.split(","):
            text = fix_dv(program(name, n, args.repeat, w, args.per_row))
            prog = os.path.join(tmp, f"{name}.mlir")
            with open(prog, "w") as f:
                f.write(text)
            env = dict(os.environ)
            for i, path in enumerate(files[name]):
                env[f"TENSOR{i}"] = path
            lowered = subprocess.run(
                [f"{LLVM}/bin/mlir-opt", prog, "--sparsifier"],
                capture_output=True, text=True, check=True).stdout
            up = subprocess.run(
                [f"{LLVM}/bin/mlir-runner", "-e", "main",
                 "-entry-point-result=void",
                 "-shared-libs=" + ",".join(RUNNER_LIBS)],
                input=lowered, capture_output=True, text=True, env=env,
                check=True)
            def run_sa(*options):
                return subprocess.run(
                    [args.sa_run, *options, "--shared-libs=" + RUNNER_LIBS[0],
                     prog, "--"] + files[name], capture_output=True,
                    text=True, check=True)
            sa = run_sa()
            # Sequential code (no OpenMP), as upstream's --sparsifier makes.
            sa1 = run_sa("--disable-openmp")
            if name == "dot":
                # One scalar each (upstream prints 6 significant digits).
                got, want = float(sa.stdout.split()[0]), float(up.stdout.split()[0])
                if not compare_prints.same(got, want):
                    print(f"dot: {got} vs upstream {want}")
                    return 1
                sa_arrays = up_arrays = [((), 0.0, {})]
            else:
                # Both print sparse_tensor.print's text (imported programs
                # print as upstream's do).
                sa_arrays = compare_prints.entries_upstream(sa.stdout)
                up_arrays = compare_prints.entries_upstream(up.stdout)
            if len(sa_arrays) != 1 or len(up_arrays) != 1:
                print(f"{name}: {len(sa_arrays)} vs {len(up_arrays)} results")
                return 1
            bad = compare_prints.differences(sa_arrays[0], up_arrays[0])
            if bad:
                print(f"{name}: results differ in {len(bad)} entries, "
                      f"e.g. {bad[:3]}")
                return 1
            tu = min(times_of(up.stderr)) * 1e3
            ts = min(times_of(sa.stderr)) * 1e3
            ts1 = min(times_of(sa1.stderr)) * 1e3
            print(f"{name:8} {tu:10.3f} {ts:13.3f} {tu / ts:7.2f} "
                  f"{ts1:13.3f} {tu / ts1:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
