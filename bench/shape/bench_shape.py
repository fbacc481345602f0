#!/usr/bin/python3
"""Shape operators against scipy.sparse and pydata/sparse, in one run (seed 001 §8).

Families (what Burrito's evaluation measures):

  collapse_csr  A.reshape(n*m) (C order) into a compressed vector (scipy:
                the 1 x n*m CSR matrix, its 1-D arrays are newer than 1.10)
  split_csr     v.reshape(n, m) of that vector into CSR
  split_coo     the same into COO
  collapse_mul  A.reshape(n*m) * B.reshape(n*m) element-wise (seed 001 §8.5;
                the collapses merge levels, the product runs on the vectors)

  slice_csr     A[r0:r1] (rows n/4 .. 3n/4) into CSR
  slice_coo     the same into COO
  vstack_csr    concatenate([top, bottom], axis=0) of A's halves, CSR -> CSR
  hstack_csr    concatenate([left, right], axis=1), CSR -> CSR
  vstack_coo    the same from and into COO
  hstack_coo
  vstack_coo_csr  vstack of COO halves into CSR (concatenation with a
                conversion, seed 001 §8.3)
  hstack_csr_coo  hstack of CSR halves into COO
  spmv_vstack   vstack(top, bottom) @ x, fused (no stacked matrix is built)
  slice_mul     A[r0:r1] * B[r0:r1] element-wise, fused (B: A with its
                columns shifted by one, seed 000 §8's recipe)

Inputs: real matrices (../shared/data/matrices, when present) and generated
banded ones (sa-bench-elementwise-gen: 10 entries per row, up to 2^20 rows =
10.5M entries), stored with 32-bit positions and coordinates by both
sparse_array and scipy (whose index arrays are int32 while sizes and entry
counts fit; the collapsed vector's coordinates take 64 bits above 2^32).
sparse_array runs each family as a noinline function over
static-shaped arrays read once (sa-run, JIT -O3), timed by sa_rt_seconds()
around the call, best of --repeat; scipy (1.10) and pydata/sparse (0.13) run
the same operations on the same data, best of --repeat; MLIR's sparsifier
(mlir-opt --sparsifier, mlir-runner -O3, 32-bit positions and coordinates)
the families it can express: the reshapes (tensor.collapse_shape /
expand_shape), the slices (tensor.extract_slice into a slice encoding,
converted) and the maps over them, unfused (it does not lower tensor.concat
of sparse tensors: no stacking column). Every system's result entry count
and value sum are compared. Prints one table row per
(family, input) with the ratios scipy/sa, pydata/sa and mlir/sa (> 1: sparse_array
faster), the geomean per family, and writes a plot of time against stored
entries per family and system (matplotlib) to --plot.

SpMV uses functions declared with finite-math properties (0 annihilates
multiplication, 0 is the identity of an associative addition): what scipy
computes. The standard library's exact f64 add and mul (NaN, inf and -0.0
kept exact) iterate every point instead (issue 20).

  bench/shape/bench_shape.py [--build build] [--rows 16384 --rows 131072
      --rows 1048576] [--matrix FILE.mtx ...] [--repeat 5] [--plot PNG]
      [--no-mlir]
"""

import argparse
import math
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np
import scipy.io
import scipy.sparse as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from common import FADD, FMUL, TIMING_DECLS, agree, best_of, run  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data", "matrices")
DEFAULT_MATRICES = ["bcsstk13.mtx", "cryg2500.mtx", "jagmesh7.mtx", "olm1000.mtx"]

FAMILIES = ["collapse_csr", "split_csr", "split_coo", "collapse_mul", "slice_csr", "slice_coo", "vstack_csr", "hstack_csr", "vstack_coo",
            "hstack_coo", "vstack_coo_csr", "hstack_csr_coo", "spmv_vstack", "slice_mul"]

FUNCS = """
""" + FMUL + FADD + TIMING_DECLS

# 32-bit positions and coordinates, as scipy stores these matrices (its
# index arrays are int32 while sizes and entry counts fit).
W32 = ", pos_width = 32, crd_width = 32"
CSR = "#sparse_array.format<[dense, compressed]%s>" % W32
COO = "#sparse_array.format<[compressed(nonunique), singleton]%s>" % W32


def ty(shape, fmt=CSR):
    return "!sparse_array.array<%sxf64, %s>" % ("x".join(map(str, shape)), fmt)


def dense_ty(n):
    return "!sparse_array.array<%dxf64>" % n


def sa_program(n, m, repeat):
    """The program for an n x m matrix A (input 0) and B (input 1)."""
    r0, r1 = n // 4, 3 * n // 4
    half, mid = n // 2, m // 2
    A, S = ty([n, m]), ty([r1 - r0, m])
    Acoo, Scoo = ty([n, m], COO), ty([r1 - r0, m], COO)
    T, Bt = ty([half, m]), ty([n - half, m])
    L, R = ty([n, mid]), ty([n, m - mid])
    Tc, Btc, Lc, Rc = (ty([half, m], COO), ty([n - half, m], COO),
                       ty([n, mid], COO), ty([n, m - mid], COO))
    X, Y = dense_ty(m), dense_ty(n)
    funcs = []

    def fn(name, params, result, body):
        funcs.append("func.func @%s(%s) -> %s attributes {passthrough = [\"noinline\"]} {\n%s\n}"
                     % (name, ", ".join("%%%s: %s" % p for p in params), result, body))

    def ret(v, t):
        return "  return %s : %s" % (v, t)

    # Materialized pieces (set-up, not timed).
    fn("top", [("a", A)], T, "  %s = sparse_array.slice %%a[0:%d] : %s -> %s\n%s" % ("%r", half, A, T, ret("%r", T)))
    fn("bottom", [("a", A)], Bt, "  %%r = sparse_array.slice %%a[%d:%d] : %s -> %s\n%s" % (half, n, A, Bt, ret("%r", Bt)))
    fn("left", [("a", A)], L, "  %%r = sparse_array.slice %%a[:, 0:%d] : %s -> %s\n%s" % (mid, A, L, ret("%r", L)))
    fn("right", [("a", A)], R, "  %%r = sparse_array.slice %%a[:, %d:%d] : %s -> %s\n%s" % (mid, m, A, R, ret("%r", R)))
    fn("rowsum", [("a", A)], Y, "  %%r = sparse_array.reduce @fadd %%a dims [1] : %s -> %s\n%s" % (A, Y, ret("%r", Y)))
    fn("bslice", [("b", A)], S, "  %%r = sparse_array.slice %%b[%d:%d] : %s -> %s\n%s" % (r0, r1, A, S, ret("%r", S)))
    # Collapsed coordinates up to n*m: 32 bits while they fit (what the
    # merged levels get), else 64 (scipy: int64 indices above 2^31).
    V = "!sparse_array.array<%dxf64, #sparse_array.format<[compressed], pos_width = 32%s>>" % (
        n * m, ", crd_width = 32" if n * m <= 2 ** 32 else "")
    fn("vec", [("a", A)], V, "  %%r = sparse_array.collapse %%a [0, 1] : %s -> %s\n%s" % (A, V, ret("%r", V)))
    # The timed families.
    fn("collapse_csr", [("a", A)], V, "  %%r = sparse_array.collapse %%a [0, 1] : %s -> %s\n%s" % (A, V, ret("%r", V)))
    fn("split_csr", [("v", V)], A, "  %%r = sparse_array.split %%v dim 0 [%d, %d] : %s -> %s\n%s" % (n, m, V, A, ret("%r", A)))
    fn("split_coo", [("v", V)], Acoo, "  %%r = sparse_array.split %%v dim 0 [%d, %d] : %s -> %s\n%s" % (n, m, V, Acoo, ret("%r", Acoo)))
    fn("collapse_mul", [("a", A), ("b", A)], V, "\n".join([
        "  %%ca = sparse_array.collapse %%a [0, 1] : %s -> %s" % (A, V),
        "  %%cb = sparse_array.collapse %%b [0, 1] : %s -> %s" % (A, V),
        "  %%r = sparse_array.map @fmul(%%ca, %%cb) : (%s, %s) -> %s" % (V, V, V),
        ret("%r", V)]))
    fn("slice_csr", [("a", A)], S, "  %%r = sparse_array.slice %%a[%d:%d] : %s -> %s\n%s" % (r0, r1, A, S, ret("%r", S)))
    fn("slice_coo", [("a", A)], Scoo, "  %%r = sparse_array.slice %%a[%d:%d] : %s -> %s\n%s" % (r0, r1, A, Scoo, ret("%r", Scoo)))
    fn("vstack_csr", [("t", T), ("b", Bt)], A, "  %%r = sparse_array.concat %%t, %%b dim 0 : %s, %s -> %s\n%s" % (T, Bt, A, ret("%r", A)))
    fn("hstack_csr", [("l", L), ("q", R)], A, "  %%r = sparse_array.concat %%l, %%q dim 1 : %s, %s -> %s\n%s" % (L, R, A, ret("%r", A)))
    fn("vstack_coo", [("t", Tc), ("b", Btc)], Acoo, "  %%r = sparse_array.concat %%t, %%b dim 0 : %s, %s -> %s\n%s" % (Tc, Btc, Acoo, ret("%r", Acoo)))
    fn("hstack_coo", [("l", Lc), ("q", Rc)], Acoo, "  %%r = sparse_array.concat %%l, %%q dim 1 : %s, %s -> %s\n%s" % (Lc, Rc, Acoo, ret("%r", Acoo)))
    fn("vstack_coo_csr", [("t", Tc), ("b", Btc)], A, "  %%r = sparse_array.concat %%t, %%b dim 0 : %s, %s -> %s\n%s" % (Tc, Btc, A, ret("%r", A)))
    fn("hstack_csr_coo", [("l", L), ("q", R)], Acoo, "  %%r = sparse_array.concat %%l, %%q dim 1 : %s, %s -> %s\n%s" % (L, R, Acoo, ret("%r", Acoo)))
    Xe = "!sparse_array.array<1x%dxf64>" % m
    D2 = "!sparse_array.array<%dx%dxf64, %s>" % (n, m, CSR)
    fn("spmv_vstack", [("t", T), ("b", Bt), ("x", X)], Y, "\n".join([
        "  %%c = sparse_array.concat %%t, %%b dim 0 : %s, %s -> %s" % (T, Bt, A),
        "  %%xe = sparse_array.expand_dims %%x [0] : %s -> %s" % (X, Xe),
        "  %%p = sparse_array.map @fmul(%%c, %%xe) : (%s, %s) -> %s" % (A, Xe, D2),
        "  %%r = sparse_array.reduce @fadd %%p dims [1] : %s -> %s" % (D2, Y),
        ret("%r", Y)]))
    fn("slice_mul", [("a", A), ("bs", S)], S, "\n".join([
        "  %%s = sparse_array.slice %%a[%d:%d] : %s -> %s" % (r0, r1, A, S),
        "  %%r = sparse_array.map @fmul(%%s, %%bs) : (%s, %s) -> %s" % (S, S, S),
        ret("%r", S)]))

    args = {"collapse_csr": ["%a"], "split_csr": ["%vec"], "split_coo": ["%vec"],
            "collapse_mul": ["%a", "%b"], "slice_csr": ["%a"], "slice_coo": ["%a"], "vstack_csr": ["%top", "%bot"],
            "hstack_csr": ["%lft", "%rgt"], "vstack_coo": ["%topc", "%botc"],
            "hstack_coo": ["%lftc", "%rgtc"], "vstack_coo_csr": ["%topc", "%botc"],
            "hstack_csr_coo": ["%lft", "%rgt"], "spmv_vstack": ["%top", "%bot", "%x"],
            "slice_mul": ["%a", "%bs"]}
    types = {"%vec": V, "%b": A, "%a": A, "%top": T, "%bot": Bt, "%lft": L, "%rgt": R, "%topc": Tc,
             "%botc": Btc, "%lftc": Lc, "%rgtc": Rc, "%x": X, "%bs": S}
    results = {"collapse_csr": V, "split_csr": A, "split_coo": Acoo,
               "collapse_mul": V, "slice_csr": S, "slice_coo": Scoo, "vstack_csr": A, "hstack_csr": A,
               "vstack_coo": Acoo, "hstack_coo": Acoo, "vstack_coo_csr": A, "hstack_csr_coo": Acoo,
               "spmv_vstack": Y, "slice_mul": S}
    main = ["func.func @main() {",
            "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
            "  %%nrep = arith.constant %d : index" % repeat,
            "  %big = arith.constant 1.0e300 : f64", "  %z = arith.constant 0.0 : f64",
            "  %sp = llvm.mlir.addressof @sp : !llvm.ptr",
            '  %a = sparse_array.read input %c0 {file_format = "mtx"} : ' + A,
            '  %b = sparse_array.read input %c1 {file_format = "mtx"} : ' + A,
            "  %%top = func.call @top(%%a) : (%s) -> %s" % (A, T),
            "  %%bot = func.call @bottom(%%a) : (%s) -> %s" % (A, Bt),
            "  %%lft = func.call @left(%%a) : (%s) -> %s" % (A, L),
            "  %%rgt = func.call @right(%%a) : (%s) -> %s" % (A, R),
            "  %%topc = sparse_array.convert %%top : %s to %s" % (T, Tc),
            "  %%botc = sparse_array.convert %%bot : %s to %s" % (Bt, Btc),
            "  %%lftc = sparse_array.convert %%lft : %s to %s" % (L, Lc),
            "  %%rgtc = sparse_array.convert %%rgt : %s to %s" % (R, Rc),
            "  %%x = func.call @rowsum(%%a) : (%s) -> %s" % (A, Y),
            "  %%bs = func.call @bslice(%%b) : (%s) -> %s" % (A, S),
            "  %%vec = func.call @vec(%%a) : (%s) -> %s" % (A, V)]
    for k, fam in enumerate(FAMILIES):
        rt = results[fam]
        call = "func.call @%s(%s) : (%s) -> %s" % (
            fam, ", ".join(args[fam]), ", ".join(types[a] for a in args[fam]), rt)
        main += [
            "  %%best%d, %%nnz%d, %%sum%d = scf.for %%r = %%c0 to %%nrep step %%c1"
            " iter_args(%%bb = %%big, %%n0 = %%c0, %%s0 = %%z) -> (f64, index, f64) {" % (k, k, k),
            "    %t0 = func.call @sa_rt_seconds() : () -> f64",
            "    %%c = %s" % call,
            "    %t1 = func.call @sa_rt_seconds() : () -> f64",
            "    %v = sparse_array.values %c : " + rt + " -> memref<?xf64>",
            "    %n = memref.dim %v, %c0 : memref<?xf64>",
            "    %dt = arith.subf %t1, %t0 : f64",
            "    %b1 = arith.minimumf %bb, %dt : f64",
            "    %s = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {",
            "      %e = memref.load %v[%p] : memref<?xf64>",
            "      %a2 = arith.addf %acc, %e : f64",
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


# MLIR's sparsifier (mlir-opt --sparsifier, mlir-runner -O3) on the families
# it can express: reshapes (tensor.collapse_shape / expand_shape), slices
# (tensor.extract_slice into a slice encoding, converted), and the maps
# over them unfused (linalg.generic). It cannot lower tensor.concat of
# sparse tensors, so the stacking families have no column.
UPSTREAM_FAMILIES = ["collapse_csr", "split_csr", "split_coo", "collapse_mul",
                     "slice_csr", "slice_coo", "slice_mul"]
LLVM = "/usr/lib/llvm-22"


def upstream_program(n, m, repeat, families):
    r0, r1 = n // 4, 3 * n // 4
    wide = n * m > 2 ** 32
    enc = ("#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed),"
           " posWidth = 32, crdWidth = 32 }>\n"
           "#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique),"
           " j : singleton), posWidth = 32, crdWidth = 32 }>\n"
           "#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), posWidth = 32%s }>\n"
           "#SL = #sparse_tensor.encoding<{ map = (i : #sparse_tensor<slice(%d, %d, 1)>,"
           " j : #sparse_tensor<slice(0, %d, 1)>) -> (i : dense, j : compressed),"
           " posWidth = 32, crdWidth = 32 }>\n"
           % ("" if wide else ", crdWidth = 32", r0, r1 - r0, m))
    A = "tensor<%dx%dxf64, #CSR>" % (n, m)
    V = "tensor<%dxf64, #SV>" % (n * m)
    S, Scoo = "tensor<%dx%dxf64, #CSR>" % (r1 - r0, m), "tensor<%dx%dxf64, #COO>" % (r1 - r0, m)
    SL = "tensor<%dx%dxf64, #SL>" % (r1 - r0, m)
    Acoo = "tensor<%dx%dxf64, #COO>" % (n, m)
    mul1 = ("{ indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, "
            "affine_map<(i) -> (i)>], iterator_types = [\"parallel\"] }")
    mul2 = ("{ indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, "
            "affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"] }")
    region = ("^bb0(%x: f64, %y: f64, %o: f64):\n      %p = arith.mulf %x, %y : f64\n"
              "      linalg.yield %p : f64\n    }")
    funcs = {  # name: (parameters, result type, body)
        "collapse_csr": (["%a: " + A], V,
                         "  %%r = tensor.collapse_shape %%a [[0, 1]] : %s into %s" % (A, V)),
        "split_csr": (["%v: " + V], A,
                      "  %%r = tensor.expand_shape %%v [[0, 1]] output_shape [%d, %d] : %s into %s"
                      % (n, m, V, A)),
        "split_coo": (["%v: " + V], Acoo,
                      "  %%r = tensor.expand_shape %%v [[0, 1]] output_shape [%d, %d] : %s into %s"
                      % (n, m, V, Acoo)),
        "collapse_mul": (["%a: " + A, "%b: " + A], V, "\n".join([
            "  %%ca = tensor.collapse_shape %%a [[0, 1]] : %s into %s" % (A, V),
            "  %%cb = tensor.collapse_shape %%b [[0, 1]] : %s into %s" % (A, V),
            "  %%e = tensor.empty() : %s" % V,
            "  %%r = linalg.generic %s ins(%%ca, %%cb : %s, %s) outs(%%e : %s) {\n    %s -> %s"
            % (mul1, V, V, V, region, V)])),
        "slice_csr": (["%a: " + A], S, "\n".join([
            "  %%s = tensor.extract_slice %%a[%d, 0] [%d, %d] [1, 1] : %s to %s"
            % (r0, r1 - r0, m, A, SL),
            "  %%r = sparse_tensor.convert %%s : %s to %s" % (SL, S)])),
        "slice_coo": (["%a: " + A], Scoo, "\n".join([
            "  %%s = tensor.extract_slice %%a[%d, 0] [%d, %d] [1, 1] : %s to %s"
            % (r0, r1 - r0, m, A, SL),
            "  %%r = sparse_tensor.convert %%s : %s to %s" % (SL, Scoo)])),
        "slice_mul": (["%a: " + A, "%bs: " + S], S, "\n".join([
            "  %%s = tensor.extract_slice %%a[%d, 0] [%d, %d] [1, 1] : %s to %s"
            % (r0, r1 - r0, m, A, SL),
            "  %%e = tensor.empty() : %s" % S,
            "  %%r = linalg.generic %s ins(%%s, %%bs : %s, %s) outs(%%e : %s) {\n    %s -> %s"
            % (mul2, SL, S, S, region, S)])),
    }
    args = {"collapse_csr": ["%A"], "split_csr": ["%V"], "split_coo": ["%V"],
            "collapse_mul": ["%A", "%B"], "slice_csr": ["%A"], "slice_coo": ["%A"],
            "slice_mul": ["%A", "%BS"]}
    types = {"%A": A, "%B": A, "%V": V, "%BS": S}
    out = [enc, "module {",
           "  func.func private @getTensorFilename(index) -> (!llvm.ptr)",
           "  func.func private @rtclock() -> f64",
           "  func.func private @printF64(f64)",
           "  func.func private @printI64(i64)",
           "  func.func private @printComma()",
           "  func.func private @printNewline()"]
    # collapse_csr also makes the split families' input.
    for fam in sorted(set(families) | {"collapse_csr"}, key=UPSTREAM_FAMILIES.index):
        params, rt, body = funcs[fam]
        out.append("  func.func @%s(%s) -> %s attributes {passthrough = [\"noinline\"]} {\n%s\n"
                   "  return %%r : %s\n  }" % (fam, ", ".join(params), rt, body, rt))
    out += ["  func.func @main() {",
            "    %c0 = arith.constant 0 : index", "    %c1 = arith.constant 1 : index",
            "    %%nrep = arith.constant %d : index" % repeat,
            "    %big = arith.constant 1.0e300 : f64", "    %z = arith.constant 0.0 : f64",
            "    %fa = call @getTensorFilename(%c0) : (index) -> (!llvm.ptr)",
            "    %fb = call @getTensorFilename(%c1) : (index) -> (!llvm.ptr)",
            "    %%A = sparse_tensor.new %%fa : !llvm.ptr to %s" % A,
            "    %%B = sparse_tensor.new %%fb : !llvm.ptr to %s" % A,
            "    %%V = func.call @collapse_csr(%%A) : (%s) -> %s" % (A, V),
            "    %%BS0 = tensor.extract_slice %%B[%d, 0] [%d, %d] [1, 1] : %s to %s"
            % (r0, r1 - r0, m, A, SL),
            "    %%BS = sparse_tensor.convert %%BS0 : %s to %s" % (SL, S)]
    results = {"collapse_csr": V, "split_csr": A, "split_coo": Acoo, "collapse_mul": V,
               "slice_csr": S, "slice_coo": Scoo, "slice_mul": S}
    for k, fam in enumerate(families):
        rt = results[fam]
        call = "func.call @%s(%s) : (%s) -> %s" % (
            fam, ", ".join(args[fam]), ", ".join(types[a] for a in args[fam]), rt)
        out += [
            "    %%best%d, %%nnz%d, %%sum%d = scf.for %%r = %%c0 to %%nrep step %%c1"
            " iter_args(%%bb = %%big, %%n0 = %%c0, %%s0 = %%z) -> (f64, index, f64) {" % (k, k, k),
            "      %t0 = func.call @rtclock() : () -> f64",
            "      %%c = %s" % call,
            "      %t1 = func.call @rtclock() : () -> f64",
            "      %dt = arith.subf %t1, %t0 : f64",
            "      %b1 = arith.minimumf %bb, %dt : f64",
            "      %%nv = sparse_tensor.number_of_entries %%c : %s" % rt,
            "      %%vals = sparse_tensor.values %%c : %s to memref<?xf64>" % rt,
            "      %s = scf.for %p = %c0 to %nv step %c1 iter_args(%acc = %z) -> (f64) {",
            "        %e = memref.load %vals[%p] : memref<?xf64>",
            "        %a2 = arith.addf %acc, %e : f64",
            "        scf.yield %a2 : f64",
            "      }",
            "      bufferization.dealloc_tensor %%c : %s" % rt,
            "      scf.yield %b1, %nv, %s : f64, index, f64",
            "    }",
            # Bit patterns: printF64 rounds to 6 digits.
            "    %%tb%d = arith.bitcast %%best%d : f64 to i64" % (k, k),
            "    call @printI64(%%tb%d) : (i64) -> ()" % k,
            "    call @printComma() : () -> ()",
            "    %%nn%d = arith.index_cast %%nnz%d : index to i64" % (k, k),
            "    call @printI64(%%nn%d) : (i64) -> ()" % k,
            "    call @printComma() : () -> ()",
            "    %%sb%d = arith.bitcast %%sum%d : f64 to i64" % (k, k),
            "    call @printI64(%%sb%d) : (i64) -> ()" % k,
            "    call @printNewline() : () -> ()"]
    out += ["    return", "  }", "}"]
    return "\n".join(out) + "\n"


def upstream_runs(work, name, a_path, b_path, n, m, repeat):
    """{family: (t, nnz, sum)} from MLIR's sparsifier, one program per
    family so that a crash loses only its own (the reason on stderr)."""
    libs = ",".join(os.path.join(LLVM, "lib", l) for l in
                    ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so"))
    res = {}
    for fam in UPSTREAM_FAMILIES:
        src = os.path.join(work, "%s_upstream_%s.mlir" % (name, fam))
        low = os.path.join(work, "%s_upstream_%s.ll.mlir" % (name, fam))
        with open(src, "w") as f:
            f.write(upstream_program(n, m, repeat, [fam]))
        proc = subprocess.run([os.path.join(LLVM, "bin", "mlir-opt"), src,
                               "--sparsifier=enable-runtime-library=false", "-o", low],
                              capture_output=True, text=True)
        if proc.returncode == 0:
            env = dict(os.environ, TENSOR0=a_path, TENSOR1=b_path)
            proc = subprocess.run([os.path.join(LLVM, "bin", "mlir-runner"), "-O3", "-e",
                                   "main", "-entry-point-result=void", "-shared-libs=" + libs,
                                   low], capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            why = next((l for l in proc.stderr.splitlines() if "error" in l or "#4 " in l),
                       "exit code %d" % proc.returncode)
            sys.stderr.write("sparsifier failed on %s %s: %s\n" % (fam, name, why.strip()))
            continue
        t, nnz, total = (int(x.strip()) for x in proc.stdout.strip().split(","))
        bits = lambda v: struct.unpack("<d", struct.pack("<q", v))[0]
        res[fam] = (bits(t), nnz, bits(total))
    return res

def summary(r):
    """(entries, value sum) of a result: a sparse matrix or a dense vector."""
    if isinstance(r, np.ndarray):
        return int(np.count_nonzero(r)), float(r.sum())
    if hasattr(r, "nnz") and hasattr(r, "data"):
        return int(r.nnz), float(np.asarray(r.data).sum())
    return int(r.nnz), float(r.sum())


def reference_runs(a, b, repeat, with_pydata=True):
    """scipy and pydata/sparse on the same operations: {system: {family: (t, nnz, sum)}}
    (pydata's entry None when it is not run)."""
    import sparse
    n, m = a.shape
    r0, r1, half, mid = n // 4, 3 * n // 4, n // 2, m // 2
    x = np.asarray(a.sum(axis=1)).ravel()
    top, bot, lft, rgt = a[:half], a[half:], a[:, :mid], a[:, mid:]
    topc, botc, lftc, rgtc = top.tocoo(), bot.tocoo(), lft.tocoo(), rgt.tocoo()
    bs = b[r0:r1]
    flat = (1, n * m)
    v, vb = a.reshape(flat).tocsr(), b.reshape(flat).tocsr()
    vcoo = v.tocoo()
    scipy_ops = {
        "collapse_csr": lambda: a.reshape(flat),
        "split_csr": lambda: v.reshape((n, m)).tocsr(),
        "split_coo": lambda: vcoo.reshape((n, m)),
        "collapse_mul": lambda: a.reshape(flat).multiply(b.reshape(flat)),
        "slice_csr": lambda: a[r0:r1],
        "slice_coo": lambda: a[r0:r1].tocoo(),
        "vstack_csr": lambda: sp.vstack([top, bot], format="csr"),
        "hstack_csr": lambda: sp.hstack([lft, rgt], format="csr"),
        "vstack_coo": lambda: sp.vstack([topc, botc], format="coo"),
        "hstack_coo": lambda: sp.hstack([lftc, rgtc], format="coo"),
        "vstack_coo_csr": lambda: sp.vstack([topc, botc], format="csr"),
        "hstack_csr_coo": lambda: sp.hstack([lft, rgt], format="coo"),
        "spmv_vstack": lambda: sp.vstack([top, bot], format="csr") @ x,
        "slice_mul": lambda: a[r0:r1].multiply(bs),
    }
    out = {"scipy": {}, "pydata": {}}
    for fam in FAMILIES:
        t, r = best_of(repeat, scipy_ops[fam])
        out["scipy"][fam] = (t,) + summary(r)
        out["pydata"][fam] = None
    if not with_pydata:
        # Its inputs are not even built: slicing GCXS is quadratic (the
        # set-up alone took over 25 minutes at 10.5M entries).
        return out
    ga, gb = sparse.GCXS.from_scipy_sparse(a), sparse.GCXS.from_scipy_sparse(b)
    ca = sparse.COO.from_scipy_sparse(a)
    gt, gbt = ga[:half], ga[half:]
    gl, gr = sparse.GCXS.from_scipy_sparse(lft), sparse.GCXS.from_scipy_sparse(rgt)
    ct, cbt = sparse.COO.from_scipy_sparse(top), sparse.COO.from_scipy_sparse(bot)
    cl, cr = sparse.COO.from_scipy_sparse(lft), sparse.COO.from_scipy_sparse(rgt)
    gbs = gb[r0:r1]
    cb = sparse.COO.from_scipy_sparse(b)
    cv = ca.reshape((n * m,))
    pydata_ops = {
        "collapse_csr": lambda: ca.reshape((n * m,)),
        # pydata 0.13's reshape leaves uint64 coordinates, which its GCXS
        # constructor rejects: cast (counted in its time).
        "split_csr": lambda: (lambda r: sparse.GCXS(
            sparse.COO(r.coords.astype(np.int64), r.data, shape=r.shape),
            compressed_axes=[0]))(cv.reshape((n, m))),
        "split_coo": lambda: cv.reshape((n, m)),
        "collapse_mul": lambda: ca.reshape((n * m,)) * cb.reshape((n * m,)),
        "slice_csr": lambda: ga[r0:r1],
        "slice_coo": lambda: ca[r0:r1],
        "vstack_csr": lambda: sparse.concatenate([gt, gbt], axis=0),
        "hstack_csr": lambda: sparse.concatenate([gl, gr], axis=1),
        "vstack_coo": lambda: sparse.concatenate([ct, cbt], axis=0),
        "hstack_coo": lambda: sparse.concatenate([cl, cr], axis=1),
        "vstack_coo_csr": lambda: sparse.GCXS(sparse.concatenate([ct, cbt], axis=0),
                                              compressed_axes=[0]),
        "hstack_csr_coo": lambda: sparse.concatenate([gl, gr], axis=1).tocoo(),
        "spmv_vstack": lambda: sparse.concatenate([ct, cbt], axis=0) @ x,
        "slice_mul": lambda: ga[r0:r1] * gbs,
    }
    for fam in FAMILIES:
        t, r = best_of(repeat, pydata_ops[fam])
        out["pydata"][fam] = (t,) + summary(r)
    return out

def sa_runs(sa_run, work, name, a_path, b_path, n, m, repeat):
    prog = os.path.join(work, name + ".mlir")
    with open(prog, "w") as f:
        f.write(sa_program(n, m, repeat))
    out = run([sa_run, prog, "--", a_path, b_path]).split("\n")
    res = {}
    for fam, line in zip(FAMILIES, out):
        t, nnz, s = line.split()
        res[fam] = (float(t), int(nnz), float(s))
    return res

def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--rows", type=int, action="append", default=[])
    p.add_argument("--matrix", action="append", default=[])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--plot", default="")
    p.add_argument("--keep", default="")
    p.add_argument("--no-mlir", action="store_true",
                   help="leave out MLIR's sparsifier")
    p.add_argument("--pydata-max-entries", type=int, default=4 << 20,
                   help="skip pydata/sparse on larger inputs (its slicing is "
                        "quadratic: 7 s at 1.3M entries)")
    args = p.parse_args()
    rows = args.rows or [1 << 14, 1 << 17, 1 << 20]
    matrices = args.matrix or [os.path.join(SHARED, f) for f in DEFAULT_MATRICES
                               if os.path.exists(os.path.join(SHARED, f))]
    bindir = os.path.join(args.build, "bin")
    work = args.keep or tempfile.mkdtemp(prefix="sa-bench-shape-")
    os.makedirs(work, exist_ok=True)
    inputs = []  # (name, A path, B path)
    for path in matrices:
        a = sp.csr_matrix(scipy.io.mmread(path))
        a.sum_duplicates()
        a.data = np.where(a.data == 0, 1.0, a.data).astype(np.float64)
        n, m = a.shape
        # B: A's columns shifted by one (wrapping), seed 000 §8.
        coo = a.tocoo()
        b = sp.csr_matrix((coo.data * 0.5 + 1, (coo.row, (coo.col + 1) % m)), shape=a.shape)
        name = os.path.splitext(os.path.basename(path))[0]
        pa, pb = os.path.join(work, name + "_a.mtx"), os.path.join(work, name + "_b.mtx")
        # General, not symmetric: MLIR's sparse_tensor.new reads only the
        # listed triangle of a symmetric file.
        scipy.io.mmwrite(pa, a, symmetry="general")
        scipy.io.mmwrite(pb, b, symmetry="general")
        inputs.append((name, pa, pb))
    for r in rows:
        d = os.path.join(work, "gen%d" % r)
        os.makedirs(d, exist_ok=True)
        run([os.path.join(bindir, "sa-bench-elementwise-gen"), "--out", d, "--rows", str(r)])
        inputs.append(("banded-%d" % r, os.path.join(d, "a_f64.mtx"), os.path.join(d, "b_f64.mtx")))

    table = []  # (family, input, nnz(A), times{system}, agree, detail)
    for name, pa, pb in inputs:
        a = sp.csr_matrix(scipy.io.mmread(pa))
        b = sp.csr_matrix(scipy.io.mmread(pb))
        n, m = a.shape
        if max(n, m, a.nnz) >= 2 ** 31:
            sys.exit("%s: too large for 32-bit positions and coordinates" % name)
        sa = sa_runs(os.path.join(bindir, "sa-run"), work, name, pa, pb, n, m, args.repeat)
        up = {} if args.no_mlir else upstream_runs(work, name, pa, pb, n, m, args.repeat)
        ref = reference_runs(a, b, args.repeat, a.nnz <= args.pydata_max_entries)
        for fam in FAMILIES:
            py, ml = ref["pydata"][fam], up.get(fam)
            ok = (agree(sa[fam], ref["scipy"][fam]) and (py is None or agree(sa[fam], py))
                  and (ml is None or agree(sa[fam], ml)))
            nan = float("nan")
            table.append((fam, name, a.nnz, {"sa": sa[fam][0], "scipy": ref["scipy"][fam][0],
                                             "pydata": py[0] if py else nan,
                                             "mlir": ml[0] if ml else nan}, ok,
                          (sa[fam], ref["scipy"][fam], py, ml)))
        sys.stdout.flush()

    print("%-14s %-18s %10s %10s %10s %11s %10s %9s %9s %8s %6s" % (
        "family", "input", "entries", "sa [ms]", "scipy [ms]", "pydata [ms]", "mlir [ms]",
        "scipy/sa", "pydata/sa", "mlir/sa", "agree"))
    geo = {}
    for fam, name, nnz, t, ok, detail in table:
        rs, rp, rm = t["scipy"] / t["sa"], t["pydata"] / t["sa"], t["mlir"] / t["sa"]
        geo.setdefault(fam, []).append((rs, rp, rm, nnz))
        print("%-14s %-18s %10d %10.3f %10.3f %11.3f %10.3f %9.2f %9.2f %8.2f %6s" % (
            fam, name, nnz, 1e3 * t["sa"], 1e3 * t["scipy"], 1e3 * t["pydata"],
            1e3 * t["mlir"], rs, rp, rm, "yes" if ok else "NO"))
        if not ok:
            print("    sa %s scipy %s pydata %s mlir %s" % detail)
    print("\ngeomean ratios (> 1: sparse_array faster)")
    gm = lambda v: math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")
    for fam in FAMILIES:
        rs = [x[0] for x in geo[fam]]
        rp = [x[1] for x in geo[fam] if not math.isnan(x[1])]
        rm = [x[2] for x in geo[fam] if not math.isnan(x[2])]
        big = [x[0] for x in geo[fam] if x[3] >= 1000000]
        print("  %-14s scipy/sa %6.2f   pydata/sa %7.2f   mlir/sa %6s   min scipy/sa at "
              ">= 1M entries %s" % (fam, gm(rs), gm(rp), "%.2f" % gm(rm) if rm else "-",
                                    "%.2f" % min(big) if big else "-"))
    bad = [r for r in table if not r[4]]
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        cols = 4
        rows_ = (len(FAMILIES) + cols - 1) // cols
        fig, axes = plt.subplots(rows_, cols, figsize=(16, 3.4 * rows_))
        for ax in axes.ravel()[len(FAMILIES):]:
            ax.axis("off")
        for ax, fam in zip(axes.ravel(), FAMILIES):
            rowsf = sorted((r for r in table if r[0] == fam), key=lambda r: r[2])
            for system, style in (("sa", "o-"), ("scipy", "s--"), ("pydata", "^:"),
                                  ("mlir", "x-.")):
                ax.loglog([r[2] for r in rowsf], [r[3][system] for r in rowsf], style,
                          label=system)
            ax.set_title(fam)
            ax.set_xlabel("stored entries of A")
            ax.set_ylabel("seconds")
        axes[0][0].legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
        print("plot: %s" % args.plot)
    if bad:
        sys.exit("results disagree for %d rows" % len(bad))


if __name__ == "__main__":
    main()
