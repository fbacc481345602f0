#!/usr/bin/python3
"""Complement-masked mxv against SuiteSparse:GraphBLAS, in one run.

  y<¬m> = A ∨.∧ x     (Boolean; BFS-pull step)
  y<¬m> = A min.+ d   (tropical; Bellman-Ford step)

on generated R-MAT power-law graphs (--scale 17: 2M edges requested) and
on real matrices (--matrix FILE.mtx, repeatable). The GraphBLAS side
(gb_bench.c, GrB_mxv with GrB_DESC_RC, one thread) writes the graph and the
vectors it uses; the sparse_array side reads the same files and runs
kernels written in index notation (sparse_array.kernel: keep_unless(m(i),
⊕_j A(i, j) ⊗ x(j))), sequential, once with the graph's coordinates
stored in 64 bits (as GraphBLAS stores them) and once in 32 bits (a
format choice GraphBLAS does not offer: half the index traffic). Both report the best of --repeat runs
in each of --rounds alternating process runs,
their entry count and a checksum, which must agree; the ratio is
GraphBLAS time / sparse_array time (> 1: sparse_array faster). Targets
(issue 6): mxv >= 1.3.

  bench/graphblas/bench_graphblas.py [--build build] [--scale 17]
      [--matrix FILE.mtx ...] [--repeat 5] [--rounds 3] [--keep DIR]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from common import write_json  # noqa: E402

# The (min, +) semiring with inf as the implicit value, and the mask's
# complement (C<¬V>): shared with bench/parallel.
TROPICAL = r'''
sparse_array.func @path(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<inf : f64>} {
  %inf = arith.constant 0x7FF0000000000000 : f64
  %s = arith.addf %x, %y : f64
  %xi = arith.cmpf oeq, %x, %inf : f64
  %yi = arith.cmpf oeq, %y, %inf : f64
  %e = arith.ori %xi, %yi : i1
  %r = arith.select %e, %inf, %s : f64
  sparse_array.yield %r : f64
}
sparse_array.func @min(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<inf : f64>} {
  %r = arith.minimumf %x, %y : f64
  sparse_array.yield %r : f64
}
sparse_array.func @keep_unless_inf(%m: i1, %x: f64) -> f64
    attributes {algebra = #sparse_array.algebra<intersect(complement(0), 1),
                                                fills = [false, inf : f64]>} {
  %inf = arith.constant 0x7FF0000000000000 : f64
  %r = arith.select %m, %inf, %x : f64
  sparse_array.yield %r : f64
}

// y<¬m> = A min.+ d and C<¬V> = A min.+ F (Bellman-Ford steps).
func.func @mxv_tropical(%m: !vb, %a: !gi, %d: !vd) -> !yd attributes {passthrough = ["noinline"]} {
  %y = sparse_array.kernel ins(%m, %a, %d : !vb, !gi, !vd) -> !yd {
  ^bb0(%i: index, %j: index, %M: !vb, %A: !gi, %D: !vd):
    %mi = sparse_array.access %M[%i] : !vb
    %aij = sparse_array.access %A[%i, %j] : !gi
    %dj = sparse_array.access %D[%j] : !vd
    %p = sparse_array.apply @path(%aij, %dj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @min : f64
    %r = sparse_array.apply @keep_unless_inf(%mi, %s) : (i1, f64) -> f64
    sparse_array.yield %r : f64
  }
  return %y : !yd
}

// y = A min.+ d, unmasked (issue 20's (min, +) SpMV).
func.func @spmv_tropical(%a: !gi, %d: !vd) -> !yd attributes {passthrough = ["noinline"]} {
  %y = sparse_array.kernel ins(%a, %d : !gi, !vd) -> !yd {
  ^bb0(%i: index, %j: index, %A: !gi, %D: !vd):
    %aij = sparse_array.access %A[%i, %j] : !gi
    %dj = sparse_array.access %D[%j] : !vd
    %p = sparse_array.apply @path(%aij, %dj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @min : f64
    sparse_array.yield %s : f64
  }
  return %y : !yd
}

// The same with the standard library's exact add_f64 and min_f64 (issue
// 56): inf + x is not inf for x = -inf or NaN, so without a guard every
// (i, j) is visited; sparse-array-guard-exact-products checks per call
// that no value is -inf or NaN and then runs the intersection.
sparse_array.func @add_exact(%x: f64, %y: f64) -> f64
    attributes {commutative, identity = #sparse_array.identity<-0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
func.func @spmv_tropical_exact(%a: !gi, %d: !vd) -> !yd attributes {passthrough = ["noinline"]} {
  %y = sparse_array.kernel ins(%a, %d : !gi, !vd) -> !yd {
  ^bb0(%i: index, %j: index, %A: !gi, %D: !vd):
    %aij = sparse_array.access %A[%i, %j] : !gi
    %dj = sparse_array.access %D[%j] : !vd
    %p = sparse_array.apply @add_exact(%aij, %dj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%j] %p with @min : f64
    sparse_array.yield %s : f64
  }
  return %y : !yd
}

func.func @mxm_tropical(%a: !gi, %f: !gi, %v: !b) -> !cd attributes {passthrough = ["noinline"]} {
  %c = sparse_array.kernel ins(%a, %f, %v : !gi, !gi, !b) -> !cd {
  ^bb0(%i: index, %j: index, %k: index, %A: !gi, %F: !gi, %V: !b):
    %aik = sparse_array.access %A[%i, %k] : !gi
    %fkj = sparse_array.access %F[%k, %j] : !gi
    %p = sparse_array.apply @path(%aik, %fkj) : (f64, f64) -> f64
    %s = sparse_array.reduce_over [%k] %p with @min : f64
    %vij = sparse_array.access %V[%i, %j] : !b
    %r = sparse_array.apply @keep_unless_inf(%vij, %s) : (i1, f64) -> f64
    sparse_array.yield %r : f64
  }
  return %c : !cd
}
'''

PROGRAM = r'''
!g = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]CRD>>
!gi = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed]CRD, fill = inf : f64>>
!b = !sparse_array.array<?x?xi1, #sparse_array.format<[dense, compressed]CRD>>
!vb = !sparse_array.array<?xi1>
!vd = !sparse_array.array<?xf64, #sparse_array.format<[dense], fill = inf : f64>>
!yb = !sparse_array.array<?xi1, #sparse_array.format<[compressed]>>
!yd = !sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = inf : f64>>
!cb = !sparse_array.array<?x?xi1, #sparse_array.format<[dense, compressed]>>
!cd = !sparse_array.array<?x?xf64, #sparse_array.format<[dense, compressed], fill = inf : f64>>

sparse_array.func @nonzero(%x: f64) -> i1 {
  %z = arith.constant 0.0 : f64
  %r = arith.cmpf une, %x, %z : f64
  sparse_array.yield %r : i1
}
sparse_array.func @and(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<false>,
                identity = #sparse_array.identity<true>} {
  %r = arith.andi %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @or(%x: i1, %y: i1) -> i1
    attributes {commutative, associative, idempotent,
                annihilator = #sparse_array.annihilator<true>,
                identity = #sparse_array.identity<false>} {
  %r = arith.ori %x, %y : i1
  sparse_array.yield %r : i1
}
sparse_array.func @keep_unless(%m: i1, %x: i1) -> i1
    attributes {algebra = #sparse_array.algebra<intersect(complement(0), 1),
                                                fills = [false, false]>} {
  %t = arith.constant true
  %n = arith.xori %m, %t : i1
  %r = arith.andi %n, %x : i1
  sparse_array.yield %r : i1
}
TROPICAL_FUNCS
func.func private @sa_rt_seconds() -> f64
func.func private @sa_rt_print_f64(f64)
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_str(!llvm.ptr)
func.func private @sa_rt_print_newline()
llvm.mlir.global internal constant @sp(" \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @nb("sa-mxv-bool \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @nt("sa-mxv-tropical \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @st("sa-spmv-tropical \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @se("sa-spmv-tropical-exact \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @mb("sa-mxm-bool \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @mt("sa-mxm-tropical \00") {addr_space = 0 : i32}

func.func @mxm_bool(%a: !b, %f: !b, %v: !b) -> !cb attributes {passthrough = ["noinline"]} {
  %c = sparse_array.kernel ins(%a, %f, %v : !b, !b, !b) -> !cb {
  ^bb0(%i: index, %j: index, %k: index, %A: !b, %F: !b, %V: !b):
    %aik = sparse_array.access %A[%i, %k] : !b
    %fkj = sparse_array.access %F[%k, %j] : !b
    %p = sparse_array.apply @and(%aik, %fkj) : (i1, i1) -> i1
    %s = sparse_array.reduce_over [%k] %p with @or : i1
    %vij = sparse_array.access %V[%i, %j] : !b
    %r = sparse_array.apply @keep_unless(%vij, %s) : (i1, i1) -> i1
    sparse_array.yield %r : i1
  }
  return %c : !cb
}


func.func @mxv_bool(%m: !vb, %a: !b, %x: !vb) -> !yb attributes {passthrough = ["noinline"]} {
  %y = sparse_array.kernel ins(%m, %a, %x : !vb, !b, !vb) -> !yb {
  ^bb0(%i: index, %j: index, %M: !vb, %A: !b, %X: !vb):
    %mi = sparse_array.access %M[%i] : !vb
    %aij = sparse_array.access %A[%i, %j] : !b
    %xj = sparse_array.access %X[%j] : !vb
    %p = sparse_array.apply @and(%aij, %xj) : (i1, i1) -> i1
    %s = sparse_array.reduce_over [%j] %p with @or : i1
    %r = sparse_array.apply @keep_unless(%mi, %s) : (i1, i1) -> i1
    sparse_array.yield %r : i1
  }
  return %y : !yb
}


func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %nrep = arith.constant REPEAT : index
  %big = arith.constant 1.0e300 : f64
  %z = arith.constant 0.0 : f64
  %sp = llvm.mlir.addressof @sp : !llvm.ptr
  %g = sparse_array.read input %c0 {file_format = "mtx"} : !g
  %gi = sparse_array.read input %c0 {file_format = "mtx"} : !gi
  %a = sparse_array.map @nonzero(%g) : (!g) -> !b
  %x = sparse_array.read input %c1 {file_format = "text"} : !vb
  %m = sparse_array.read input %c2 {file_format = "text"} : !vb
  %d = sparse_array.read input %c3 {file_format = "text"} : !vd
  %c4 = arith.constant 4 : index
  %fg = sparse_array.read input %c4 {file_format = "mtx"} : !g
  %fb = sparse_array.map @nonzero(%fg) : (!g) -> !b
  %fi = sparse_array.read input %c4 {file_format = "mtx"} : !gi
  %c5 = arith.constant 5 : index
  %vis = sparse_array.read input %c5 {file_format = "mtx"} : !b

TIMING_LOOPS
  return
}
'''


# One timed kernel: best of REPEAT calls, then `sa-NAME seconds entries
# checksum` (the number of true entries, or the sum of the values).
TIMING = r'''
  %%n_KEY = llvm.mlir.addressof @KEY : !llvm.ptr
  %%best_KEY, %%nnz_KEY, %%sum_KEY = scf.for %%r = %%c0 to %%nrep step %%c1 iter_args(%%best = %%big, %%n0 = %%c0, %%s0 = %%z) -> (f64, index, f64) {
    %%t0 = func.call @sa_rt_seconds() : () -> f64
    %%c = func.call @%(func)s(%(args)s) : (%(argtypes)s) -> %(rtype)s
    %%t1 = func.call @sa_rt_seconds() : () -> f64
    %%dt = arith.subf %%t1, %%t0 : f64
    %%b1 = arith.minimumf %%best, %%dt : f64
    %%v = sparse_array.values %%c : %(rtype)s -> memref<?x%(elt)s>
    %%n = memref.dim %%v, %%c0 : memref<?x%(elt)s>
    %%s = scf.for %%p = %%c0 to %%n step %%c1 iter_args(%%acc = %%z) -> (f64) {
      %%e = memref.load %%v[%%p] : memref<?x%(elt)s>
      %(tofloat)s
      %%a2 = arith.addf %%acc, %%ef : f64
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

KERNELS = [
    # key (printed-name global), function, arguments, their types, result type, element
    ("nb", "mxv_bool", "%m, %a, %x", "!vb, !b, !vb", "!yb", "i1"),
    ("nt", "mxv_tropical", "%m, %gi, %d", "!vb, !gi, !vd", "!yd", "f64"),
    ("st", "spmv_tropical", "%gi, %d", "!gi, !vd", "!yd", "f64"),
    ("se", "spmv_tropical_exact", "%gi, %d", "!gi, !vd", "!yd", "f64"),
    ("mb", "mxm_bool", "%a, %fb, %vis", "!b, !b, !b", "!cb", "i1"),
    ("mt", "mxm_tropical", "%gi, %fi, %vis", "!gi, !gi, !b", "!cd", "f64"),
]


def timing_loops():
    text = ""
    for key, func, args, argtypes, rtype, elt in KERNELS:
        tofloat = ("%ef = arith.uitofp %e : i1 to f64" if elt == "i1"
                   else "%ef = arith.addf %e, %z : f64")
        text += (TIMING % dict(func=func, args=args, argtypes=argtypes, rtype=rtype,
                               elt=elt, tofloat=tofloat)).replace("KEY", key)
    return text


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), proc.stderr[-4000:]))
    return proc.stdout


def parse(out):
    res = {}
    for line in out.splitlines():
        f = line.split()
        if f and (f[0].startswith("gb-") or f[0].startswith("sa-")):
            res[f[0]] = (float(f[1]), int(f[2]), float(f[3]))
        elif f and f[0] == "graph":
            res["graph"] = (int(f[1]), int(f[2]))
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--scale", type=int, action="append", default=[])
    p.add_argument("--matrix", action="append", default=[])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--rounds", type=int, default=3,
                   help="runs of each process; the best time of all counts")
    p.add_argument("--keep", default="")
    p.add_argument("--json", default="", help="write {graph/kernel/width: gb/sa} here")
    args = p.parse_args()
    if not args.scale and not args.matrix:
        args.scale = [17]
    bindir = os.path.join(args.build, "bin")
    gb = os.path.join(bindir, "sa-bench-graphblas")
    if not os.path.exists(gb):
        sys.exit("sa-bench-graphblas is not built (install libgraphblas-dev)")
    inputs = [("rmat%d" % s, ["--scale", str(s)]) for s in args.scale]
    inputs += [(os.path.basename(m), ["--matrix", m]) for m in args.matrix]
    print("%-13s %8s %9s %13s %10s %10s %10s %7s %7s" % (
        "graph", "vertices", "edges", "kernel", "gb [us]", "sa64 [us]", "sa32 [us]",
        "gb/sa64", "gb/sa32"))
    failed = False
    results, ratios = [], {}
    for name, opt in inputs:
        work = args.keep and os.path.join(args.keep, name) or tempfile.mkdtemp(prefix="sa-bench-gb-")
        os.makedirs(work, exist_ok=True)
        def best(into, out, suffix=""):
            # Fastest time per kernel over rounds; counts and checksums
            # come from the last round (each round computes the same).
            for k, v in out.items():
                key = k + suffix
                if key in into and k != "graph":
                    v = (min(v[0], into[key][0]),) + v[1:]
                into[key] = v

        try:
            theirs, ours = {}, {}
            # Rounds alternate the processes: a slow phase of the machine
            # (2 shared cores) or an unlucky memory placement in one process
            # then costs one round, not one side of the comparison.
            for _ in range(args.rounds):
                best(theirs, parse(run([gb, "--out", work, "--repeat", str(args.repeat)] + opt)))
                for width in (64, 32):
                    prog = os.path.join(work, "sa%d.mlir" % width)
                    with open(prog, "w") as f:
                        f.write(PROGRAM.replace("TROPICAL_FUNCS", TROPICAL).replace(
                            "TIMING_LOOPS", timing_loops()).replace(
                            "REPEAT", str(args.repeat)).replace(
                            "CRD", "" if width == 64 else ", crd_width = 32"))
                    best(ours, parse(run([os.path.join(bindir, "sa-run"), prog, "--"] +
                                         [os.path.join(work, f) for f in ("A.mtx", "x.txt", "m.txt", "d.txt", "F.mtx", "V.mtx")])),
                         "/%d" % width)
        finally:
            if not args.keep:
                shutil.rmtree(work, ignore_errors=True)
        n, e = theirs["graph"]
        for k in ("mxv-bool", "mxv-tropical", "spmv-tropical", "spmv-tropical-exact",
                  "mxm-bool", "mxm-tropical"):
            # GraphBLAS's (min, +) is the exact one's too (its plus is IEEE's).
            gt, gn, gs = theirs["gb-" + k.replace("-exact", "")]
            times, notes = [], ""
            for width in (64, 32):
                st, sn, ss = ours["sa-%s/%d" % (k, width)]
                times.append(st)
                if not (gn == sn and abs(gs - ss) <= 1e-9 * max(1.0, abs(gs))):
                    failed = True
                    notes += "  DISAGREE(%d) %d/%d %r/%r" % (width, gn, sn, gs, ss)
                results.append({"graph": name, "kernel": k, "gb": gt, "sa%d" % width: st})
                ratios["%s/%s/sa%d" % (name, k, width)] = gt / st
            print("%-13s %8d %9d %13s %10.1f %10.1f %10.1f %7.2f %7.2f%s" % (
                name, n, e, k, gt * 1e6, times[0] * 1e6, times[1] * 1e6,
                gt / times[0], gt / times[1], notes))
    print("targets (issue 6): gb/sa >= 1.3 for mxv, >= 1.0 for mxm and (issue 20) spmv-tropical (C<¬V> = A ⊕.⊗ F, F: 64 frontiers, V: what each source saw). sa64: the graph with 64-bit "
          "coordinates (as GraphBLAS 7.4 stores it); sa32: 32-bit coordinates.")
    if args.json:
        write_json(args.json, ratios)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
