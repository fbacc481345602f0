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
    declared = other_fill(rng, t, expected.reshape(-1)[0] if expected.size else identity)
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
        stdlib_text = f.read()
    rng = random.Random(args.seed)
    option_rng = random.Random(args.seed * 7919 + 2)
    def pick():
        r = rng.random()
        if WIDE:
            return make_contraction if r < 0.5 else make_vxm
        return (make_variant if r < 0.3 else make_broadcast_reduction if r < 0.45
                else make_contraction if r < 0.8 else make_vxm)
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
