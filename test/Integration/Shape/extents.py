#!/usr/bin/env python3
"""Shape operators on sizes known only at run time that may not fit.

Each variant builds arrays of random static sizes, passes them through
types whose sizes are dynamic (`convert` to `?`), and applies one shape or
element-wise operator whose static parts may disagree with the sizes the
data has: a concatenation whose inputs differ in another dimension, a split
into static parts whose product is not the size, a slice reaching past the
end, a reshape into a shape of another size, a map of arrays of different
sizes, a collapse (always fits), or one of the first four added to an
array whose sizes may not be its result's, either operand first (fused). numpy decides: where it raises (or, for
a slice with a static length, returns fewer entries than the type holds),
sa-run must stop with a `sparse_array runtime error` (exit 2), never crash
or print a result; elsewhere every entry and the fill must be numpy's.
One program per variant (an error ends the program).

    extents.py --sa-run BIN --stdlib std.mlir --fuzz 300 --seed 1
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Elementwise"))
import elementwise as ew  # noqa: E402

T = "f64"
FILLS = [0.0, 0.0, 1.0, float("nan"), -0.0]


def define(rng, v, name, shape, fill, fmt=None):
    """A random array of static `shape` (in format `fmt`, else a random
    one): (its name, type, format key, dense array)."""
    rank = len(shape)
    fmt = fmt or rng.choice(list(ew.FORMATS[rank]))
    arr = ew.random_values(rng, T, shape, fill, None)
    stored = np.array([rng.random() < 0.5 for _ in range(arr.size)],
                      dtype=bool).reshape(shape)
    typ = ew.array_type(shape, T, fmt, rank, fill)
    dense = ew.operand_lines(rng, v, name + "_s", name[1:], arr, stored, T, fmt,
                             typ, fill)
    return name + "_s", typ, fmt, dense


def dynamic(v, name, typ, fmt, shape, fill, keep=()):
    """`name` converted to a type whose dimensions not in `keep` are
    dynamic: (new name, new type)."""
    dims = [n if d in keep else "?" for d, n in enumerate(shape)]
    dtyp = ew.array_type(dims, T, fmt, len(shape), fill)
    v.lines.append("  %s_d = sparse_array.convert %s : %s to %s" % (name, name, typ, dtyp))
    return name + "_d", dtyp


def numpy_or_none(compute):
    """numpy's result, or None where numpy raises (sizes that do not fit)."""
    try:
        return compute()
    except ValueError:
        return None


def perturb(rng, n):
    """n, or another size >= 2 (size 1 would broadcast in numpy)."""
    if rng.random() < 0.5:
        return n
    return max(2, n + rng.choice([-2, -1, 1, 2]))


def concat_variant(rng, v):
    rank = rng.choice([1, 2, 2, 3])
    axis = rng.randrange(rank)
    base = [rng.randint(2, 4) for _ in range(rank)]
    fill = rng.choice(FILLS)
    names, types, dense = [], [], []
    # Mostly parts stored like the result: their stored ranges are moved
    # (MoveRanges, CooRows), with no kernel to check the sizes.
    rfmt = rng.choice(list(ew.FORMATS[rank]))
    # Sometimes the sizes along the axis are known only at run time too
    # (not fused: moved ranges with run-time offsets, or the runtime's).
    dynaxis = rng.random() < 0.4
    for j in range(rng.randint(2, 3)):
        shape = [rng.randint(0, 3) if d == axis else
                 (perturb(rng, base[d]) if j else base[d]) for d in range(rank)]
        pfmt = rfmt if rng.random() < 0.7 else None
        name, typ, fmt, arr = define(rng, v, "%%p%d" % j, shape, fill, pfmt)
        name, typ = dynamic(v, name, typ, fmt, shape, fill,
                            keep=() if dynaxis else (axis,))
        names.append(name)
        types.append(typ)
        dense.append(arr)
    rdims = ["?"] * rank
    rdims[axis] = "?" if dynaxis else sum(a.shape[axis] for a in dense)
    rtyp = ew.array_type(rdims, T, rfmt, rank, fill)
    v.lines.append("  %%r = sparse_array.concat %s dim %d : %s -> %s" % (
        ", ".join(names), axis, ", ".join(types), rtyp))
    v.desc = "concat dim %d of %s -> %s" % (axis, [a.shape for a in dense], rfmt)
    return numpy_or_none(lambda: np.concatenate(dense, axis=axis)), fill, rtyp


def split_variant(rng, v):
    n = rng.randint(0, 12)
    fill = rng.choice(FILLS)
    name, typ, fmt, arr = define(rng, v, "%x", [n], fill)
    name, typ = dynamic(v, name, typ, fmt, [n], fill)
    inner = rng.randint(1, 4)
    outer = -1 if rng.random() < 0.3 else rng.randint(0, 4)
    if rng.random() < 0.5 and n % inner == 0:
        outer = n // inner  # fits
    fortran = rng.random() < 0.3
    rfmt = rng.choice(list(ew.FORMATS[2]))
    sizes = [outer, inner]
    rdims = ["?" if s < 0 else s for s in sizes]
    rtyp = ew.array_type(rdims, T, rfmt, 2, fill)
    v.lines.append("  %%r = sparse_array.split %s dim 0 [%d, %d]%s : %s -> %s" % (
        name, outer, inner, ' order "F"' if fortran else "", typ, rtyp))
    v.desc = "split of %d into %s%s -> %s" % (n, sizes, " F" if fortran else "", rfmt)
    order = "F" if fortran else "C"
    return numpy_or_none(lambda: np.reshape(arr, (outer, inner), order=order)), fill, rtyp


def slice_variant(rng, v):
    rank = rng.choice([1, 2])
    shape = [rng.randint(0, 5) for _ in range(rank)]
    fill = rng.choice(FILLS)
    name, typ, fmt, arr = define(rng, v, "%x", shape, fill)
    name, typ = dynamic(v, name, typ, fmt, shape, fill)
    lo = rng.randint(0, 4)
    hi = lo + rng.randint(0, 3)
    rfmt = rng.choice(list(ew.FORMATS[rank]))
    rdims = [hi - lo] + ["?"] * (rank - 1)
    rtyp = ew.array_type(rdims, T, rfmt, rank, fill)
    spec = ["%d:%d" % (lo, hi)] + [":"] * (rank - 1)
    v.lines.append("  %%r = sparse_array.slice %s[%s] : %s -> %s" % (
        name, ", ".join(spec), typ, rtyp))
    v.desc = "slice %d:%d of %s -> %s" % (lo, hi, shape, rfmt)
    out = arr[lo:hi]
    # numpy clamps; the type promises hi - lo entries.
    return (out if out.shape[0] == hi - lo else None), fill, rtyp


def reshape_variant(rng, v):
    rank = rng.choice([1, 2])
    shape = [rng.randint(1, 4) for _ in range(rank)]
    fill = rng.choice(FILLS)
    name, typ, fmt, arr = define(rng, v, "%x", shape, fill)
    name, typ = dynamic(v, name, typ, fmt, shape, fill)
    if rng.random() < 0.4:
        # -1 outermost in the linearization (numpy's inferred size; the
        # result's size there known at run time only): grouped from the
        # inside, collapsed and split (fused when computed); rows of k
        # entries that may not divide the size.
        order = rng.choice(["C", "F"])
        k = rng.randint(1, 4)
        target = [-1, k] if order == "C" else [k, -1]
        dims = ["?" if t < 0 else t for t in target]
        if rng.random() < 0.5:
            # Of a computed array: x + x.
            ctyp = typ
            v.lines.append("  %%xs = sparse_array.map @add_f64(%s, %s) : (%s, %s) -> %s" % (
                name, name, typ, typ, ctyp))
            name, arr = "%xs", arr + arr
        rfmt = rng.choice(list(ew.FORMATS[2]))
        rtyp = ew.array_type(dims, T, rfmt, 2, fill)
        v.lines.append('  %%r = sparse_array.reshape %s [%s] order "%s" : %s -> %s' % (
            name, ", ".join(map(str, target)), order, typ, rtyp))
        v.desc = "reshape %s into %s order %s -> %s" % (shape, target, order, rfmt)
        return numpy_or_none(lambda: np.reshape(arr, target, order=order)), fill, rtyp
    size = arr.size if rng.random() < 0.5 else arr.size + rng.choice([-1, 1, 2])
    target = [size] if rng.random() < 0.4 else \
        rng.choice([[d, size // d] for d in range(1, max(size, 1) + 1) if size % d == 0] or [[1, 0]])
    rrank = len(target)
    rfmt = rng.choice(list(ew.FORMATS[rrank]))
    rtyp = ew.array_type(target, T, rfmt, rrank, fill)
    v.lines.append("  %%r = sparse_array.reshape %s [%s] : %s -> %s" % (
        name, ", ".join(map(str, target)), typ, rtyp))
    v.desc = "reshape %s into %s -> %s" % (shape, target, rfmt)
    return numpy_or_none(lambda: np.reshape(arr, target)), fill, rtyp


def map_variant(rng, v):
    rank = rng.choice([1, 2])
    base = [rng.randint(2, 4) for _ in range(rank)]
    fill = rng.choice(FILLS)
    names, types, dense = [], [], []
    for j in range(2):
        shape = [perturb(rng, n) if j else n for n in base]
        name, typ, fmt, arr = define(rng, v, "%%a%d" % j, shape, fill)
        name, typ = dynamic(v, name, typ, fmt, shape, fill)
        names.append(name)
        types.append(typ)
        dense.append(arr)
    rfmt = rng.choice(list(ew.FORMATS[rank]))
    rfill = float(np.float64(fill) + np.float64(fill))
    rtyp = ew.array_type(["?"] * rank, T, rfmt, rank, rfill)
    v.lines.append("  %%r = sparse_array.map @add_f64(%s) : (%s) -> %s" % (
        ", ".join(names), ", ".join(types), rtyp))
    v.desc = "add of %s -> %s" % ([a.shape for a in dense], rfmt)
    if dense[0].shape != dense[1].shape:
        return None, rfill, rtyp
    return dense[0] + dense[1], rfill, rtyp


def collapse_variant(rng, v):
    shape = [rng.randint(0, 4) for _ in range(2)]
    fill = rng.choice(FILLS)
    name, typ, fmt, arr = define(rng, v, "%x", shape, fill)
    name, typ = dynamic(v, name, typ, fmt, shape, fill)
    fortran = rng.random() < 0.3
    rfmt = rng.choice(list(ew.FORMATS[1]))
    rtyp = ew.array_type(["?"], T, rfmt, 1, fill)
    v.lines.append("  %%r = sparse_array.collapse %s [0, 1]%s : %s -> %s" % (
        name, ' order "F"' if fortran else "", typ, rtyp))
    v.desc = "collapse of %s%s -> %s" % (shape, " F" if fortran else "", rfmt)
    return np.reshape(arr, -1, order="F" if fortran else "C"), fill, rtyp


def fused_variant(rng, v):
    """A concatenation, split, slice or reshape whose sizes may not fit,
    read at dynamic sizes and added to an array whose sizes may not be its
    result's, either operand first (fused into one kernel where the reads
    compose; the first operand read fixes the loops' extents the others are
    checked against)."""
    inner, fill, rtyp = rng.choice([concat_variant, split_variant, slice_variant,
                                    reshape_variant])(rng, v)
    desc = v.desc
    dtyp = all_dynamic(rtyp)
    rank = dtyp.count("?")
    # The addend: the inner result's sizes (drawn where numpy raised), one
    # of them perturbed half of the time.
    other = list(inner.shape) if inner is not None else \
        [rng.randint(2, 4) for _ in range(rank)]
    if rng.random() < 0.5:
        k = rng.randrange(rank)
        other[k] = perturb(rng, max(other[k], 2))
    name, typ, fmt, arr = define(rng, v, "%y", other, fill)
    name, typ = dynamic(v, name, typ, fmt, other, fill)
    rfill = float(np.float64(fill) + np.float64(fill))
    rfmt = rng.choice(list(ew.FORMATS[rank]))
    styp = ew.array_type(["?"] * rank, T, rfmt, rank, rfill)
    v.lines.append("  %%rd = sparse_array.convert %%r : %s to %s" % (rtyp, dtyp))
    operands = [("%rd", dtyp), (name, typ)]
    if rng.random() < 0.5:
        operands.reverse()
    v.lines.append("  %%s = sparse_array.map @add_f64(%s) : (%s) -> %s" % (
        ", ".join(o for o, _ in operands), ", ".join(t for _, t in operands), styp))
    v.result_name = "%s"
    v.desc = "(%s) + %s -> %s" % (desc, other, rfmt)
    if inner is None or list(inner.shape) != other:
        return None, rfill, styp
    with np.errstate(invalid="ignore"):
        return inner + arr, rfill, styp


def windowed_reshape_variant(rng, v):
    """(x + x).reshape(-1, k) (or [k, -1] in F order) of an r x c matrix of
    run-time rows, added to an array y, either operand first: one kernel
    reading x through the split's windows of the collapse, their count
    taken at run time from whichever operand is read first. y's rows may
    be off by a few: k dividing neither nor both of them, and the rows
    numpy would reject rounding to the right count (r x 3 into rows of 1
    against 3r + 1 rows) must stop with the extent error."""
    order = rng.choice(["C", "F"])
    r, c, k = rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4)
    fill = rng.choice(FILLS)
    shape = [r, c] if order == "C" else [c, r]
    name, typ, fmt, arr = define(rng, v, "%x", shape, fill)
    name, typ = dynamic(v, name, typ, fmt, shape, fill, keep=(1 if order == "C" else 0,))
    v.lines.append("  %%xs = sparse_array.map @add_f64(%s, %s) : (%s, %s) -> %s" % (
        name, name, typ, typ, typ))
    xs = arr + arr
    target = [-1, k] if order == "C" else [k, -1]
    dims = ["?" if t < 0 else t for t in target]
    rtyp = ew.array_type(dims, T, rng.choice(list(ew.FORMATS[2])), 2, fill)
    v.lines.append('  %%r = sparse_array.reshape %%xs [%s] order "%s" : %s -> %s' % (
        ", ".join(map(str, target)), order, typ, rtyp))
    inner = numpy_or_none(lambda: np.reshape(xs, target, order=order))
    outer = (r * c) // k if inner is None else inner.shape[0 if order == "C" else 1]
    other = [max(outer, 1) + rng.choice([0, 0, -1, 1, 2, 3]), k]
    if other[0] < 2 and other[0] != outer:
        other[0] = 2  # size 1 would broadcast in numpy
    if order == "F":
        other.reverse()
    yname, ytyp, _, yarr = define(rng, v, "%y", other, fill)
    yname, ytyp = dynamic(v, yname, ytyp, _, other, fill, keep=(1 if order == "C" else 0,))
    rfill = float(np.float64(fill) + np.float64(fill))
    styp = ew.array_type(dims, T, rng.choice(list(ew.FORMATS[2])), 2, rfill)
    operands = [("%r", rtyp), (yname, ytyp)]
    if rng.random() < 0.5:
        operands.reverse()
    v.lines.append("  %%s = sparse_array.map @add_f64(%s) : (%s) -> %s" % (
        ", ".join(o for o, _ in operands), ", ".join(t for _, t in operands), styp))
    v.result_name = "%s"
    v.desc = "%s.reshape(%s, %s) + %s, %s first" % (shape, target, order, other, operands[0][0])
    if inner is None or list(inner.shape) != other:
        return None, rfill, styp
    with np.errstate(invalid="ignore"):
        return inner + yarr, rfill, styp


def all_dynamic(typ):
    """`typ` with every dimension dynamic."""
    head, rest = typ.split("<", 1)
    dims, tail = rest.split("x" + T, 1)
    return "%s<%sx%s%s" % (head, "x".join(["?"] * len(dims.split("x"))), T, tail)


KINDS = [concat_variant, split_variant, slice_variant, reshape_variant,
         map_variant, collapse_variant, fused_variant, windowed_reshape_variant]
# --kind NAME draws one kind only.
KIND_NAMES = {k.__name__.replace("_variant", ""): k for k in KINDS}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sa-run", required=True)
    p.add_argument("--stdlib", required=True)
    p.add_argument("--fuzz", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("--kind", choices=sorted(KIND_NAMES), default=None,
                   help="draw only this kind of variant")
    args = p.parse_args()
    stdlib_text = open(args.stdlib).read()
    rng = random.Random(args.seed)
    failures, errors = [], 0
    for i in range(args.fuzz):
        v = ew.Variant()
        v.lines, v.globals = [], []
        v.result_name = "%r"
        kinds = [KIND_NAMES[args.kind]] if args.kind else KINDS
        expected, fill, rtyp = rng.choice(kinds)(rng, v)
        ew.print_result(v, v.result_name, rtyp)
        v.expected = expected
        v.expected_fill = np.array(fill, dtype=ew.NP_TYPES[T])
        v.rtype = T
        flags = ew.random_sa_run_options(rng)
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(ew.build_program([v], stdlib_text))
            path = f.name
        try:
            proc = subprocess.run([args.sa_run] + flags + [path], capture_output=True,
                                  text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            failures.append("%d %s: timed out (%s)" % (i, v.desc, path))
            continue
        where = "%d %s (sa-run %s %s)" % (i, v.desc, " ".join(flags), path)
        crashed = proc.returncode < 0 or "Stack dump" in proc.stderr
        if expected is None:
            if crashed or proc.returncode != 2 or \
                    "sparse_array runtime error" not in proc.stderr:
                failures.append("%s: expected a run-time error, got exit %d: %s%s" % (
                    where, proc.returncode, proc.stderr[-300:], proc.stdout[:200]))
                continue
            errors += 1
        elif proc.returncode != 0:
            failures.append("%s: exit %d: %s" % (where, proc.returncode, proc.stderr[-300:]))
            continue
        else:
            problems = ew.check([v], proc.stdout.splitlines())
            if problems:
                failures.append("%s: %s" % (where, "; ".join(problems)))
                continue
        os.unlink(path)
    for f in failures:
        print("FAIL " + f)
    print("%d of %d variants passed (%d stopped with the expected run-time error)" % (
        args.fuzz - len(failures), args.fuzz, errors))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
