#!/usr/bin/env python3
"""Shape operators on their own (nothing to fuse with), checked against numpy.

Each variant is one sparse_array.concat, sparse_array.slice,
sparse_array.split or sparse_array.collapse whose result is printed:
mostly parts stored like the result (levels, order, widths, fill), which
sparse-array-lower-shape copies a range of stored positions at a time
(MoveRanges.cpp), COO parts stacked into CSR rows (CooRows.cpp),
splits whose entries keep their positions
(SplitLevels.cpp: C and F order, CSR-like and COO-like groups) and
collapses that merge levels (CollapseLevels.cpp), sometimes not (another
format or fill: a kernel or the runtime).
Data come from elementwise.py's generators: every fill of the pools,
NaN/+-inf/-0.0 entries, 32-bit widths, empty dimensions, and half of the
sparse inputs assembled from buffers that keep entries equal to the fill.
The reference is numpy.concatenate, basic slicing and reshape of the dense
arrays.
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


def count_stored_fills(v, tag, rtyp, t, fmt, rank, fill, levels=None):
    """Lines printing how many stored values of %r_<tag> equal its fill in
    every bit (-0.0 apart from 0.0; a NaN of other bits than a NaN fill is
    a value of its own: the bits of a NaN an operation computes are not
    specified, e.g. x86's inf - inf is -nan), when its last level is not
    full (`levels`: the result's levels when not those of format `fmt`)."""
    if levels is None:
        levels = ew.FORMATS[rank][fmt]
    if levels is None or levels.split("]")[0].rstrip().endswith("dense"):
        v.counts_fills = False
        return
    v.counts_fills = True
    x = "_" + tag
    cmp = []
    if t == "f64":
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


# --long N: ranks 1 and 2 whose last dimension (and the parts and splits
# along it) has N to 2N points, so that single stored ranges and rows pass
# the lowerings' long-range paths (blocks of 4096 values, memcpy-like
# copies); 0 for the small shapes.
LONG = 0


def long_extent(rng):
    return rng.randint(LONG, 2 * LONG)


def random_shape(rng, rank):
    shape = [rng.choice([0, 1, 2, 3, 4, 5]) if rng.random() < 0.15 else rng.randint(1, 5)
             for _ in range(rank)]
    if LONG and rank:
        shape[-1] = long_extent(rng)
    return shape


def random_array(rng, v, name, key, t, shape, fmt, fill, width):
    """Defines `name` in v; returns (its type, the dense array)."""
    rank = len(shape)
    arr = ew.random_values(rng, t, shape, fill, None)
    density = rng.choice([0.0, 0.3, 0.6, 1.0]) if rng.random() < 0.3 else 0.5
    if LONG:
        # Dense enough that one range holds more than 4096 entries.
        density = 0.9 if density == 0.5 else density
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
    rank = rng.choice([1, 2, 2] if LONG else [1, 2, 2, 3, 4])
    return (v, t, rank, rng.choice(list(ew.FORMATS[rank])),
            rng.choice(ew.FILL_POOLS[t]), ew.random_width(rng))


def concat_variant(rng, srng, tag):
    v, t, rank, fmt, fill, width = new_variant(rng)
    shape = random_shape(rng, rank)
    d = rng.randrange(rank)
    # Sometimes the other dimensions are dynamic (sizes read at run time;
    # drawn from srng, so that the other draws are unchanged).
    dynamic = rank > 1 and srng.random() < 0.25
    # Sometimes the sizes along d are known only at run time (drawn from
    # srng): not fused; moved ranges with offsets summed at run time, or
    # the runtime's concatenation.
    dynax = srng.random() < 0.2
    dyn = lambda shp: ["?" if dynamic and k != d else n for k, n in enumerate(shp)]
    dynall = lambda shp: ["?" if (dynamic and k != d) or (dynax and k == d) else n
                          for k, n in enumerate(shp)]
    # COO parts stacked along the rows into CSR (CooRows.cpp), drawn
    # from srng.
    into_rows = rank == 2 and d == 0 and srng.random() < 0.5
    if into_rows:
        fmt = "coo"
    # CSR parts into COO along either dimension (CooRows.cpp).
    into_coo = rank == 2 and not into_rows and srng.random() < 0.3
    if into_coo:
        fmt = "csr"
    # COO along a dimension below its rows (drawn from srng): the rows
    # merged by coordinate, each part's run of a row copied
    # (MoveRanges.cpp's merged concatenation).
    elif not into_rows and rank > 1 and srng.random() < 0.15:
        fmt, d = "coo", srng.randrange(1, rank)
    sizes = [rng.choice([0, 1, 2, 3]) for _ in range(rng.randint(1, 3))]
    if LONG and d == rank - 1:
        sizes = [long_extent(rng) for _ in sizes]
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
        afill = pfill
        if srng.random() < 0.25:
            # The part as a slice of a larger array along d (drawn from
            # srng), sometimes counting down, sometimes of a dimension known
            # only at run time: fused as a bounded window.
            name, typ, arr = sliced_part(srng, v, name, "%s_%d" % (tag, j), t,
                                         pshape, d, pfmt, pfill, pwidth, dynamic)
        elif t in ew.POOLS and srng.random() < 0.2:
            # A computed part (drawn from srng): fused into the
            # concatenation, with a range marker when its fill is not the
            # result's (also when every part is dense or such a part).
            name, typ, arr, cfill = computed_part(srng, v, name, "%s_%d" % (tag, j), t,
                                                  pshape, pfmt, fill, pwidth)
            afill = cfill
            if dynamic:
                dtyp = ew.array_type(dyn(pshape), t, pfmt, rank, cfill, pwidth)
                v.lines.append("  %s_dyn = sparse_array.convert %s : %s to %s" % (
                    name, name, typ, dtyp))
                name, typ = name + "_dyn", dtyp
        elif dynamic:
            dtyp = ew.array_type(dyn(pshape), t, pfmt, rank, pfill, pwidth)
            v.lines.append("  %s_dyn = sparse_array.convert %s : %s to %s" % (
                name, name, typ, dtyp))
            name, typ = name + "_dyn", dtyp
        if dynax:
            dtyp = ew.array_type(dynall(pshape), t, pfmt, rank, afill, pwidth)
            v.lines.append("  %s_dynax = sparse_array.convert %s : %s to %s" % (
                name, name, typ, dtyp))
            name, typ = name + "_dynax", dtyp
        names.append(name)
        types.append(typ)
        dense.append(arr)
    rshape = list(shape)
    rshape[d] = sum(sizes)
    rfmt = "csr" if into_rows else "coo" if into_coo else fmt
    rtyp = ew.array_type(dynall(rshape), t, rfmt, rank, fill, width)
    v.lines.append("  %%r_%s = sparse_array.concat %s dim %d : %s -> %s" % (
        tag, ", ".join(names), d, ", ".join(types), rtyp))
    v.lines.append("  sparse_array.print %%r_%s : %s" % (tag, rtyp))
    count_stored_fills(v, tag, rtyp, t, rfmt, rank, fill)
    v.expected = np.concatenate(dense, axis=d)
    v.expected_fill = np.array(fill, dtype=ew.NP_TYPES[t])
    v.rtype = t
    v.desc = "concat dim %d of %s -> %s %s fill %r width %d" % (
        d, types, rfmt, rshape, fill, width)
    return v


def computed_part(srng, v, name, key, t, pshape, fmt, fill, width):
    """f(x, y) of two arrays of pshape, each with the result's fill or
    another: (its name, type, dense array, fill). Its fill f(fill x,
    fill y) is often not the result's."""
    rank = len(pshape)
    f = srng.choice(ew.POOLS[t])
    args, types, dense, fills = [], [], [], []
    for q in range(2):
        afill = fill if srng.random() < 0.5 else srng.choice(ew.FILL_POOLS[t])
        afmt = srng.choice(list(ew.FORMATS[rank]))
        aname = "%s_a%d" % (name, q)
        atyp, arr = random_array(srng, v, aname, "%s_a%d" % (key, q), t, pshape, afmt,
                                 afill, width)
        args.append(aname)
        types.append(atyp)
        dense.append(arr)
        fills.append(np.array(afill, dtype=ew.NP_TYPES[t]))
    e = ew.X(f, [0, 1])
    pfill = ew.evaluate(e, fills)[()]
    typ = ew.array_type(pshape, t, fmt, rank, pfill, width)
    v.lines.append("  %s_f = sparse_array.map @%s(%s) : (%s) -> %s" % (
        name, f, ", ".join(args), ", ".join(types), typ))
    return name + "_f", typ, ew.evaluate(e, dense), pfill


def sliced_part(srng, v, name, key, t, pshape, d, fmt, fill, width, dynamic):
    """A slice along d, of extent pshape[d], of a larger array defined in v
    (its other dimensions dynamic when `dynamic`, d itself sometimes):
    (its name, type, dense array)."""
    rank = len(pshape)
    size = pshape[d]
    before, after = srng.randint(0, 3), srng.randint(0, 3)
    bshape = list(pshape)
    bshape[d] = before + size + after
    big = name + "_big"
    btyp, barr = random_array(srng, v, big, key + "_big", t, bshape, fmt, fill, width)
    dyn_d = srng.random() < 0.5
    if dynamic or dyn_d:
        dshape = ["?" if (dynamic and k != d) or (dyn_d and k == d) else n
                  for k, n in enumerate(bshape)]
        dtyp = ew.array_type(dshape, t, fmt, rank, fill, width)
        v.lines.append("  %s_dyn = sparse_array.convert %s : %s to %s" % (
            big, big, btyp, dtyp))
        big, btyp = big + "_dyn", dtyp
    texts = [":"] * rank
    if size and srng.random() < 0.3:
        start, stop = before + size - 1, before - 1
        texts[d] = "%d:%s:-1" % (start, stop if stop >= 0 else "")
        along = slice(start, stop if stop >= 0 else None, -1)
    else:
        texts[d] = "%d:%d" % (before, before + size)
        along = slice(before, before + size)
    index = tuple(along if k == d else slice(None) for k in range(rank))
    rshape = ["?" if dynamic and k != d else n for k, n in enumerate(pshape)]
    rtyp = ew.array_type(rshape, t, fmt, rank, fill, width)
    v.lines.append("  %s = sparse_array.slice %s[%s] : %s -> %s" % (
        name + "_part", big, ", ".join(texts), btyp, rtyp))
    return name + "_part", rtyp, barr[index]


def slice_variant(rng, srng, tag):
    v, t, rank, fmt, fill, width = new_variant(rng)
    if rng.random() < 0.7:
        # One dimension, unit step: what moves stored ranges.
        shape = random_shape(rng, rank)
        d = rng.randrange(rank)
        lo = rng.randint(0, shape[d])
        hi = rng.randint(lo, shape[d])
        # With --long, half the matrix slices take rows from the second on
        # (drawn from srng): a long range that starts past the source's
        # first entry, whose offset the bulk copies must add.
        if LONG and rank == 2 and shape[0] > 1 and srng.random() < 0.5:
            d, lo = 0, rng.randint(1, shape[0] - 1)
            hi = rng.randint(lo + 1, shape[0])
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
    # CSR rows sliced into COO (CooRows.cpp), drawn from srng: often, as
    # only a one-dimension slice of the rows takes that path.
    into_coo = rank == 2 and srng.random() < 0.6
    if into_coo:
        fmt = "csr"
    name = "%%s_%s" % tag
    typ, arr = random_array(rng, v, name, tag, t, shape, fmt, fill, width)
    if dynamic:
        dtyp = ew.array_type(dyn(shape), t, fmt, rank, fill, width)
        v.lines.append("  %s_dyn = sparse_array.convert %s : %s to %s" % (
            name, name, typ, dtyp))
        name, typ = name + "_dyn", dtyp
    alike = rng.random() < 0.85
    rfmt = fmt if alike else rng.choice(list(ew.FORMATS[rank]))
    if into_coo:
        rfmt = "coo"
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


def parse_levels(text, rank):
    """(level names, dimension of each level) of a FORMATS entry."""
    if text is None:
        return ["dense"] * rank, list(range(rank))
    names, _, rest = text[1:].partition("]")
    order = list(range(rank))
    if "order" in rest:
        order = [int(x) for x in rest.split("[")[1].split("]")[0].split(",")]
    return [n.strip() for n in names.split(",")], order


def levels_text(names, order, width):
    text = "[%s]" % ", ".join(names)
    if order != sorted(order):
        text += ", order = [%s]" % ", ".join(str(x) for x in order)
    return text + (", pos_width = 32, crd_width = 32" if width == 32 else "")


def typed(shape, t, levels, fill):
    return "!sparse_array.array<%sx%s, #sparse_array.format<%s, fill = %s>>" % (
        "x".join(str(n) for n in shape), t, levels, ew.fill_literal(fill, t))


def random_levels(rng, rank):
    """(level names, dimension of each level, width) of a random format."""
    names, order = parse_levels(ew.FORMATS[rank][rng.choice(list(ew.FORMATS[rank]))],
                                rank)
    return names, order, ew.random_width(rng)


def finish(v, tag, t, fill, op_text, rshape, levels, expected, desc):
    """The result %r_<tag> = op_text : ... -> (rshape, levels), printed and
    checked against `expected`."""
    rtyp = typed(rshape, t, levels, fill)
    v.lines.append("  %%r_%s = %s -> %s" % (tag, op_text, rtyp))
    v.lines.append("  sparse_array.print %%r_%s : %s" % (tag, rtyp))
    count_stored_fills(v, tag, rtyp, t, None, len(rshape), fill, levels=levels)
    v.expected = expected
    v.expected_fill = np.array(fill, dtype=ew.NP_TYPES[t])
    v.rtype = t
    v.desc = "%s -> %s" % (desc, rtyp)
    return v


def split_dense(arr, d, sizes, fortran):
    """numpy: dimension d of arr split into `sizes` (C: the last part
    varies fastest; F: the first)."""
    a = np.moveaxis(arr, d, 0)
    rest = list(a.shape[1:])
    k = len(sizes)
    if fortran:
        b = a.reshape(list(reversed(sizes)) + rest)
        b = np.transpose(b, list(reversed(range(k))) + list(range(k, b.ndim)))
    else:
        b = a.reshape(list(sizes) + rest)
    return np.moveaxis(b, list(range(k)), list(range(d, d + k)))


def split_variant(rng, srng, tag):
    """A split whose result is mostly stored so that every entry keeps its
    position (SplitLevels.cpp: the parts' levels in the linearization's
    order, full ones first, then compressed or COO's), sometimes another
    format (a kernel)."""
    v, t, rank, fmt, fill, width = new_variant(rng)
    rank = rng.choice([1, 1, 2] if LONG else [1, 1, 2, 3])
    fmt = rng.choice(list(ew.FORMATS[rank]))
    k = rng.choice([2, 2, 3]) if rank < 3 else 2
    d = rng.randrange(rank)
    sizes = [rng.randint(1, 4) for _ in range(k)]
    if LONG and d == rank - 1:
        sizes[-1] = long_extent(rng)
    fortran = rng.random() < 0.3
    shape = random_shape(rng, rank)
    shape[d] = int(np.prod(sizes))
    name = "%%s_%s" % tag
    typ, arr = random_array(rng, v, name, tag, t, shape, fmt, fill, width)
    rshape = shape[:d] + sizes + shape[d + 1:]
    rrank = len(rshape)
    names, order = parse_levels(ew.FORMATS[rank][fmt], rank)
    level = order.index(d)
    if rng.random() < 0.75:
        # Stored alike outside the split; the group full, CSR-like or COO-like.
        group_dims = list(range(d, d + k))
        if fortran:
            group_dims.reverse()
        if names[level] == "dense":
            group = ["dense"] * k
        elif names[level].startswith("singleton"):
            # Under a non-unique level (COO): stays COO (not in place).
            group = ["singleton(nonunique)"] * (k - 1) + [names[level]]
        elif level + 1 == rank and rng.random() < 0.5:
            group = ["compressed(nonunique)"] + ["singleton(nonunique)"] * (k - 2) + ["singleton"]
        else:
            group = ["dense"] * (k - 1) + [names[level]]
        shift = lambda x: x if x < d else x + k - 1
        rnames = names[:level] + group + names[level + 1:]
        rorder = [shift(x) for x in order[:level]] + group_dims + \
            [shift(x) for x in order[level + 1:]]
        # The group's buffers are written: its widths may differ.
        rwidth = width if rng.random() < 0.7 else ew.random_width(rng)
    else:
        rnames, rorder, rwidth = random_levels(rng, rrank)
    op_text = "sparse_array.split %s dim %d [%s]%s : %s" % (
        name, d, ", ".join(str(n) for n in sizes), ' order "F"' if fortran else "", typ)
    return finish(v, tag, t, fill, op_text, rshape,
                  levels_text(rnames, rorder, rwidth),
                  split_dense(arr, d, sizes, fortran),
                  "split dim %d %s%s of %s" % (d, sizes, " F" if fortran else "", typ))


def collapse_dense(arr, d, k, fortran):
    """numpy: dimensions d..d+k-1 of arr collapsed into one (C: the last
    varies fastest; F: the first)."""
    if fortran:
        axes = list(range(arr.ndim))
        axes[d:d + k] = reversed(axes[d:d + k])
        arr = np.transpose(arr, axes)
    shape = list(arr.shape)
    return arr.reshape(shape[:d] + [int(np.prod(shape[d:d + k]))] + shape[d + k:])


def collapse_variant(rng, srng, tag):
    """A collapse whose result is mostly stored with the group's levels
    merged into one (CollapseLevels.cpp), sometimes another format."""
    v, t, rank, fmt, fill, width = new_variant(rng)
    rank = 2 if LONG else rng.choice([2, 2, 3, 4])
    fmt = rng.choice(list(ew.FORMATS[rank]))
    k = rng.choice([2, 2, 3]) if rank > 2 else 2
    d = rng.randrange(rank - k + 1)
    fortran = rng.random() < 0.3
    shape = random_shape(rng, rank)
    name = "%%s_%s" % tag
    typ, arr = random_array(rng, v, name, tag, t, shape, fmt, fill, width)
    rshape = shape[:d] + [int(np.prod(shape[d:d + k]))] + shape[d + k:]
    rrank = len(rshape)
    names, order = parse_levels(ew.FORMATS[rank][fmt], rank)
    group_dims = list(range(d, d + k))
    if fortran:
        group_dims.reverse()
    first = order.index(group_dims[0])
    if rng.random() < 0.75 and order[first:first + k] == group_dims:
        group = names[first:first + k]
        below = names[first + k:]
        if all(n == "dense" for n in group):
            merged = "dense"
        elif group[0].startswith("singleton"):
            merged = group[-1]  # under a non-unique level (COO)
        elif below and below[0].startswith("singleton"):
            merged = "compressed(nonunique)"
        else:
            merged = "compressed"
        shift = lambda x: x if x < d else x - k + 1
        rnames = names[:first] + [merged] + names[first + k:]
        rorder = [shift(x) for x in order[:first]] + [d] + \
            [shift(x) for x in order[first + k:]]
        rwidth = width
    else:
        rnames, rorder, rwidth = random_levels(rng, rrank)
    op_text = "sparse_array.collapse %s [%s]%s : %s" % (
        name, ", ".join(str(x) for x in range(d, d + k)),
        ' order "F"' if fortran else "", typ)
    return finish(v, tag, t, fill, op_text, rshape,
                  levels_text(rnames, rorder, rwidth),
                  collapse_dense(arr, d, k, fortran),
                  "collapse dims %d..%d%s of %s" % (d, d + k - 1,
                                                   " F" if fortran else "", typ))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ew.shape_fuzz_arguments(p)
    p.add_argument("--long", type=int, default=0,
                   help="last dimensions of N to 2N points (ranks 1 and 2)")
    args = p.parse_args()
    global LONG
    LONG = args.long
    with open(args.stdlib) as f:
        stdlib_text = f.read() + PRINT_DECLS
    def variant(rng, srng, tag):
        # Splits drawn from srng, so that a seed's concatenations and
        # slices stay the ones it always drew.
        draw = srng.random()
        if draw < 0.15:
            return split_variant(rng, srng, tag)
        if draw < 0.3:
            return collapse_variant(rng, srng, tag)
        return (concat_variant(rng, srng, tag) if rng.random() < 0.5
                else slice_variant(rng, srng, tag))
    return ew.fuzz_variants(args, stdlib_text, variant)


if __name__ == "__main__":
    sys.exit(main())
