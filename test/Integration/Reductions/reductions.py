#!/usr/bin/python3
"""Reductions and contractions over semirings, executed and checked.

Random arrays (every format of elementwise.py, fills incl. NaN/±inf/-0.0)
are reduced with `sparse_array.reduce @f %a dims [...]` to dense or sparse
results, and every printed entry and the fill are compared with an
independent reference: a sequential left fold of the function (numpy on
scalars) over each reduced slice in row-major order. An empty slice gives
the function's identity, or the input's fill when it has none. Half of the
variants are contractions: mxv y(i) = add_j mul(A(i, j), x(j)) and mxm
C(i, j) = add_k mul(A(i, k), B(k, j)) over (+, x), (min, +), (max, +),
(or, and), ... with any operand and output formats. With --views P an
operand is, with probability P, a shape operator's view of another array
(slice, transpose, reshape, collapse, split, expand_dims, squeeze), fused
into the reduction that reads it.

  reductions.py --sa-run build/bin/sa-run --stdlib stdlib/std.mlir \\
      [--count 300] [--seed 1] [--batch 25]
"""

import argparse
import itertools
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Elementwise"))
import elementwise as ew  # noqa: E402

# Combiners: element type, identity (None: none declared).
COMBINERS = {
    "add_f64": ("f64", -0.0),
    "min_f64": ("f64", float("inf")),
    "max_f64": ("f64", float("-inf")),
    "mul_f64": ("f64", 1.0),
    "add_i64": ("i64", 0),
    "mul_i64": ("i64", 1),
    "min_i64": ("i64", 2**63 - 1),
    "max_i64": ("i64", -2**63),
    "and_i64": ("i64", -1),
    "or_i64": ("i64", 0),
    "xor_i64": ("i64", 0),
    "and_i1": ("i1", True),
    "or_i1": ("i1", False),
    "xor_i1": ("i1", False),
}


# Combiners whose fold depends on its order (none is associative): the
# reduced entries must be folded in C order whatever order the input stores
# them in (CSC, COO by columns, DCSC, permuted 3-D storage) -- scatter loops
# or conversions that visit them otherwise give another value (issue 55).
NONASSOCIATIVE = {
    # 2x + y: neither commutative nor associative, no identity.
    "twice_plus_f64": ("f64", None, lambda x, y: 2.0 * x + y, """
sparse_array.func @twice_plus_f64(%x: f64, %y: f64) -> f64 {
  %c2 = arith.constant 2.0 : f64
  %t = arith.mulf %x, %c2 : f64
  %r = arith.addf %t, %y : f64
  sparse_array.yield %r : f64
}"""),
    "twice_plus_i64": ("i64", None, lambda x, y: np.int64(2) * x + y, """
sparse_array.func @twice_plus_i64(%x: i64, %y: i64) -> i64 {
  %c2 = arith.constant 2 : i64
  %t = arith.muli %x, %c2 : i64
  %r = arith.addi %t, %y : i64
  sparse_array.yield %r : i64
}"""),
    # The floor average: commutative and idempotent, not associative.
    "average_i64": ("i64", None, lambda x, y: (x & y) + ((x ^ y) >> np.int64(1)), """
sparse_array.func @average_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, idempotent} {
  %a = arith.andi %x, %y : i64
  %b = arith.xori %x, %y : i64
  %c1 = arith.constant 1 : i64
  %h = arith.shrsi %b, %c1 : i64
  %r = arith.addi %a, %h : i64
  sparse_array.yield %r : i64
}"""),
    # x < y ? x : y: idempotent; with NaNs neither commutative nor associative.
    "select_min_f64": ("f64", None, lambda x, y: np.where(x < y, x, y), """
sparse_array.func @select_min_f64(%x: f64, %y: f64) -> f64 attributes {idempotent} {
  %lt = arith.cmpf olt, %x, %y : f64
  %r = arith.select %lt, %x, %y : f64
  sparse_array.yield %r : f64
}"""),
}
for _name, (_t, _identity, _f, _text) in NONASSOCIATIVE.items():
    COMBINERS[_name] = (_t, _identity)
    ew.FUNCS[_name] = ([_t, _t], _t, _f)
NONASSOCIATIVE_TEXT = "\n".join(text for _, _, _, text in NONASSOCIATIVE.values())


def fold(fn, t, values, identity, fill):
    f = ew.FUNCS[fn][2]
    if not values:
        return np.array(identity if identity is not None else fill, ew.NP_TYPES[t])
    acc = np.array(values[0], ew.NP_TYPES[t])
    with np.errstate(all="ignore"):
        for v in values[1:]:
            acc = np.asarray(f(acc, np.array(v, ew.NP_TYPES[t])), ew.NP_TYPES[t])
    return acc


def reference(fn, t, dense, dims, identity, fill):
    kept = [d for d in range(dense.ndim) if d not in dims]
    moved = np.transpose(dense, kept + list(dims))
    out_shape = tuple(dense.shape[d] for d in kept)
    out = np.empty(out_shape, ew.NP_TYPES[t])
    for idx in np.ndindex(out_shape):
        out[idx] = fold(fn, t, list(moved[idx].reshape(-1)), identity, fill)
    return out


# --views P: an operand is, with probability P, a view of another array
# (a slice, transposition, reshape, collapse, split, expand_dims or squeeze
# of it: elementwise.py's random_view), drawn from VIEW_RNG so that the
# other draws are those of a run without views.
VIEWS = 0.0
VIEW_RNG = None


def random_operand(rng, v, name, t, shape, fmts, fill=None):
    """Defines `name` in variant v (a constant or an array assembled from
    buffers, 32- or 64-bit positions; or a shape operator's view of one,
    fused into the reduction); returns (format, fill, dense, type)."""
    fmt = rng.choice(fmts)
    if fill is None:
        fill = rng.choice(ew.FILL_POOLS[t])
    viewed = VIEW_RNG is not None and VIEW_RNG.random() < VIEWS
    big, op, view = ew.random_view(VIEW_RNG, list(shape)) if viewed else (shape, None, None)
    arr = ew.random_values(rng, t, big, fill, None)
    density = rng.choice([0.0, 0.3, 0.6, 1.0]) if rng.random() < 0.3 else 0.5
    stored = np.array([rng.random() < density for _ in range(arr.size)],
                      dtype=bool).reshape(big)
    width = ew.random_width(rng)
    typ = ew.array_type(shape, t, fmt, len(shape), fill, width)
    key = name.lstrip("%")
    if not viewed:
        dense = ew.operand_lines(rng, v, name, key, arr, stored, t, fmt, typ, fill, width)
        return fmt, fill, dense, typ
    brank = len(big)
    bfmt = fmt if brank == len(shape) and op[0] != "transpose" else \
        VIEW_RNG.choice(list(ew.FORMATS[brank]))
    btyp = ew.array_type(big, t, bfmt, brank, fill, width)
    bdense = ew.operand_lines(rng, v, name + "_big", key + "_big", arr, stored, t,
                              bfmt, btyp, fill, width)
    v.lines.append("  %s = sparse_array.%s %s_big%s : %s -> %s" % (
        name, op[0], name, op[1], btyp, typ))
    v.views = getattr(v, "views", []) + ["%s of %s %s" % (op[0], bfmt, big)]
    return fmt, fill, np.ascontiguousarray(view(bdense)), typ


def other_fill(rng, t, natural):
    """A declared result fill other than the natural one a fifth of the
    time: every result point must then be stored where it differs (the
    scatter plan of row-wise products must not be taken)."""
    if rng.random() >= 0.2:
        return natural
    return {"f64": 7.0, "i64": 7, "i1": not bool(natural)}[t]


def mask_function(mask, tag, t, declared):
    """@keep_if_TAG / @keep_unless_TAG(m, x): x where the mask is (not) set,
    else `declared`; its algebra states it for mask fill false."""
    algebra = "intersect(0, 1)" if mask == "keep_if" else "intersect(complement(0), 1)"
    return ("sparse_array.func @%s_%s(%%m: i1, %%x: %s) -> %s\n"
            "    attributes {algebra = #sparse_array.algebra<%s, fills = [0 : i1, %s]>} {\n"
            "  %%f = arith.constant %s\n"
            "  %%r = arith.select %%m, %s : %s\n"
            "  sparse_array.yield %%r : %s\n}" % (
                mask, tag, t, t, algebra, ew.fill_literal(declared, t),
                ew.scalar_literal(declared, t) + ("" if t == "i1" else " : " + t),
                "%x, %f" if mask == "keep_if" else "%f, %x", t, t))


def finish(v, tag, out_typ, expected, declared, t):
    """Prints and frees the result %r_TAG; records what it must be."""
    ew.print_result(v, "%%r_%s" % tag, out_typ)
    v.lines.append("  sparse_array.dealloc %%r_%s : %s" % (tag, out_typ))
    v.expected = expected
    v.expected_fill = np.array(declared, ew.NP_TYPES[t])
    v.rtype = t


def make_variant(rng, tag):
    fn = rng.choice(sorted(COMBINERS))
    t, identity = COMBINERS[fn]
    rank = rng.choice([1, 2, 2, 3])
    shape = ew.shapes_for(rank, rng)
    v = ew.Variant()
    v.globals, v.lines = [], []
    in_fmt, fill, dense, in_typ = random_operand(rng, v, "%a_" + tag, t, shape,
                                                 list(ew.FORMATS[rank]))
    dims = sorted(rng.sample(range(rank), rng.randint(1, rank)))
    out_rank = rank - len(dims)
    out_shape = [shape[d] for d in range(rank) if d not in dims]
    expected = reference(fn, t, dense, dims, identity, fill)
    # Declare the fill the reduction of fills gives (the derivation's), so
    # the optimized paths run; a wrong guess only costs iterations.
    count = int(np.prod([shape[d] for d in dims]))
    declared = other_fill(rng, t, fold(fn, t, [fill] * count, identity, fill)[()])
    out_fmt = rng.choice(list(ew.FORMATS[out_rank])) if out_rank else None
    out_typ = (ew.array_type(out_shape, t, out_fmt, out_rank, declared) if out_rank
               else "!sparse_array.array<%s, #sparse_array.format<[], fill = %s>>"
               % (t, ew.fill_literal(declared, t)))
    v.lines.append("  %%r_%s = sparse_array.reduce @%s %%a_%s dims [%s] : %s -> %s" % (
        tag, fn, tag, ", ".join(str(d) for d in dims), in_typ, out_typ))
    finish(v, tag, out_typ, expected, declared, t)
    v.desc = "%s over dims %s of %s %s fill %r -> %s" % (fn, dims, in_fmt, shape, fill, out_fmt)
    return v


# Element-wise functions of broadcast maps, per element type.
MAP_FUNCS = {"f64": ["add_f64", "mul_f64", "min_f64", "sub_f64", "addmul_f64"],
             "i64": ["add_i64", "max_i64", "xor_i64", "twice_max_i64"],
             "i1": ["and_i1", "xor_i1", "or_via_xor_i1"]}


def make_broadcast_reduction(rng, tag):
    """reduce @g (map @f(x, y) -> [m, n] or [m, p, n]) dims [...]: the
    inputs have rank 1 (or 0), so the leading dimensions exist only in the
    map's result (broadcasting); reducing over them must see their extent."""
    fn = rng.choice(sorted(COMBINERS))
    t, identity = COMBINERS[fn]
    f = rng.choice(MAP_FUNCS[t])
    n = rng.choice([0, 1, 3, 5])
    lead = [rng.choice([1, 2, 4])] + ([rng.choice([2, 3])] if rng.random() < 0.3 else [])
    out_shape = lead + [n]
    v = ew.Variant()
    v.globals, v.lines = [], []
    in_shapes = [[n], [n] if rng.random() < 0.7 else []]
    dense, types_ = [], []
    for k, shape in enumerate(in_shapes):
        if shape:
            _, _, d, typ = random_operand(rng, v, "%%in%d_%s" % (k, tag), t, shape,
                                          list(ew.FORMATS[1]))
        else:  # a scalar
            val = ew.random_values(rng, t, [1], 0, None)[0]
            typ = "!sparse_array.array<%s>" % t
            v.lines.append("  %%in%d_%s = sparse_array.constant dense<%s> : tensor<%s> : %s" % (
                k, tag, ew.scalar_literal(val, t), t, typ))
            d = np.array(val, ew.NP_TYPES[t])
        dense.append(d)
        types_.append(typ)
    with np.errstate(all="ignore"):
        mapped = np.broadcast_to(np.asarray(ew.FUNCS[f][2](*dense), ew.NP_TYPES[t]),
                                 out_shape)
    rank = len(out_shape)
    dims = sorted(rng.sample(range(rank), rng.randint(1, rank)))
    if rng.random() < 0.6:  # reduce over broadcast-only dimensions
        dims = sorted(rng.sample(range(rank - 1), rng.randint(1, rank - 1)))
    expected = reference(fn, t, np.array(mapped), dims, identity, 0)
    map_typ = ew.array_type(out_shape, t, "dense", rank, 0)
    kept = [out_shape[d] for d in range(rank) if d not in dims]
    out_rank = len(kept)
    # Any declared fill is exact (entries that differ are stored); the
    # value most points take keeps the output small.
    declared = other_fill(rng, t, expected.reshape(-1)[0] if expected.size else
                          identity if identity is not None else 0)
    out_fmt = rng.choice(list(ew.FORMATS[out_rank])) if out_rank else None
    out_typ = (ew.array_type(kept, t, out_fmt, out_rank, declared) if out_rank
               else "!sparse_array.array<%s, #sparse_array.format<[], fill = %s>>"
               % (t, ew.fill_literal(declared, t)))
    v.lines.append("  %%p_%s = sparse_array.map @%s(%%in0_%s, %%in1_%s) : (%s) -> %s" % (
        tag, f, tag, tag, ", ".join(types_), map_typ))
    v.lines.append("  %%r_%s = sparse_array.reduce @%s %%p_%s dims [%s] : %s -> %s" % (
        tag, fn, tag, ", ".join(str(d) for d in dims), map_typ, out_typ))
    finish(v, tag, out_typ, expected, declared, t)
    v.desc = "%s over dims %s of %s(x[%d], y%s) broadcast to %s -> %s" % (
        fn, dims, f, n, in_shapes[1], out_shape, out_fmt)
    return v


# Functions that trap on some operands (integer division by a variable),
# applied to a reduction's result: where the dense program does not divide
# (the divisor's own cases), neither may the kernel; reading the divisor or
# a fixed-coordinate input outside the reduction's loop must not need
# values only the loop has (issue 55: a crash at compile time).
TRAPPING = {
    "tdiv_i64": (ew._div_trunc, """
sparse_array.func @tdiv_i64(%x: i64, %y: i64) -> i64 {
  %r = arith.divsi %x, %y : i64
  sparse_array.yield %r : i64
}"""),
    "trem_i64": (lambda x, y: np.fmod(np.asarray(x, np.int64), np.asarray(y, np.int64)), """
sparse_array.func @trem_i64(%x: i64, %y: i64) -> i64 {
  %r = arith.remsi %x, %y : i64
  sparse_array.yield %r : i64
}"""),
    "div_i64": (ew._div_trunc, ""),  # the standard library's (properties)
    "gcd_i64": (np.gcd, ""),
}
TRAPPING_TEXT = "\n".join(text for _, text in TRAPPING.values())
ew.FUNCS.setdefault("sub_i64", (["i64", "i64"], "i64", np.subtract))
DIVISORS = [2, 3, 5, 7, -2, -3]


def divisor_operand(rng, v, name, shape):
    """A divisor array of `shape` (rank 0 or 1): no zero and no -1 anywhere
    (the dense program would trap), fill among them too."""
    fill = rng.choice(DIVISORS)
    arr = np.array([rng.choice(DIVISORS) for _ in range(int(np.prod(shape)))],
                   dtype=np.int64).reshape(shape)
    if not shape:
        typ = "!sparse_array.array<i64, #sparse_array.format<[], fill = %d : i64>>" % fill
        v.lines.append("  %s = sparse_array.constant dense<%d> : tensor<i64> : %s" % (
            name, int(arr[()]), typ))
        return arr, typ
    fmt = rng.choice(list(ew.FORMATS[1]))
    typ = ew.array_type(shape, "i64", fmt, 1, fill)
    stored = np.array([rng.random() < 0.6 for _ in range(arr.size)], dtype=bool)
    dense = ew.operand_lines(rng, v, name, name.lstrip("%"), arr, stored, "i64", fmt, typ, fill)
    return dense, typ


def make_reduce_then_trap(rng, tag):
    """h(reduce(f(A, b)), c): A of rank 1 or 2 in any format, b a size-1
    vector (broadcast; in the kernel form read at the fixed coordinate 0),
    the reduction over A's last dimension (or all), then a trapping h by a
    0-d or vector divisor c."""
    t = "i64"
    fn = rng.choice(["add_i64", "max_i64", "mul_i64", "twice_plus_i64", "average_i64"])
    _, identity = COMBINERS[fn]
    f = rng.choice(["sub_i64", "add_i64", "mul_i64"])
    h = rng.choice(sorted(TRAPPING))
    rank = rng.choice([1, 2])
    shape = [rng.choice([1, 2, 3, 5]) for _ in range(rank)]
    kernel_form = rng.random() < 0.4
    v = ew.Variant()
    v.globals, v.lines = [], []
    fa, fill_a, A, ta = random_operand(rng, v, "%a_" + tag, t, shape, list(ew.FORMATS[rank]))
    fb, fill_b, B, tb = random_operand(rng, v, "%b_" + tag, t, [1], list(ew.FORMATS[1]))
    fmap = ew.FUNCS[f][2]
    with np.errstate(all="ignore"):
        mapped = np.asarray(fmap(A, B[0]), np.int64)
        map_fill = np.asarray(fmap(np.int64(fill_a), np.int64(fill_b)), np.int64)[()]
    dims = [rank - 1] if rank == 2 and (kernel_form or rng.random() < 0.6) else list(range(rank))
    kept = [shape[d] for d in range(rank) if d not in dims]
    r = reference(fn, t, mapped, dims, identity, map_fill)
    c, tc = divisor_operand(rng, v, "%c_" + tag, kept if kept and rng.random() < 0.5 else [])
    with np.errstate(all="ignore"):
        expected = np.asarray(TRAPPING[h][0](r, c), np.int64).reshape(kept)
    declared = expected.flat[0] if expected.size and rng.random() < 0.7 else 0
    out_fmt = rng.choice(list(ew.FORMATS[len(kept)])) if kept else None
    out_typ = (ew.array_type(kept, t, out_fmt, len(kept), declared) if kept
               else "!sparse_array.array<i64, #sparse_array.format<[], fill = %d : i64>>"
               % declared)
    if kernel_form:
        res_idx = ["%i"] if kept else []
        red = "%j" if kept else "%i"
        a_idx = ", ".join(res_idx + [red])
        c_idx = "%i" if kept and c.ndim else ""
        v.lines += [
            "  %%r_%s = sparse_array.kernel ins(%%a_%s, %%b_%s, %%c_%s : %s, %s, %s) -> %s {" % (
                tag, tag, tag, tag, ta, tb, tc, out_typ),
            "  ^bb0(%s: index, %%A: %s, %%B: %s, %%C: %s):" % (
                ": index, ".join(res_idx + [red]), ta, tb, tc),
            "    %c0 = arith.constant 0 : index",
            "    %%x = sparse_array.access %%A[%s] : %s" % (a_idx, ta),
            "    %%y = sparse_array.access %%B[%%c0] : %s" % tb,
            "    %%d = sparse_array.apply @%s(%%x, %%y) : (i64, i64) -> i64" % f,
            "    %%s = sparse_array.reduce_over [%s] %%d with @%s : i64" % (red, fn),
            "    %%z = sparse_array.access %%C[%s] : %s" % (c_idx, tc),
            "    %%q = sparse_array.apply @%s(%%s, %%z) : (i64, i64) -> i64" % h,
            "    sparse_array.yield %q : i64",
            "  }"]
    else:
        map_fmt = rng.choice(list(ew.FORMATS[rank]))
        map_typ = ew.array_type(shape, t, map_fmt, rank, map_fill)
        r_fmt = rng.choice(list(ew.FORMATS[len(kept)])) if kept else None
        r_fill = r.flat[0] if r.size else 0
        r_typ = (ew.array_type(kept, t, r_fmt, len(kept), r_fill) if kept
                 else "!sparse_array.array<i64, #sparse_array.format<[], fill = %d : i64>>"
                 % r_fill)
        v.lines += [
            "  %%m_%s = sparse_array.map @%s(%%a_%s, %%b_%s) : (%s, %s) -> %s" % (
                tag, f, tag, tag, ta, tb, map_typ),
            "  %%s_%s = sparse_array.reduce @%s %%m_%s dims [%s] : %s -> %s" % (
                tag, fn, tag, ", ".join(map(str, dims)), map_typ, r_typ),
            "  %%r_%s = sparse_array.map @%s(%%s_%s, %%c_%s) : (%s, %s) -> %s" % (
                tag, h, tag, tag, r_typ, tc, out_typ)]
    finish(v, tag, out_typ, expected, declared, t)
    v.desc = "%s(%s over dims %s of %s(A %s %s fill %r, b %s fill %r), c%s)%s -> %s" % (
        h, fn, dims, f, fa, shape, fill_a, fb, fill_b, list(c.shape),
        " as one kernel" if kernel_form else "", out_fmt)
    return v


# Semirings (add, multiply) for contractions.
SEMIRINGS = [
    ("add_i64", "mul_i64"), ("add_f64", "mul_f64"), ("min_f64", "add_f64"),
    ("max_f64", "add_f64"), ("min_i64", "add_i64"), ("max_i64", "add_i64"),
    ("or_i1", "and_i1"), ("xor_i1", "and_i1"), ("and_i64", "or_i64"),
    # Multiplies whose bodies call other functions at their top.
    ("add_f64", "addmul_f64"), ("max_i64", "twice_max_i64"), ("and_i1", "or_via_xor_i1"),
]


# The zero of semirings that have one exactly (add's identity, mul's
# annihilator).
ZEROS = {("add_i64", "mul_i64"): 0, ("or_i1", "and_i1"): False,
         ("xor_i1", "and_i1"): False, ("and_i64", "or_i64"): -1,
         ("max_i64", "add_i64"): None, ("min_i64", "add_i64"): None}


# --wide: larger products (tens of rows, hundreds of columns), so that hash
# workspaces see collisions and dense ones long rows.
WIDE = False


ZERO_SEMIRINGS = [k for k, v in ZEROS.items() if v is not None]


def make_contraction(rng, tag):
    """y(i) = add_j mul(A(i, j), x(j)), or C(i, j) = add_k mul(A(i, k), B(k, j))."""
    add, mul = rng.choice(ZERO_SEMIRINGS if WIDE else SEMIRINGS)
    matmul = WIDE or rng.random() < 0.5
    r = rng.random()
    if not WIDE and r < 0.2:  # exact SpMV (below)
        add, mul, matmul = "add_f64", "mul_f64", False
    elif not WIDE and r < 0.35:  # exact SpGEMM (below)
        add, mul, matmul = "add_f64", "mul_f64", True
    t, identity = COMBINERS[add]
    # CSR x CSR -> CSR often: the row-wise (Gustavson) product's case; or
    # all CSC, the same product over columns.
    rowwise = matmul and (WIDE or rng.random() < 0.4)
    layout = rng.choice(["csr", "csc"]) if rowwise else None
    fmts2 = [layout] if rowwise else list(ew.FORMATS[2])
    # ... with the semiring's zero as both fills (the add's identity that
    # the multiply annihilates), when it has one.
    zero = ZEROS.get((add, mul)) if rowwise else None
    m, n = rng.choice([0, 1, 3, 5]), rng.choice([0, 1, 4, 6])
    if WIDE and rowwise:
        m, n = rng.choice([7, 20]), rng.choice([9, 30])
    v = ew.Variant()
    v.globals, v.lines = [], []
    # Exact SpMV (strategy signed_zero_dot) often: the exact f64 add and mul
    # over a sparse A whose fill is a signed zero and a dense x (whose
    # inf/NaN/-0.0/negative values decide the terms A does not store).
    exact_dot = (not matmul and (add, mul) == ("add_f64", "mul_f64")
                 and rng.random() < 0.7)
    if exact_dot:
        fmts2 = [f for f in ew.FORMATS[2] if f != "dense"]
        zero = rng.choice([0.0, -0.0])
    # Exact SpGEMM (sparse-array-guard-exact-products) often: both fills
    # +0.0 and stored factors, so that the guard decides.
    if matmul and not WIDE and (add, mul) == ("add_f64", "mul_f64") and rng.random() < 0.8:
        if not rowwise:
            fmts2 = [f for f in ew.FORMATS[2] if f != "dense"]
        zero = 0.0
    fa, fill_a, A, ta = random_operand(rng, v, "%a_" + tag, t, [m, n], fmts2, zero)
    if matmul:
        p_ = rng.choice([0, 1, 3, 4])
        if WIDE and rowwise:
            p_ = rng.choice([60, 150])
        fb, fill_b, B, tb = random_operand(rng, v, "%b_" + tag, t, [n, p_], fmts2, zero)
        out_shape = [m, p_]
    else:
        fb, fill_b, B, tb = random_operand(rng, v, "%b_" + tag, t, [n],
                                           ["dense"] if exact_dot else list(ew.FORMATS[1]))
        out_shape = [m]
    f = ew.FUNCS[mul][2]
    with np.errstate(all="ignore"):
        prod_fill = np.asarray(f(np.array(fill_a, ew.NP_TYPES[t]),
                                 np.array(fill_b, ew.NP_TYPES[t])), ew.NP_TYPES[t])
    declared = other_fill(rng, t, fold(add, t, [prod_fill] * n, identity, prod_fill)[()])
    expected = np.empty(out_shape, ew.NP_TYPES[t])
    with np.errstate(all="ignore"):
        for idx in np.ndindex(*out_shape):
            if matmul:
                terms = [f(A[idx[0], k], B[k, idx[1]]) for k in range(n)]
            else:
                terms = [f(A[idx[0], k], B[k]) for k in range(n)]
            expected[idx] = fold(add, t, terms, identity, prod_fill)
    # Masks (mxv): keep where the Boolean mask is true, or, complemented,
    # where it is not (GraphBLAS's mask(¬m, A ⊕.⊗ x), BFS pull); value
    # masks: a stored false does not mask. The masking function states its
    # algebra for mask fill false and value fill `declared`.
    mask = None
    if (not matmul or rowwise) and rng.random() < 0.5:
        mask = rng.choice(["keep_if", "keep_unless"])
        if matmul:  # C<M> = A B and C<¬M> = A B, the mask stored by rows
            fm, fill_m, M, tm = random_operand(rng, v, "%m_" + tag, "i1", out_shape,
                                               [layout], False)
        else:
            fm, fill_m, M, tm = random_operand(rng, v, "%m_" + tag, "i1", [m],
                                               list(ew.FORMATS[1]))
        keep = M if mask == "keep_if" else ~M
        expected = np.where(keep, expected, np.array(declared, ew.NP_TYPES[t]))
    out_fmt = layout if rowwise else rng.choice(list(ew.FORMATS[len(out_shape)]))
    out_typ = ew.array_type(out_shape, t, out_fmt, len(out_shape), declared)
    ins, types_ = "%%a_%s, %%b_%s" % (tag, tag), "%s, %s" % (ta, tb)
    if mask:
        v.globals.append(mask_function(mask, tag, t, declared))
        ins, types_ = ins + ", %%m_%s" % tag, types_ + ", " + tm
    # Index variables: the result's, then the reduced k; B and the mask
    # are read at the result's second index (matrices) or k / i (vectors).
    res_idx = "%i, %j" if matmul else "%i"
    b_idx = "%k, %j" if matmul else "%k"
    body = ["^bb0(" + ", ".join(x + ": index" for x in res_idx.split(", ")) +
            ", %k: index, %A: TA, %B: TB" + (", %M: TM" if mask else "") + "):",
            "  %x = sparse_array.access %A[%i, %k] : TA",
            "  %y = sparse_array.access %B[" + b_idx + "] : TB",
            "  %p = sparse_array.apply @MUL(%x, %y) : (T, T) -> T",
            "  %s = sparse_array.reduce_over [%k] %p with @ADD : T"]
    if mask:
        body += ["  %mi = sparse_array.access %M[" + res_idx + "] : TM",
                 "  %s2 = sparse_array.apply @MASK(%mi, %s) : (i1, T) -> T"]
    v.lines.append("  %%r_%s = sparse_array.kernel ins(%s : %s) -> %s {" % (tag, ins, types_, out_typ))
    result = "%s2" if mask else "%s"
    for line in body + ["  sparse_array.yield " + result + " : T", "}"]:
        line = line.replace("TA", ta).replace("TB", tb).replace("MUL", mul).replace("ADD", add)
        if mask:
            line = line.replace("TM", tm).replace("MASK", "%s_%s" % (mask, tag))
        line = line.replace("(T, T) -> T", "(%s, %s) -> %s" % (t, t, t))
        line = line.replace("(i1, T) -> T", "(i1, %s) -> %s" % (t, t)).replace(": T", ": " + t)
        v.lines.append("  " + line)
    finish(v, tag, out_typ, expected, declared, t)
    v.desc = "%s.%s %s%s: A %s %s fill %r, B %s %s fill %r -> %s" % (
        add, mul, "mxm" if matmul else "mxv", " " + mask if mask else "", fa, [m, n], fill_a,
        fb, list(B.shape), fill_b, out_fmt)
    return v


def make_vxm(rng, tag):
    """y(j) = add_k mul(x(k), B(k, j)), optionally masked by m(j): a
    frontier scattering out-edges (BFS push); with a compressed x, CSR B
    and compressed y and mask, the row-wise product's one-row case."""
    add, mul = rng.choice(ZERO_SEMIRINGS if WIDE else SEMIRINGS)
    t, identity = COMBINERS[add]
    rowwise = WIDE or rng.random() < 0.5
    zero = ZEROS.get((add, mul)) if rowwise else None
    n, p_ = rng.choice([0, 1, 4, 6]), rng.choice([0, 1, 3, 5])
    if WIDE and rowwise:
        n, p_ = rng.choice([10, 40]), rng.choice([60, 150])
    v = ew.Variant()
    v.globals, v.lines = [], []
    fx, fill_x, X, tx = random_operand(
        rng, v, "%x_" + tag, t, [n], ["sparse"] if rowwise else list(ew.FORMATS[1]), zero)
    fb, fill_b, B, tb = random_operand(
        rng, v, "%b_" + tag, t, [n, p_], ["csr"] if rowwise else list(ew.FORMATS[2]), zero)
    f = ew.FUNCS[mul][2]
    with np.errstate(all="ignore"):
        prod_fill = np.asarray(f(np.array(fill_x, ew.NP_TYPES[t]),
                                 np.array(fill_b, ew.NP_TYPES[t])), ew.NP_TYPES[t])
        declared = other_fill(rng, t,
                              fold(add, t, [prod_fill] * n, identity, prod_fill)[()])
        expected = np.empty([p_], ew.NP_TYPES[t])
        for j in range(p_):
            expected[j] = fold(add, t, [f(X[k], B[k, j]) for k in range(n)],
                               identity, prod_fill)
    mask = rng.choice([None, "keep_if", "keep_unless"])
    ins, types_ = "%%x_%s, %%b_%s" % (tag, tag), "%s, %s" % (tx, tb)
    body = ["^bb0(%j: index, %k: index, %X: " + tx + ", %B: " + tb +
            (", %M: MT" if mask else "") + "):",
            "  %x = sparse_array.access %X[%k] : " + tx,
            "  %y = sparse_array.access %B[%k, %j] : " + tb,
            "  %%p = sparse_array.apply @%s(%%x, %%y) : (%s, %s) -> %s" % (mul, t, t, t),
            "  %%s = sparse_array.reduce_over [%%k] %%p with @%s : %s" % (add, t)]
    result = "%s"
    if mask:
        fm, fill_m, M, tm = random_operand(
            rng, v, "%m_" + tag, "i1", [p_], ["sparse"] if rowwise else list(ew.FORMATS[1]),
            False)
        keep = M if mask == "keep_if" else ~M
        expected = np.where(keep, expected, np.array(declared, ew.NP_TYPES[t]))
        v.globals.append(mask_function(mask, tag, t, declared))
        ins, types_ = ins + ", %%m_%s" % tag, types_ + ", " + tm
        body = [line.replace("MT", tm) for line in body]
        body += ["  %mi = sparse_array.access %M[%j] : " + tm,
                 "  %%s2 = sparse_array.apply @%s_%s(%%mi, %%s) : (i1, %s) -> %s" % (mask, tag, t, t)]
        result = "%s2"
    out_fmt = "sparse" if rowwise else rng.choice(list(ew.FORMATS[1]))
    out_typ = ew.array_type([p_], t, out_fmt, 1, declared)
    v.lines.append("  %%r_%s = sparse_array.kernel ins(%s : %s) -> %s {" % (tag, ins, types_, out_typ))
    for line in body + ["  sparse_array.yield %s : %s" % (result, t), "}"]:
        v.lines.append("  " + line)
    finish(v, tag, out_typ, expected, declared, t)
    v.desc = "%s.%s vxm%s: x %s %d fill %r, B %s %s fill %r -> %s" % (
        add, mul, " " + mask if mask else "", fx, n, fill_x, fb, [n, p_], fill_b, out_fmt)
    return v


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sa-run", required=True)
    p.add_argument("--stdlib", required=True)
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--batch", type=int, default=25)
    p.add_argument("--keep", default="",
                   help="write the programs to this directory and keep them")
    p.add_argument("--wide", action="store_true",
                   help="larger row-wise products (hash collisions, long rows)")
    p.add_argument("--workspace", default="auto",
                   help="workspace of row-wise products (sa-run --workspace)")
    p.add_argument("--views", type=float, default=0.0,
                   help="probability that an operand is a shape operator's "
                        "view of another array (fused into the reduction)")
    ew.add_run_arguments(p)
    args = p.parse_args()
    global VIEWS, VIEW_RNG
    VIEWS = args.views
    VIEW_RNG = random.Random(args.seed * 104729 + 5) if VIEWS > 0 else None
    # Random options draw the workspace too.
    args.sa_run_flags = [] if args.random_options else ["--workspace=" + args.workspace]
    global WIDE
    WIDE = args.wide
    with open(args.stdlib) as f:
        stdlib_text = f.read() + NONASSOCIATIVE_TEXT + TRAPPING_TEXT
    rng = random.Random(args.seed)
    option_rng = random.Random(args.seed * 7919 + 2)
    def pick():
        r = rng.random()
        if WIDE:
            return make_contraction if r < 0.5 else make_vxm
        return (make_variant if r < 0.3 else make_broadcast_reduction if r < 0.42
                else make_reduce_then_trap if r < 0.5
                else make_contraction if r < 0.82 else make_vxm)
    variants = [pick()(rng, "v%d" % i) for i in range(args.count)]
    for v in variants:
        if getattr(v, "views", None):
            v.desc += " (operands: %s)" % ", ".join(v.views)
    failures = []
    for start in range(0, len(variants), args.batch):
        failures += ew.run_variants(args, "batch %d" % (start // args.batch),
                                    variants[start:start + args.batch], stdlib_text,
                                    option_rng)
    for f in failures:
        print("FAIL " + f)
    print("%d of %d variants passed" % (len(variants) - len(failures), len(variants)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
