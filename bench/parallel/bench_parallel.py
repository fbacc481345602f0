#!/usr/bin/python3
"""Parallel kernels: 1 vs 2 (or more) threads, with GraphBLAS alongside.

On an R-MAT graph (bench/graphblas/gb_bench.c: --scale 18, 16 edges per
vertex requested, power-law degrees) the same run times

  spmv      y = A w over (+, x), w dense (GrB_mxv, GrB_PLUS_TIMES_FP64)
  rowsum    y(i) = sum_j A(i, j)        (GrB_Matrix_reduce_Monoid, PLUS)
  colsum    y(j) = sum_i A(i, j)        (the same of A transposed, GrB_DESC_T0;
            sparse_array: a scatter reduction, each part of the rows adding
            into column sums of its own, the parts' sums added per column
            in order)
  total     s = sum_ij A(i, j)          (GrB_Matrix_reduce_FP64; sparse_array:
            row parts of equal entries, the parts' sums added in order)
  add       C = A + B into CSR, B = A with columns shifted by one
            (GrB_eWiseAdd; sparse_array assembles C's rows in chained
            parts: each part's rows computed once into a scratch buffer,
            copied to where the part before it ended; --assembly two-phase
            counts, then fills)
  add-dcsr  the same with A, B and C stored as DCSR (rows as stored
            coordinates: sparse_array cuts them into ranges at A's, each
            range's segments found by bisection, C in parts joined in
            order; GraphBLAS's add above is its counterpart)
  add-coo   the same into COO from CSR operands (rows in parts, each
            assembling a COO of its own)
  mxv-tropical  y<¬m> = A min.+ d into a compressed vector (GrB_mxv with
            GrB_DESC_RC; sparse_array: row parts appending to buffers of
            their own, joined in order)
  spgemm    C = A +.× F into CSR, F: n x 64 frontiers (GrB_mxm; row-wise:
            rows in parts of equal products, a workspace per part)
  mxm-tropical  C<¬V> = A min.+ F, V: what each source saw (GrB_mxm with
            GrB_DESC_RC; the mask is read per row, its complement kept)
  spmv-sin  y(i) = sum_j sin(A(i, j) w(j))   (compute-bound rows; no
            GraphBLAS counterpart)
  ceiling   a C loop with `#pragma omp parallel for` over independent
            entries (sin/cos of the index): what this machine's threads give
            a compute-bound loop that shares nothing
  stream    a C `omp parallel for` a = b + 2c over 3 x 128 MiB: what they
            give a memory-bound one (SpMV, row sums and add read far more
            than they compute)

with sparse_array (sa-run --num-threads T: the kernels' outermost loops are
planned parallel, sparse-array-plan-parallel) and with SuiteSparse:GraphBLAS
(GxB_NTHREADS = T), for T = 1 and each of --threads. Both sides read the
same graph and vector; each prints the best of --repeat calls per process
and a checksum, which must agree; processes alternate over --rounds. Reports
times, speed-ups over one thread (target, issue 17: >= 1.8 on 2 threads for
SpMV and row sums) and gb/sa ratios at equal thread counts.

  bench/parallel/bench_parallel.py [--build build] [--scale 18]
      [--threads 2] [--repeat 10] [--rounds 3] [--keep DIR]
      [--assembly auto|two-phase|parts|chained]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "graphblas"))
from bench_graphblas import TROPICAL  # noqa: E402
from common import write_json  # noqa: E402

PROGRAM = r'''
!g = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]>>
!w = !sparse_array.array<?xf64, #sparse_array.format<[dense], fill = inf : f64>>
!y = !sparse_array.array<?xf64>
!s = !sparse_array.array<f64>
!gi = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = inf : f64>>
!b = !sparse_array.array<?x?xi1, #sparse_array.format<[dense, compressed]>>
!vb = !sparse_array.array<?xi1>
!vd = !sparse_array.array<?xf64, #sparse_array.format<[dense], fill = inf : f64>>
!yd = !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = inf : f64>>
!cd = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = inf : f64>>
!h = !sparse_array.array<?x?xf64, #sparse_array.format<[compressed, compressed]>>
!coo = !sparse_array.array<?x?xf64, #sparse_array.format<[compressed(nonunique), singleton]>>

// GraphBLAS's semiring: implicit entries are not visited (finite math).
sparse_array.func @plus(%x: f64, %y: f64) -> f64 attributes {commutative, associative,
    identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @times(%x: f64, %y: f64) -> f64 attributes {commutative,
    annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @sin_times(%x: f64, %y: f64) -> f64 attributes {commutative,
    annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %p = arith.mulf %x, %y : f64
  %r = math.sin %p : f64
  sparse_array.yield %r : f64
}

TROPICAL_FUNCS
func.func private @sa_rt_seconds() -> f64
func.func private @sa_rt_print_f64(f64)
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_str(!llvm.ptr)
func.func private @sa_rt_print_newline()
llvm.mlir.global internal constant @sp(" \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @k_spmv("sa-spmv \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @k_rowsum("sa-rowsum \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @k_colsum("sa-colsum \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @k_sin("sa-spmv-sin \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @k_add("sa-add \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @k_spgemm("sa-spgemm \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @k_mxm("sa-mxm-tropical \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @k_mxv("sa-mxv-tropical \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @k_total("sa-total \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @k_addh("sa-add-dcsr \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @k_addcoo("sa-add-coo \00") {addr_space = 0 : i32}

// The sum of every entry: the rows in parts of equal entries, each summed
// on its own, the parts' sums added in order.
func.func @total(%a: !g, %w: !w) -> !s attributes {passthrough = ["noinline"]} {
  %s = sparse_array.reduce @plus %a dims [0, 1] : !g -> !s
  return %s : !s
}

// mxv_tropical (bench_graphblas.TROPICAL): a compressed vector in row parts
// of equal entries, each appending to buffers of its own, joined in order;
// mxm_tropical: rows in parts of equal products, a workspace per part.

// A row-wise (Gustavson) product C = A +.× F: rows in parts of equal
// products, a workspace per part.
func.func @spgemm(%a: !g, %f: !g) -> !g attributes {passthrough = ["noinline"]} {
  %c = sparse_array.kernel ins(%a, %f : !g, !g) -> !g {
  ^bb0(%i: index, %j: index, %k: index, %A: !g, %F: !g):
    %aik = sparse_array.access %A[%i, %k] : !g
    %fkj = sparse_array.access %F[%k, %j] : !g
    %p = sparse_array.apply @times(%aik, %fkj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %p with @plus : f64
    sparse_array.yield %s : f64
  }
  return %c : !g
}

// C = A + B into CSR: rows assembled in two phases (count, scan, fill).
func.func @add(%a: !g, %b: !g) -> !g attributes {passthrough = ["noinline"]} {
  %c = sparse_array.map @plus(%a, %b) : (!g, !g) -> !g
  return %c : !g
}

// DCSR + DCSR into DCSR: ranges of stored rows, C in parts.
func.func @add_dcsr(%a: !h, %b: !h) -> !h attributes {passthrough = ["noinline"]} {
  %c = sparse_array.map @plus(%a, %b) : (!h, !h) -> !h
  return %c : !h
}

// CSR + CSR into COO: rows in parts, each a COO of its own.
func.func @add_coo(%a: !g, %b: !g) -> !coo attributes {passthrough = ["noinline"]} {
  %c = sparse_array.map @plus(%a, %b) : (!g, !g) -> !coo
  return %c : !coo
}

func.func @spmv(%a: !g, %w: !w) -> !y attributes {passthrough = ["noinline"]} {
  %y = sparse_array.kernel ins(%a, %w : !g, !w) -> !y {
  ^bb0(%i: index, %j: index, %A: !g, %W: !w):
    %aij = sparse_array.access %A[%i, %j] : !g
    %wj = sparse_array.access %W[%j] : !w
    %p = sparse_array.apply @times(%aij, %wj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @plus : f64
    sparse_array.yield %s : f64
  }
  return %y : !y
}
func.func @spmv_sin(%a: !g, %w: !w) -> !y attributes {passthrough = ["noinline"]} {
  %y = sparse_array.kernel ins(%a, %w : !g, !w) -> !y {
  ^bb0(%i: index, %j: index, %A: !g, %W: !w):
    %aij = sparse_array.access %A[%i, %j] : !g
    %wj = sparse_array.access %W[%j] : !w
    %p = sparse_array.apply @sin_times(%aij, %wj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @plus : f64
    sparse_array.yield %s : f64
  }
  return %y : !y
}
func.func @rowsum(%a: !g, %w: !w) -> !y attributes {passthrough = ["noinline"]} {
  %y = sparse_array.reduce @plus %a dims [1] : !g -> !y
  return %y : !y
}
func.func @colsum(%a: !g, %w: !w) -> !y attributes {passthrough = ["noinline"]} {
  %y = sparse_array.reduce @plus %a dims [0] : !g -> !y
  return %y : !y
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nrep = arith.constant REPEAT : index
  %big = arith.constant 1.0e300 : f64
  %z = arith.constant 0.0 : f64
  %sp = llvm.mlir.addressof @sp : !llvm.ptr
  %a = sparse_array.read input %c0 {file_format = "mtx"} : !g
  %w = sparse_array.read input %c1 {file_format = "text"} : !w
  %c2 = arith.constant 2 : index
  %b = sparse_array.read input %c2 {file_format = "mtx"} : !g
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %f = sparse_array.read input %c3 {file_format = "mtx"} : !g
  %ai = sparse_array.read input %c0 {file_format = "mtx"} : !gi
  %fi = sparse_array.read input %c3 {file_format = "mtx"} : !gi
  %vis = sparse_array.read input %c4 {file_format = "mtx"} : !b
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %m = sparse_array.read input %c5 {file_format = "text"} : !vb
  %d = sparse_array.read input %c6 {file_format = "text"} : !vd
  %ah = sparse_array.convert %a : !g to !h
  %bh = sparse_array.convert %b : !g to !h
TIMING_LOOPS
  return
}
'''

# One timed kernel: best of REPEAT calls, then `sa-NAME seconds entries
# checksum` (checksum: the sum of y in index order).
TIMING = r'''
  %%n_KEY = llvm.mlir.addressof @KEY : !llvm.ptr
  %%best_KEY, %%nnz_KEY, %%sum_KEY = scf.for %%r = %%c0 to %%nrep step %%c1 iter_args(%%best = %%big, %%n0 = %%c0, %%s0 = %%z) -> (f64, index, f64) {
    %%t0 = func.call @sa_rt_seconds() : () -> f64
    %%c = func.call @%(func)s(%(args)s) : (%(argtypes)s) -> %(rtype)s
    %%t1 = func.call @sa_rt_seconds() : () -> f64
    %%dt = arith.subf %%t1, %%t0 : f64
    %%b1 = arith.minimumf %%best, %%dt : f64
    %%v = sparse_array.values %%c : %(rtype)s -> memref<?xf64>
    %%n = memref.dim %%v, %%c0 : memref<?xf64>
    %%s = scf.for %%p = %%c0 to %%n step %%c1 iter_args(%%acc = %%z) -> (f64) {
      %%e = memref.load %%v[%%p] : memref<?xf64>
      %%a2 = arith.addf %%acc, %%e : f64
      scf.yield %%a2 : f64
    }
    sparse_array.dealloc %%c : %(rtype)s
    scf.yield %%b1, %%n, %%s : f64, index, f64
  }
  func.call @sa_rt_print_str(%%n_KEY) : (!llvm.ptr) -> ()
  func.call @sa_rt_print_f64(%%best_KEY) : (f64) -> ()
  func.call @sa_rt_print_str(%%sp) : (!llvm.ptr) -> ()
  %%nnz64_KEY = arith.index_cast %%nnz_KEY : index to i64
  func.call @sa_rt_print_i64(%%nnz64_KEY) : (i64) -> ()
  func.call @sa_rt_print_str(%%sp) : (!llvm.ptr) -> ()
  func.call @sa_rt_print_f64(%%sum_KEY) : (f64) -> ()
  func.call @sa_rt_print_newline() : () -> ()
'''

KERNELS = [("k_spmv", "spmv", "%a, %w", "!g, !w", "!y"),
           ("k_rowsum", "rowsum", "%a, %w", "!g, !w", "!y"),
           ("k_colsum", "colsum", "%a, %w", "!g, !w", "!y"),
           ("k_sin", "spmv_sin", "%a, %w", "!g, !w", "!y"),
           ("k_add", "add", "%a, %b", "!g, !g", "!g"),
           ("k_spgemm", "spgemm", "%a, %f", "!g, !g", "!g"),
           ("k_mxm", "mxm_tropical", "%ai, %fi, %vis", "!gi, !gi, !b", "!cd"),
           ("k_mxv", "mxv_tropical", "%m, %ai, %d", "!vb, !gi, !vd", "!yd"),
           ("k_total", "total", "%a, %w", "!g, !w", "!s"),
           ("k_addh", "add_dcsr", "%ah, %bh", "!h, !h", "!h"),
           ("k_addcoo", "add_coo", "%a, %b", "!g, !g", "!coo")]

CEILING = r'''
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  long n = 1L << 23;
  int repeat = atoi(argv[1]);
  double *y = malloc(n * sizeof(double)), best = 1e300, sum = 0;
  for (int r = 0; r < repeat; ++r) {
    double t0 = omp_get_wtime();
#pragma omp parallel for
    for (long i = 0; i < n; ++i)
      y[i] = sin(i * 1e-3) * cos(i * 2e-3);
    double t = omp_get_wtime() - t0;
    if (t < best) best = t;
  }
  for (long i = 0; i < n; ++i) sum += y[i];
  printf("c-ceiling %.9f %ld %.17g\n", best, n, sum);
  // Memory-bound: a = b + 2c over 3 x 128 MiB (first touched in parallel).
  long m = 1L << 24;
  double *a = malloc(m * sizeof(double)), *b = malloc(m * sizeof(double)),
         *c = malloc(m * sizeof(double));
#pragma omp parallel for
  for (long i = 0; i < m; ++i) a[i] = 0, b[i] = i, c[i] = 1;
  best = 1e300;
  for (int r = 0; r < repeat; ++r) {
    double t0 = omp_get_wtime();
#pragma omp parallel for
    for (long i = 0; i < m; ++i)
      a[i] = b[i] + 2 * c[i];
    double t = omp_get_wtime() - t0;
    if (t < best) best = t;
  }
  printf("c-stream %.9f %ld %.17g\n", best, m, a[m - 1]);
  return 0;
}
'''


def run(cmd, env=None):
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), proc.stderr[-4000:]))
    return proc.stdout


def parse(out):
    res = {}
    for line in out.splitlines():
        f = line.split()
        if f and f[0].split("-")[0] in ("gb", "sa", "c"):
            res[f[0]] = (float(f[1]), int(f[2]), float(f[3]))
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--scale", type=int, default=18)
    p.add_argument("--threads", default="2",
                   help="thread counts compared with one thread")
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--keep", default="")
    p.add_argument("--assembly", default="auto",
                   help="sa-run --parallel-assembly (CSR rows: auto, "
                        "two-phase, parts, chained)")
    p.add_argument("--json", default="",
                   help="write {kernel/threads: gb/sa} and {kernel/xN: speed-up} here")
    args = p.parse_args()
    bindir = os.path.join(args.build, "bin")
    gb = os.path.join(bindir, "sa-bench-graphblas")
    if not os.path.exists(gb):
        sys.exit("sa-bench-graphblas is not built (install libgraphblas-dev)")
    counts = [1] + [int(t) for t in args.threads.split(",")]
    work = args.keep or tempfile.mkdtemp(prefix="sa-bench-parallel-")
    os.makedirs(work, exist_ok=True)
    results = {}  # (system-kernel, threads) -> (best, entries, checksum)
    try:
        ceiling = os.path.join(work, "ceiling")
        with open(ceiling + ".c", "w") as f:
            f.write(CEILING)
        run(["clang-22", "-O2", "-fopenmp", ceiling + ".c", "-o", ceiling, "-lm"])
        prog = os.path.join(work, "parallel.mlir")
        loops = "".join((TIMING % dict(func=func, args=fargs, argtypes=types,
                                       rtype=rtype)).replace("KEY", key)
                        for key, func, fargs, types, rtype in KERNELS)
        with open(prog, "w") as f:
            f.write(PROGRAM.replace("TROPICAL_FUNCS", TROPICAL).replace(
                "TIMING_LOOPS", loops).replace(
                "REPEAT", str(args.repeat)))
        for _ in range(args.rounds):
            for t in counts:
                outs = [
                    run([gb, "--out", work, "--scale", str(args.scale), "--kernels",
                         "parallel", "--threads", str(t), "--repeat", str(args.repeat)]),
                    run([os.path.join(bindir, "sa-run"), "--num-threads=%d" % t,
                         "--parallel-assembly=" + args.assembly, prog,
                         "--", os.path.join(work, "A.mtx"), os.path.join(work, "w.txt"),
                         os.path.join(work, "B.mtx"), os.path.join(work, "F.mtx"),
                         os.path.join(work, "V.mtx"), os.path.join(work, "m.txt"),
                         os.path.join(work, "d.txt")]),
                    run([ceiling, str(args.repeat)],
                        env=dict(os.environ, OMP_NUM_THREADS=str(t))),
                ]
                for out in outs:
                    for k, v in parse(out).items():
                        old = results.get((k, t))
                        results[(k, t)] = (min(v[0], old[0]) if old else v[0],) + v[1:]
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    failed = False
    header = "%-13s %-4s" % ("kernel", "sys")
    for t in counts:
        header += " %10s" % ("%dt [ms]" % t)
    for t in counts[1:]:
        header += " %9s" % ("x%d" % t)
    print("R-MAT scale %d" % args.scale)
    print(header)
    rows = [("spmv", "gb"), ("spmv", "sa"), ("rowsum", "gb"), ("rowsum", "sa"),
            ("colsum", "gb"), ("colsum", "sa"),
            ("total", "gb"), ("total", "sa"),
            ("add", "gb"), ("add", "sa"), ("add-dcsr", "sa"), ("add-coo", "sa"),
            ("mxv-tropical", "gb"), ("mxv-tropical", "sa"),
            ("spgemm", "gb"), ("spgemm", "sa"),
            ("mxm-tropical", "gb"), ("mxm-tropical", "sa"), ("spmv-sin", "sa"),
            ("ceiling", "c"),
            ("stream", "c")]
    for kernel, system in rows:
        key = "%s-%s" % (system, kernel)
        if (key, 1) not in results:
            continue
        line = "%-13s %-4s" % (kernel, system)
        for t in counts:
            line += " %10.3f" % (results[(key, t)][0] * 1e3)
        for t in counts[1:]:
            line += " %9.2f" % (results[(key, 1)][0] / results[(key, t)][0])
        print(line)
    # Checksums: every thread count alike, and GraphBLAS's equal to ours.
    for kernel in ("spmv", "rowsum", "colsum", "total", "add", "mxv-tropical",
                   "spgemm", "mxm-tropical"):
        for t in counts:
            g, s = results[("gb-" + kernel, t)][2], results[("sa-" + kernel, t)][2]
            if abs(g - s) > 1e-9 * max(1.0, abs(g)):
                failed = True
                print("DISAGREE %s, %d threads: gb %r, sa %r" % (kernel, t, g, s))
    for kernel in ("add-dcsr", "add-coo"):
        for t in counts:
            g, s = results[("sa-add", t)][2], results[("sa-" + kernel, t)][2]
            if g != s:
                failed = True
                print("DISAGREE %s, %d threads: add %r, %s %r" % (kernel, t, g, kernel, s))
    for kernel in ("spmv", "rowsum", "spmv-sin", "add", "add-dcsr", "add-coo",
                   "mxv-tropical", "spgemm", "mxm-tropical"):
        # (colsum: its sums are regrouped by parts, one per thread.)
        sums = {results[("sa-" + kernel, t)][2] for t in counts}
        if len(sums) != 1:
            failed = True
            print("sa-%s differs across thread counts: %r" % (kernel, sums))
    for t in counts[1:]:
        print("gb/sa at %d threads: " % t + ", ".join(
            "%s %.2f" % (k, results[("gb-" + k, t)][0] / results[("sa-" + k, t)][0])
            for k in ("spmv", "rowsum", "colsum", "add", "mxv-tropical", "spgemm",
                      "mxm-tropical")))
    if args.json:
        ratios = {}
        for (key, t), v in results.items():
            if not key.startswith("sa-"):
                continue
            k = key[3:]
            if ("gb-" + k, t) in results:
                ratios["%s/gb-over-sa/%dt" % (k, t)] = results[("gb-" + k, t)][0] / v[0]
            if t != 1:
                ratios["%s/speedup/%dt" % (k, t)] = results[(key, 1)][0] / v[0]
        write_json(args.json, ratios)
    print("targets (issue 17): x2 >= 1.8 for spmv, rowsum, add into CSR, SpGEMM, "
          "masked mxv and mxm, >= 1.6 for two-phase sparse outputs (add) "
          "and other sparse outputs in parts (add-dcsr, add-coo); ceiling and stream: what this "
          "machine's threads give loops that share nothing (compute- and "
          "memory-bound).")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
