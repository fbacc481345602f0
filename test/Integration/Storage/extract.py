#!/usr/bin/env python3
"""sparse_array.extract at every coordinate of random arrays, against numpy.

Each variant defines one array from elementwise.py's generators (every
format of ranks 1-4 incl. COO, nonordered and permuted levels, every fill
of the pools, NaN/+-inf/-0.0 values, 32-bit widths, empty dimensions, half
of the sparse ones assembled from buffers that keep entries equal to the
fill), sometimes with its sizes known only at run time, sometimes a slice
of it computed first (an extract of a kernel's result), and prints the
value `extract` reads at every coordinate, visited by scf.for loops (the
coordinates are run-time values). The reference is the dense numpy array:
a stored value where stored, the fill elsewhere, bit for bit.

    extract.py --sa-run BIN --stdlib std.mlir --fuzz 300 --seed 1
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Elementwise"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Shape"))
import elementwise as ew  # noqa: E402
import moves  # noqa: E402

PRINT_DECLS = """
func.func private @sa_rt_print_f64(f64)
"""


def print_all(v, name, typ, t, shape, tag):
    """Loops over every coordinate of `name`, printing extract's value."""
    x = "_" + tag
    rank = len(shape)
    v.lines += ["  %%z%s = arith.constant 0 : index" % x,
                "  %%o%s = arith.constant 1 : index" % x]
    ivs = []
    for d in range(rank):
        v.lines.append("  %%n%s_%d = sparse_array.dim %s[%d] : %s" % (x, d, name, d, typ))
        v.lines.append("  " * (d + 1) + "scf.for %%i%s_%d = %%z%s to %%n%s_%d step %%o%s {"
                       % (x, d, x, x, d, x))
        ivs.append("%%i%s_%d" % (x, d))
    ind = "  " * (rank + 1)
    v.lines.append("%s%%e%s = sparse_array.extract %s[%s] : %s" % (
        ind, x, name, ", ".join(ivs), typ))
    if t == "f64":
        v.lines.append("%sfunc.call @sa_rt_print_f64(%%e%s) : (f64) -> ()" % (ind, x))
    else:
        ext = "arith.extui" if t == "i1" else None
        if ext:
            v.lines.append("%s%%w%s = %s %%e%s : i1 to i64" % (ind, x, ext, x))
            val = "%w" + x
        else:
            val = "%e" + x
        v.lines.append("%sfunc.call @sa_rt_print_i64(%s) : (i64) -> ()" % (ind, val))
    v.lines.append("%sfunc.call @sa_rt_print_newline() : () -> ()" % ind)
    for d in reversed(range(rank)):
        v.lines.append("  " * (d + 1) + "}")


def extract_variant(rng, srng, tag):
    v, t, rank, fmt, fill, width = moves.new_variant(rng)
    shape = moves.random_shape(rng, rank)
    name = "%%a_%s" % tag
    typ, arr = moves.random_array(rng, v, name, tag, t, shape, fmt, fill, width)
    desc = "%s %s" % (typ, shape)
    if srng.random() < 0.25:
        # Sizes known at run time only.
        dtyp = ew.array_type(["?"] * rank, t, fmt, rank, fill, width)
        v.lines.append("  %s_dyn = sparse_array.convert %s : %s to %s" % (
            name, name, typ, dtyp))
        name, typ = name + "_dyn", dtyp
        desc += " (dynamic sizes)"
    if srng.random() < 0.25 and "?" not in typ:
        # A computed array: a slice of it in some format (a kernel).
        parts, index = [], []
        for n in arr.shape:
            lo = srng.choice([None, srng.randint(-n - 1, n + 1)])
            hi = srng.choice([None, srng.randint(-n - 1, n + 1)])
            step = srng.choice([None, 1, 2, -1, -2])
            parts.append(":".join("" if x is None else str(x) for x in (lo, hi, step)))
            index.append(slice(lo, hi, step))
        sliced = arr[tuple(index)]
        rfmt = srng.choice(list(ew.FORMATS[rank]))
        rtyp = ew.array_type(list(sliced.shape), t, rfmt, rank, fill,
                             ew.random_width(srng))
        spec = "[%s]" % ", ".join(parts)
        v.lines.append("  %s_sl = sparse_array.slice %s%s : %s -> %s" % (
            name, name, spec, typ, rtyp))
        name, typ, arr = name + "_sl", rtyp, sliced
        desc += " sliced %s -> %s" % (spec, rtyp)
    print_all(v, name, typ, t, list(arr.shape), tag)
    v.expected = arr
    v.rtype = t
    v.desc = "extract from " + desc
    return v


def check(variants, out_lines):
    failures, pos = [], 0
    for v in variants:
        problems = []
        for idx in np.ndindex(v.expected.shape):
            if pos >= len(out_lines):
                return failures + ["%s: output ends early" % v.desc]
            got = ew.parse_scalar(out_lines[pos], v.rtype)
            pos += 1
            if not ew.same(got, v.expected[idx], v.rtype):
                problems.append("at %s: %r, expected %r" % (idx, got, v.expected[idx]))
        if problems:
            failures.append("%s: %s" % (v.desc, "; ".join(problems[:5])))
    if pos != len(out_lines):
        failures.append("%d lines printed, %d expected" % (len(out_lines), pos))
    return failures


ew.check = check


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ew.shape_fuzz_arguments(p)
    args = p.parse_args()
    with open(args.stdlib) as f:
        stdlib_text = f.read() + PRINT_DECLS
    return ew.fuzz_variants(args, stdlib_text, extract_variant)


if __name__ == "__main__":
    sys.exit(main())
