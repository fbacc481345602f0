#!/usr/bin/env python3
"""Shape operators on their own (nothing to fuse with), checked against numpy.

Each variant is one sparse_array.concat or sparse_array.slice whose result
is printed: mostly parts stored like the result (levels, order, widths,
fill), which sparse-array-lower-shape copies a range of stored positions at
a time (MoveRanges.cpp), sometimes not (another format or fill: a kernel).
Data come from elementwise.py's generators: every fill of the pools,
NaN/+-inf/-0.0 entries, 32-bit widths, empty dimensions, and half of the
sparse inputs assembled from buffers that keep entries equal to the fill.
The reference is numpy.concatenate and basic slicing of the dense arrays.
Printing lists no entry equal to the fill, so each result whose last level
is not full also prints how many of its stored values equal its fill,
which must be none.

    moves.py --sa-run BIN --stdlib std.mlir --fuzz 300 --seed 1
"""

import argparse
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Elementwise"))
import elementwise as ew  # noqa: E402


PRINT_DECLS = """
func.func private @sa_rt_print_str(!llvm.ptr)
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_newline()
llvm.mlir.global private constant @stored_fills_tag("stored fills: \\00") {addr_space = 0 : i32}
"""
TAG = "stored fills: "
ELT = {"f64": "f64", "i64": "i64", "i1": "i1"}


def count_stored_fills(v, tag, rtyp, t, fmt, rank, fill):
    """Lines printing how many stored values of %r_<tag> equal its fill
    (NaNs alike, -0.0 apart from 0.0), when its last level is not full."""
    levels = ew.FORMATS[rank][fmt]
    if levels is None or levels.split("]")[0].rstrip().endswith("dense"):
        v.counts_fills = False
        return
    v.counts_fills = True
    x = "_" + tag
    cmp = []
    if t == "f64" and fill != fill:
        cmp.append("    %%eq%s = arith.cmpf uno, %%e%s, %%e%s : f64" % (x, x, x))
    elif t == "f64":
        bits = struct.unpack("<q", struct.pack("<d", fill))[0]
        cmp += ["    %%bits%s = arith.bitcast %%e%s : f64 to i64" % (x, x),
                "    %%fb%s = arith.constant %d : i64" % (x, bits),
                "    %%eq%s = arith.cmpi eq, %%bits%s, %%fb%s : i64" % (x, x, x)]
    else:
        lit = str(int(fill)) if t == "i1" else ew.scalar_literal(fill, t)
        cmp += ["    %%fv%s = arith.constant %s : %s" % (x, lit, t),
                "    %%eq%s = arith.cmpi eq, %%e%s, %%fv%s : %s" % (x, x, x, t)]
    v.lines += [
        "  %%vals%s = sparse_array.values %%r%s : %s -> memref<?x%s>" % (x, x, rtyp, t),
        "  %%z%s = arith.constant 0 : index" % x,
        "  %%o%s = arith.constant 1 : index" % x,
        "  %%nv%s = memref.dim %%vals%s, %%z%s : memref<?x%s>" % (x, x, x, t),
        "  %%cnt%s = scf.for %%i%s = %%z%s to %%nv%s step %%o%s iter_args(%%a%s = %%z%s) -> (index) {"
        % (x, x, x, x, x, x, x),
        "    %%e%s = memref.load %%vals%s[%%i%s] : memref<?x%s>" % (x, x, x, t)] + cmp + [
        "    %%inc%s = arith.select %%eq%s, %%o%s, %%z%s : index" % (x, x, x, x),
        "    %%sum%s = arith.addi %%a%s, %%inc%s : index" % (x, x, x),
        "    scf.yield %%sum%s : index" % x,
        "  }",
        "  %%tag%s = llvm.mlir.addressof @stored_fills_tag : !llvm.ptr" % x,
        "  func.call @sa_rt_print_str(%%tag%s) : (!llvm.ptr) -> ()" % x,
        "  %%ci%s = arith.index_cast %%cnt%s : index to i64" % (x, x),
        "  func.call @sa_rt_print_i64(%%ci%s) : (i64) -> ()" % x,
        "  func.call @sa_rt_print_newline() : () -> ()"]


_check = ew.check


def check(variants, out_lines):
    """ew.check on the printed arrays, after taking out (and checking) the
    lines that count stored fills."""
    counts = [int(l[len(TAG):]) for l in out_lines if l.startswith(TAG)]
    failures = _check(variants, [l for l in out_lines if not l.startswith(TAG)])
    counted = [v for v in variants if v.counts_fills]
    if len(counts) != len(counted):
        return failures + ["%d stored-fill counts printed for %d results" % (
            len(counts), len(counted))]
    for v, n in zip(counted, counts):
        if n:
            failures.append("%s: %d stored values equal the fill" % (v.desc, n))
    return failures


ew.check = check


def random_shape(rng, rank):
    return [rng.choice([0, 1, 2, 3, 4, 5]) if rng.random() < 0.15 else rng.randint(1, 5)
            for _ in range(rank)]


def random_array(rng, v, name, key, t, shape, fmt, fill, width):
    """Defines `name` in v; returns (its type, the dense array)."""
    rank = len(shape)
    arr = ew.random_values(rng, t, shape, fill, None)
    density = rng.choice([0.0, 0.3, 0.6, 1.0]) if rng.random() < 0.3 else 0.5
    stored = np.array([rng.random() < density for _ in range(arr.size)],
                      dtype=bool).reshape(shape)
    typ = ew.array_type(shape, t, fmt, rank, fill, width)
    return typ, ew.operand_lines(rng, v, name, key, arr, stored, t, fmt, typ, fill, width)


def new_variant(rng):
    """An empty variant and its draws: element type, rank, format, fill,
    widths."""
    v = ew.Variant()
    v.lines, v.globals = [], []
    t = rng.choice(["f64", "f64", "i64", "i1"])
    rank = rng.choice([1, 2, 2, 3, 4])
    return (v, t, rank, rng.choice(list(ew.FORMATS[rank])),
            rng.choice(ew.FILL_POOLS[t]), ew.random_width(rng))


def concat_variant(rng, srng, tag):
    v, t, rank, fmt, fill, width = new_variant(rng)
    shape = random_shape(rng, rank)
    d = rng.randrange(rank)
    # Sometimes the other dimensions are dynamic (sizes read at run time;
    # drawn from srng, so that the other draws are unchanged).
    dynamic = rank > 1 and srng.random() < 0.25
    dyn = lambda shp: ["?" if dynamic and k != d else n for k, n in enumerate(shp)]
    sizes = [rng.choice([0, 1, 2, 3]) for _ in range(rng.randint(1, 3))]
    names, types, dense = [], [], []
    for j, size in enumerate(sizes):
        pshape = list(shape)
        pshape[d] = size
        alike = rng.random() < 0.8
        pfmt = fmt if alike else rng.choice(list(ew.FORMATS[rank]))
        pfill = fill if alike or rng.random() < 0.5 else rng.choice(ew.FILL_POOLS[t])
        pwidth = width if alike else ew.random_width(rng)
        name = "%%p%d_%s" % (j, tag)
        typ, arr = random_array(rng, v, name, "%s_%d" % (tag, j), t, pshape, pfmt,
                                pfill, pwidth)
        if dynamic:
            dtyp = ew.array_type(dyn(pshape), t, pfmt, rank, pfill, pwidth)
            v.lines.append("  %s_dyn = sparse_array.convert %s : %s to %s" % (
                name, name, typ, dtyp))
            name, typ = name + "_dyn", dtyp
        names.append(name)
        types.append(typ)
        dense.append(arr)
    rshape = list(shape)
    rshape[d] = sum(sizes)
    rtyp = ew.array_type(dyn(rshape), t, fmt, rank, fill, width)
    v.lines.append("  %%r_%s = sparse_array.concat %s dim %d : %s -> %s" % (
        tag, ", ".join(names), d, ", ".join(types), rtyp))
    v.lines.append("  sparse_array.print %%r_%s : %s" % (tag, rtyp))
    count_stored_fills(v, tag, rtyp, t, fmt, rank, fill)
    v.expected = np.concatenate(dense, axis=d)
    v.expected_fill = np.array(fill, dtype=ew.NP_TYPES[t])
    v.rtype = t
    v.desc = "concat dim %d of %s -> %s %s fill %r width %d" % (
        d, types, fmt, rshape, fill, width)
    return v


def slice_variant(rng, srng, tag):
    v, t, rank, fmt, fill, width = new_variant(rng)
    if rng.random() < 0.7:
        # One dimension, unit step: what moves stored ranges.
        shape = random_shape(rng, rank)
        d = rng.randrange(rank)
        lo = rng.randint(0, shape[d])
        hi = rng.randint(lo, shape[d])
        texts = [":"] * rank
        texts[d] = "%s:%s" % (lo if lo or rng.random() < 0.5 else "",
                              hi if hi < shape[d] or rng.random() < 0.5 else "")
        if rng.random() < 0.3 and hi < shape[d]:
            texts[d] = "%d:%d" % (lo - shape[d] if lo < shape[d] else lo, hi - shape[d])
        index = tuple(slice(lo, hi) if k == d else slice(None) for k in range(rank))
        spec = "[%s]" % ", ".join(texts)
        small = [hi - lo if k == d else n for k, n in enumerate(shape)]
        # Sometimes the other dimensions are dynamic (drawn from srng).
        dynamic = rank > 1 and srng.random() < 0.25
    else:
        small = random_shape(rng, rank)
        shape, spec, index = ew.random_slice(srng, small, allow_index=False)
        d, dynamic = None, False
    dyn = lambda shp: ["?" if dynamic and k != d else n for k, n in enumerate(shp)]
    name = "%%s_%s" % tag
    typ, arr = random_array(rng, v, name, tag, t, shape, fmt, fill, width)
    if dynamic:
        dtyp = ew.array_type(dyn(shape), t, fmt, rank, fill, width)
        v.lines.append("  %s_dyn = sparse_array.convert %s : %s to %s" % (
            name, name, typ, dtyp))
        name, typ = name + "_dyn", dtyp
    alike = rng.random() < 0.85
    rfmt = fmt if alike else rng.choice(list(ew.FORMATS[rank]))
    rwidth = width if alike else ew.random_width(rng)
    rtyp = ew.array_type(dyn(small), t, rfmt, rank, fill, rwidth)
    v.lines.append("  %%r_%s = sparse_array.slice %s%s : %s -> %s" % (
        tag, name, spec, typ, rtyp))
    v.lines.append("  sparse_array.print %%r_%s : %s" % (tag, rtyp))
    count_stored_fills(v, tag, rtyp, t, rfmt, rank, fill)
    v.expected = arr[index]
    assert list(v.expected.shape) == small, (v.expected.shape, small, spec)
    v.expected_fill = np.array(fill, dtype=ew.NP_TYPES[t])
    v.rtype = t
    v.desc = "slice %s of %s -> %s" % (spec, typ, rtyp)
    return v


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ew.shape_fuzz_arguments(p)
    args = p.parse_args()
    with open(args.stdlib) as f:
        stdlib_text = f.read() + PRINT_DECLS
    return ew.fuzz_variants(args, stdlib_text, lambda rng, srng, tag: (
        concat_variant(rng, srng, tag) if rng.random() < 0.5
        else slice_variant(rng, srng, tag)))


if __name__ == "__main__":
    sys.exit(main())
