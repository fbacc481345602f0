#!/usr/bin/env python3
"""Element-wise sparse array programs, executed and checked entry by entry.

Each case is an expression of sparse_array.map calls over inputs of given
element types and fill values. For every variant (a choice of storage
formats for the inputs and the result, and random data), the harness
writes a program with the inputs as constants, runs it with sa-run, parses
the printed result and compares every entry and the fill value with the
same expression evaluated densely by numpy (the independent reference).
Entries of the data include the fill values themselves, NaN, +-inf and
-0.0, so explicitly stored fills are exercised as well.

    elementwise.py --sa-run BIN --stdlib std.mlir --cases all
    elementwise.py --sa-run BIN --stdlib std.mlir --fuzz 300 --seed 1
"""

import argparse
import ctypes
import ctypes.util
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

# ---------------------------------------------------------------------------
# Functions: MLIR name, argument and result types, numpy reference.
# ---------------------------------------------------------------------------

def _minmax(a, b, is_min):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    r = np.minimum(a, b) if is_min else np.maximum(a, b)
    # arith.minimumf/maximumf: NaN wins; -0.0 < 0.0.
    both_zero = (a == 0) & (b == 0)
    neg = np.signbit(a) | np.signbit(b) if is_min else np.signbit(a) & np.signbit(b)
    r = np.where(both_zero, np.where(neg, -0.0, 0.0), r)
    return np.where(np.isnan(a) | np.isnan(b), np.nan, r)


def _right_shift(x, s):
    x = np.asarray(x, dtype=np.int64)
    s = np.asarray(s, dtype=np.int64)
    in_range = (s >= 0) & (s < 64)
    return np.where(in_range, x >> np.where(in_range, s, 0), x >> 63)


def _div_trunc(a, b):
    out = np.zeros(np.broadcast(a, b).shape, dtype=np.int64)
    a, b = np.broadcast_arrays(np.asarray(a, np.int64), np.asarray(b, np.int64))
    for idx in np.ndindex(out.shape):
        x, y = int(a[idx]), int(b[idx])
        q = abs(x) // abs(y)
        out[idx] = q if (x >= 0) == (y >= 0) else -q
    return out


# numpy's float64 power may use a vectorized approximation that differs from
# the C library's pow by an ulp; the generated code calls the C library's,
# which is correctly rounded, so the reference calls it too.
_LIBM = ctypes.CDLL(ctypes.util.find_library("m"))
_LIBM.pow.restype = ctypes.c_double
_LIBM.pow.argtypes = [ctypes.c_double, ctypes.c_double]
_pow = np.frompyfunc(lambda a, b: _LIBM.pow(float(a), float(b)), 2, 1)


def _not(x):
    return np.where(np.asarray(x) == 0, 1.0, 0.0)


def _ldexp(x, e):
    with np.errstate(all="ignore"):
        return np.ldexp(np.asarray(x, np.float64), np.asarray(e, np.int32))


FUNCS = {
    "xor_i1": (["i1", "i1"], "i1", np.logical_xor),
    "and_i1": (["i1", "i1"], "i1", np.logical_and),
    "or_i1": (["i1", "i1"], "i1", np.logical_or),
    "add_f64": (["f64", "f64"], "f64", np.add),
    "sub_f64": (["f64", "f64"], "f64", np.subtract),
    "mul_f64": (["f64", "f64"], "f64", np.multiply),
    "div_f64": (["f64", "f64"], "f64", np.divide),
    "pow_f64": (["f64", "f64"], "f64", lambda a, b: np.asarray(_pow(a, b), np.float64)),
    "min_f64": (["f64", "f64"], "f64", lambda a, b: _minmax(a, b, True)),
    "max_f64": (["f64", "f64"], "f64", lambda a, b: _minmax(a, b, False)),
    "ldexp_f64": (["f64", "i32"], "f64", _ldexp),
    "not_f64": (["f64"], "f64", _not),
    "add_i64": (["i64", "i64"], "i64", np.add),
    "mul_i64": (["i64", "i64"], "i64", np.multiply),
    "and_i64": (["i64", "i64"], "i64", np.bitwise_and),
    "or_i64": (["i64", "i64"], "i64", np.bitwise_or),
    "xor_i64": (["i64", "i64"], "i64", np.bitwise_xor),
    "min_i64": (["i64", "i64"], "i64", np.minimum),
    "max_i64": (["i64", "i64"], "i64", np.maximum),
    "gcd_i64": (["i64", "i64"], "i64", np.gcd),
    "right_shift_i64": (["i64", "i64"], "i64", _right_shift),
    "div_i64": (["i64", "i64"], "i64", _div_trunc),
    # Calls at the top of function bodies (EXTRA_FUNCS).
    "addmul_f64": (["f64", "f64"], "f64", lambda x, y: (x + y) * x),
    "twice_max_i64": (["i64", "i64"], "i64", lambda x, y: 2 * np.maximum(x, y)),
    "or_via_xor_i1": (["i1", "i1"], "i1", np.logical_or),
}

EXTRA_FUNCS = """
sparse_array.func @not_f64(%x: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %isZero = arith.cmpf oeq, %x, %zero : f64
  %r = arith.select %isZero, %one, %zero : f64
  sparse_array.yield %r : f64
}
sparse_array.func @addmul_f64(%x: f64, %y: f64) -> f64 {
  %s = sparse_array.apply @add_f64(%x, %y) : (f64, f64) -> f64
  %p = sparse_array.apply @mul_f64(%s, %x) : (f64, f64) -> f64
  sparse_array.yield %p : f64
}
sparse_array.func @twice_max_i64(%x: i64, %y: i64) -> i64 {
  %m = sparse_array.apply @max_i64(%x, %y) : (i64, i64) -> i64
  %r = sparse_array.apply @add_i64(%m, %m) : (i64, i64) -> i64
  sparse_array.yield %r : i64
}
sparse_array.func @or_via_xor_i1(%x: i1, %y: i1) -> i1 {
  %a = sparse_array.apply @xor_i1(%x, %y) : (i1, i1) -> i1
  %r = sparse_array.apply @or_i1(%a, %x) : (i1, i1) -> i1
  sparse_array.yield %r : i1
}
"""

NP_TYPES = {"f64": np.float64, "i64": np.int64, "i32": np.int32, "i1": np.bool_}

# ---------------------------------------------------------------------------
# Formats
# ---------------------------------------------------------------------------

# Level kinds and order of each sparse format, for building buffers here.
LEVELS = {
    "sparse": (["compressed"], [0]),
    "usparse": (["compressed(nonordered)"], [0]),
    "ucsr": (["dense", "compressed(nonordered)"], [0, 1]),
    "dcsc": (["compressed", "compressed"], [1, 0]),
    "udcc": (["dense", "compressed", "compressed(nonordered)"], [0, 1, 2]),
    "cdc_p": (["compressed", "dense", "compressed"], [1, 0, 2]),
    "csf_p": (["compressed"] * 3, [2, 0, 1]),
    "csr": (["dense", "compressed"], [0, 1]),
    "csc": (["dense", "compressed"], [1, 0]),
    "dcsr": (["compressed", "compressed"], [0, 1]),
    "coo2": (["compressed(nonunique)", "singleton"], [0, 1]),
    "cd": (["compressed", "dense"], [0, 1]),
    "cdc": (["compressed", "dense", "compressed"], [0, 1, 2]),
    "csf": (["compressed"] * 3, [0, 1, 2]),
    "dcc": (["dense", "compressed", "compressed"], [0, 1, 2]),
    "coo3": (["compressed(nonunique)", "singleton(nonunique)", "singleton"], [0, 1, 2]),
    "csf4": (["compressed"] * 4, [0, 1, 2, 3]),
    "dcdc": (["dense", "compressed", "dense", "compressed"], [0, 1, 2, 3]),
    "coo4": (["compressed(nonunique)", "singleton(nonunique)",
              "singleton(nonunique)", "singleton"], [0, 1, 2, 3]),
    "csf4_p": (["dense", "compressed", "compressed", "compressed"], [3, 1, 0, 2]),
    # Column-major and permuted storage: dense, and COO by columns.
    "dense_f": (["dense", "dense"], [1, 0]),
    "cooc": (["compressed(nonunique)", "singleton"], [1, 0]),
    "dense_p": (["dense", "dense", "dense"], [2, 0, 1]),
    "coo3_p": (["compressed(nonunique)", "singleton(nonunique)", "singleton"], [1, 2, 0]),
}

FORMATS = {
    1: {"dense": None, "sparse": "[compressed]",
        "usparse": "[compressed(nonordered)]"},
    2: {"dense": None, "csr": "[dense, compressed]",
        "csc": "[dense, compressed], order = [1, 0]",
        "dcsr": "[compressed, compressed]",
        "dcsc": "[compressed, compressed], order = [1, 0]",
        "coo": "[compressed(nonunique), singleton]",
        "cd": "[compressed, dense]",
        "ucsr": "[dense, compressed(nonordered)]",
        "dense_f": "[dense, dense], order = [1, 0]",
        "cooc": "[compressed(nonunique), singleton], order = [1, 0]"},
    3: {"dense": None, "csf": "[compressed, compressed, compressed]",
        "dcc": "[dense, compressed, compressed]",
        "coo": "[compressed(nonunique), singleton(nonunique), singleton]",
        "cdc": "[compressed, dense, compressed]",
        "udcc": "[dense, compressed, compressed(nonordered)]",
        "cdc_p": "[compressed, dense, compressed], order = [1, 0, 2]",
        "csf_p": "[compressed, compressed, compressed], order = [2, 0, 1]",
        "dense_p": "[dense, dense, dense], order = [2, 0, 1]",
        "coo3_p": "[compressed(nonunique), singleton(nonunique), singleton], order = [1, 2, 0]"},
    4: {"dense": None, "csf4": "[compressed, compressed, compressed, compressed]",
        "dcdc": "[dense, compressed, dense, compressed]",
        "coo": "[compressed(nonunique), singleton(nonunique), singleton(nonunique), singleton]",
        "csf4_p": "[dense, compressed, compressed, compressed], order = [3, 1, 0, 2]"},
}


def level_key(fmt, rank):
    return {("coo", 2): "coo2", ("coo", 3): "coo3",
            ("coo", 4): "coo4"}.get((fmt, rank), fmt)


def pack(arr, stored, fmt, fill, rng=None):
    """The buffers of a sparse format in ABI order (per level positions then
    coordinates, then values), storing exactly the `stored` entries, fill
    values included: the compiler must treat a stored fill like an
    implicit one (thesis 003 §6.2.1). `nonordered` levels list each
    segment's coordinates shuffled (by `rng`). Written independently of the
    runtime's packer."""
    kinds, order = LEVELS[level_key(fmt, arr.ndim)]
    items = sorted((tuple(idx[d] for d in order), arr[idx])
                   for idx in np.ndindex(arr.shape) if stored[idx])
    segments = [items]  # the entries below each position of the last level
    buffers = []
    for level, kind in enumerate(kinds):
        size = arr.shape[order[level]]
        below = []
        if kind == "dense":
            for seg in segments:
                for c in range(size):
                    below.append([it for it in seg if it[0][level] == c])
        elif kind.startswith("compressed"):
            pos, crd = [0], []
            for seg in segments:
                if "nonunique" not in kind:
                    cs = sorted({it[0][level] for it in seg})
                    if "nonordered" in kind and rng is not None:
                        rng.shuffle(cs)
                    for c in cs:
                        crd.append(c)
                        below.append([it for it in seg if it[0][level] == c])
                else:  # non-unique: one position per entry
                    for it in seg:
                        crd.append(it[0][level])
                        below.append([it])
                pos.append(len(crd))
            buffers += [("i64", pos), ("i64", crd)]
        else:  # singleton: one child per parent position
            crd = []
            for seg in segments:
                crd.append(seg[0][0][level])
                below.append(seg)
            buffers.append(("i64", crd))
        segments = below
    buffers.append(("values", [seg[0][1] if seg else fill for seg in segments]))
    return buffers


def scalar_literal(v, t):
    if t == "f64":
        bits = np.float64(v).view(np.uint64)
        return "0x%016X" % int(bits)
    if t == "i1":
        return "true" if bool(v) else "false"
    return str(int(v))


def fill_literal(v, t):
    if t == "f64":
        f = float(v)
        if math.isnan(f):
            return "nan : f64"
        if math.isinf(f):
            return ("inf" if f > 0 else "-inf") + " : f64"
        return repr(f) + " : f64"
    if t == "i1":
        return ("1" if v else "0") + " : i1"
    return "%d : %s" % (int(v), t)


def array_type(shape, t, fmt, rank, fill, width=64):
    """The type; `width` 32 stores positions and coordinates in 32 bits."""
    dims = "x".join(str(d) for d in shape)
    levels = FORMATS[rank][fmt]
    if levels is None:
        enc = "#sparse_array.format<[%s], fill = %s>" % (
            ", ".join(["dense"] * rank), fill_literal(fill, t)) if rank else ""
    else:
        widths = ", pos_width = 32, crd_width = 32" if width == 32 else ""
        enc = "#sparse_array.format<%s%s, fill = %s>" % (levels, widths,
                                                          fill_literal(fill, t))
    if rank == 0:
        return "!sparse_array.array<%s>" % t
    return "!sparse_array.array<%sx%s, %s>" % (dims, t, enc)


def constant(arr, t, fmt, typ):
    shape = arr.shape
    tensor = "tensor<%sx%s>" % ("x".join(str(d) for d in shape), t)
    if FORMATS[arr.ndim][fmt] is None:
        if arr.size == 0:  # no entries: a splat has the right (empty) shape
            return "sparse_array.constant dense<%s> : %s : %s" % (
                scalar_literal(0, t), tensor, typ)
        nested = _nest([scalar_literal(v, t) for v in arr.reshape(-1)], shape)
        return "sparse_array.constant dense<%s> : %s : %s" % (nested, tensor, typ)
    return None


def _nest(items, shape):
    if len(shape) == 1:
        return "[" + ", ".join(items) + "]"
    step = len(items) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nest(items[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def sparse_constant(arr, stored, t, typ, fill):
    shape = arr.shape
    tensor = "tensor<%sx%s>" % ("x".join(str(d) for d in shape), t)
    coords = [idx for idx in np.ndindex(shape) if stored[idx]]
    if not coords:  # nothing stored: a splat of the fill
        return "sparse_array.constant dense<%s> : %s : %s" % (
            scalar_literal(fill, t), tensor, typ)
    cs = ", ".join("[" + ", ".join(str(c) for c in idx) + "]" for idx in coords)
    vs = ", ".join(scalar_literal(arr[idx], t) for idx in coords)
    return "sparse_array.constant sparse<[%s], [%s]> : %s : %s" % (cs, vs, tensor, typ)

# ---------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------

def random_values(rng, t, shape, fill, kind):
    n = int(np.prod(shape)) if shape else 1
    if t == "f64":
        pool = [0.5, 1.0, 2.0, -1.5, 3.0, -2.0, 0.25, 4.0]
        specials = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), fill]
        vals = [rng.choice(specials) if rng.random() < 0.15 else rng.choice(pool)
                for _ in range(n)]
    elif t == "i32":
        vals = [rng.randint(-8, 8) if rng.random() > 0.05 else rng.choice([-3000, 3000])
                for _ in range(n)]
    elif t == "i1":
        vals = [rng.random() < 0.5 for _ in range(n)]
    else:
        if kind == "shift":
            vals = [rng.choice([rng.randint(0, 8), rng.randint(60, 70), -1]) for _ in range(n)]
        elif kind == "nonzero":
            vals = [rng.choice([-1, 1]) * rng.randint(1, 9) for _ in range(n)]
        else:
            vals = [rng.randint(-12, 12) if rng.random() > 0.1 else fill for _ in range(n)]
    return np.array(vals, dtype=NP_TYPES[t]).reshape(shape)

# ---------------------------------------------------------------------------
# Programs
# ---------------------------------------------------------------------------

class Expr:
    def __init__(self, func, args):
        self.func, self.args = func, args


def result_type_of(e, input_types):
    if isinstance(e, int):
        return input_types[e]
    return FUNCS[e.func][1]


def evaluate(e, dense):
    if isinstance(e, int):
        return dense[e]
    args = [evaluate(a, dense) for a in e.args]
    with np.errstate(all="ignore"):
        r = FUNCS[e.func][2](*args)
    return np.asarray(r, dtype=NP_TYPES[FUNCS[e.func][1]])


def emit_maps(e, names, types, shape_str, rank, out_fmt, lines, counter,
              final_fill=None, width=64):
    """SSA name of e. Inner maps (fused away) get infer_fill; the final
    one declares `final_fill`, since print needs a declared type."""
    if isinstance(e, int):
        return names[e], types[e]
    args = [emit_maps(a, names, types, shape_str, rank, out_fmt, lines, counter,
                      width=width)
            for a in e.args]
    final = final_fill is not None
    rt = FUNCS[e.func][1]
    counter[0] += 1
    name = "%%m%d" % counter[0]
    fill0 = {"f64": 0.0, "i64": 0, "i1": False, "i32": 0}[rt]
    typ = array_type(shape_str.split("x"), rt, out_fmt, rank,
                     final_fill[0] if final else fill0, width)
    lines.append("  %s = sparse_array.map @%s(%s) %s: (%s) -> %s" % (
        name, e.func, ", ".join(a[0] for a in args), "" if final else "{infer_fill} ",
        ", ".join(a[1] for a in args), typ))
    return name, typ


def parse_printed(lines, pos, t):
    """One printed array starting at lines[pos]; returns (fill, entries, next)."""
    head = lines[pos]
    assert head.startswith("# fill: "), head
    fill = parse_scalar(head[len("# fill: "):], t)
    rank, nnz = (int(x) for x in lines[pos + 1].split())
    pos += 3  # header, rank/count, dimensions (an empty line at rank 0)
    entries = {}
    for k in range(nnz):
        parts = lines[pos + k].split()
        idx = tuple(int(c) - 1 for c in parts[:rank])
        entries[idx] = parse_scalar(parts[rank], t)
    return fill, entries, pos + nnz


def parse_scalar(s, t):
    s = s.strip()
    if t == "f64":
        if s.lower().startswith("0x"):  # a NaN other than nan and -nan: its bits
            return float(np.array(int(s, 16), dtype=np.uint64).view(np.float64))
        return float(s)  # "-nan" keeps its sign
    if t == "i1":
        return s in ("1", "true")
    return int(s)


def same(a, b, t):
    """Equal values; any NaN matches any NaN (LLVM leaves the sign and
    payload of computed NaNs unspecified)."""
    if t == "f64":
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def same_array(a, b, t):
    """`same` element by element over numpy arrays (a bool array)."""
    a, b = np.asarray(a), np.asarray(b)
    if t == "f64":
        a, b = a.astype(np.float64), b.astype(np.float64)
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        return np.where(nan_a | nan_b, nan_a & nan_b,
                        (a == b) & (np.signbit(a) == np.signbit(b)))
    return a == b


def same_bits(a, b, t):
    """Equal bits: what a fill is compared with (a NaN of another sign or
    payload than a NaN fill is a value of its own)."""
    if t == "f64":
        return np.float64(a).view(np.uint64) == np.float64(b).view(np.uint64)
    return a == b


class Variant:
    pass


def operand_lines(rng, v, name, key, arr, stored, t, fmt, typ, fill, width=64):
    """Defines `name` in variant v: a dense constant, a sparse constant, or
    (half of the sparse ones) an array assembled from buffers the harness
    packs itself, entries equal to the fill kept stored and `nonordered`
    levels shuffled. Returns the dense array the program sees."""
    rank = arr.ndim
    if FORMATS[rank][fmt] is None:
        v.lines.append("  %s = %s" % (name, constant(arr, t, fmt, typ)))
        return arr.copy()
    full = np.where(stored, arr, np.array(fill, dtype=NP_TYPES[t]))
    if rng.random() >= 0.5:
        v.lines.append("  %s = %s" % (name, sparse_constant(arr, stored, t, typ, fill)))
        return full
    names_b = []
    for j, (bt, data) in enumerate(pack(arr, stored, fmt, fill, rng)):
        et = t if bt == "values" else "i%d" % width
        b = "%%b_%s_%d" % (key, j)
        if data:
            g = "@g_%s_%d" % (key, j)
            lits = ", ".join(scalar_literal(x, et) for x in data)
            v.globals.append('memref.global "private" constant %s : memref<%dx%s> = dense<[%s]>'
                             % (g, len(data), et, lits))
            v.lines.append("  %s_s = memref.get_global %s : memref<%dx%s>"
                           % (b, g, len(data), et))
        else:
            v.lines.append("  %s_s = memref.alloc() : memref<0x%s>" % (b, et))
        v.lines.append("  %s = memref.cast %s_s : memref<%dx%s> to memref<?x%s>"
                       % (b, b, len(data), et, et))
        names_b.append((b, "memref<?x%s>" % et))
    dims = []
    for d, size in enumerate(arr.shape):
        v.lines.append("  %%d_%s_%d = arith.constant %d : index" % (key, d, size))
        dims.append("%%d_%s_%d" % (key, d))
    v.lines.append("  %s = sparse_array.assemble (%s), (%s) : %s -> %s" % (
        name, ", ".join(n for n, _ in names_b), ", ".join(dims),
        ", ".join(ty for _, ty in names_b), typ))
    return full


def random_width(rng):
    """Positions and coordinates in 32 bits a quarter of the time."""
    return 32 if rng.random() < 0.25 else 64


def build_program(case_vars, stdlib_text):
    body, globs = [], []
    for v in case_vars:
        body.extend(v.lines)
        globs.extend(v.globals)
    globals_text = "\n".join(globs)
    declared = "func.func private @sa_rt_print_i64"
    decls = "" if declared in stdlib_text + globals_text else STORED_COUNT_DECLS
    return stdlib_text + EXTRA_FUNCS + decls + globals_text + \
        "\nfunc.func @main() {\n" + "\n".join(body) + "\n  return\n}\n"


STORED_COUNT_DECLS = """
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_newline()
"""


def print_result(v, res, rtyp):
    """Prints `res`; a sparse result's stored values are counted too (print
    shows only entries that are not the fill: the count shows whether
    computed fills were dropped, see stored_values)."""
    v.lines.append("  sparse_array.print %s : %s" % (res, rtyp))
    v.counts_stored, v.rtype_text = "compressed" in rtyp, rtyp
    if not v.counts_stored:
        return
    t = re.search(r"x(i1|i8|i16|i32|i64|f32|f64)\b", rtyp).group(1)
    n = "%%stored_%s" % res[1:]
    v.lines += [
        "  %s_c0 = arith.constant 0 : index" % n,
        "  %s_v = sparse_array.values %s : %s -> memref<?x%s>" % (n, res, rtyp, t),
        "  %s_n = memref.dim %s_v, %s_c0 : memref<?x%s>" % (n, n, n, t),
        "  %s_i = arith.index_cast %s_n : index to i64" % (n, n),
        "  func.call @sa_rt_print_i64(%s_i) : (i64) -> ()" % n,
        "  func.call @sa_rt_print_newline() : () -> ()"]


def stored_values(expected, fill, t, rtyp, nan_stored=False):
    """The values a sparse result of type `rtyp` stores when it drops every
    entry equal to its fill (as `same` compares: -0.0 is not 0.0, any NaN
    is a NaN fill; with `nan_stored`, NaNs are stored under a NaN fill, as
    they are when their bits differ from it): one per such entry, except
    that dense levels at the end of the storage order store whole blocks
    under each stored prefix."""
    expected = np.asarray(expected)
    kept = ~same_array(expected, np.full(expected.shape, fill), t)
    if nan_stored and t == "f64":
        kept |= np.isnan(expected.astype(np.float64))
    m = re.search(r"format<\[([^\]]*)\](?:, order = \[([^\]]*)\])?", rtyp)
    levels = [x.strip().split("(")[0] for x in m.group(1).split(",")]
    rank = len(levels)
    order = [int(x) for x in m.group(2).split(",")] if m.group(2) else list(range(rank))
    kept = np.transpose(kept, order)  # axes in storage order
    trailing = 0
    while trailing < rank and levels[rank - 1 - trailing] == "dense":
        trailing += 1
    if trailing == 0:
        return int(np.count_nonzero(kept))
    block = int(np.prod(kept.shape[rank - trailing:]))
    head = kept.reshape(kept.shape[:rank - trailing] + (block,)).any(axis=-1)
    return int(np.count_nonzero(head)) * block


def reversed_slice(srng, n, src):
    """A slice with a negative step selecting n coordinates (counting down)
    of a dimension it chooses the size of (src[-1]): (its text, the Python
    slice). Starts and stops omitted, negative (from the end) or clamped."""
    step = srng.choice([-1, -1, -2, -3])
    start = -step * max(n - 1, 0) + srng.randint(0, 2)
    size = start + 1 + srng.randint(0, 2)
    src[-1] = size
    stop = start + step * n  # one past the last, counting down (may be -1)
    if n and start == size - 1 and srng.random() < 0.5:
        st = None
    elif srng.random() < 0.3:
        st = start - size
    elif n and start == size - 1 and srng.random() < 0.3:
        st = size + srng.randint(0, 3)  # clamped to size - 1
    else:
        st = start
    if stop < 0:
        # Down to coordinate 0: omitted, or far below -size (clamped).
        sp = None if srng.random() < 0.6 else -size - 1 - srng.randint(0, 3)
    elif srng.random() < 0.4:
        sp = stop - size
    else:
        sp = stop
    if not n:
        st, sp = start, start
    py = slice(st, sp, step)
    assert len(range(size)[py]) == n and (
        not n or range(size)[py][0] == start), (size, py, n, start)
    text = "%s:%s:%d" % ("" if st is None else st, "" if sp is None else sp, step)
    return text, py


def random_slice(srng, target, allow_index=True):
    """A NumPy basic index that selects an array of shape `target` from a
    larger one: (the larger shape, the spec of sparse_array.slice, the
    Python index). Strides 1-3 (also counting down: -1 to -3), starts and
    stops sometimes negative or omitted; sometimes a leading dimension taken
    by an integer (dropped)."""
    src, texts, index = [], [], []
    if allow_index and len(target) < 3 and srng.random() < 0.3:
        size = srng.randint(1, 3)
        i = srng.randrange(size)
        spell = i - size if srng.random() < 0.5 else i
        src.append(size)
        texts.append(str(spell))
        index.append(spell)
    for n in target:
        if srng.random() < 0.3:
            src.append(0)
            text, py = reversed_slice(srng, n, src)
            texts.append(text)
            index.append(py)
            continue
        step = srng.choice([1, 1, 2, 3])
        start = srng.randint(0, 2)
        stop = start + (step * (n - 1) + 1 if n else 0)
        size = stop + srng.randint(0, 2)
        # Spellings of the same slice.
        st = (None if start == 0 and srng.random() < 0.5 else
              start - size if start < size and srng.random() < 0.3 else start)
        if n and stop == size and srng.random() < 0.5:
            # Omitted, or past the end (clamped).
            sp = None if srng.random() < 0.6 else size + srng.randint(0, 3)
        elif stop < size and srng.random() < 0.4:
            sp = stop - size
        else:
            sp = stop
        stp = None if step == 1 and srng.random() < 0.5 else step
        py = slice(st, sp, stp)
        assert list(range(size))[py] == list(range(start, stop, step)), (size, py)
        text = "%s:%s" % ("" if st is None else st, "" if sp is None else sp)
        if stp is not None:
            text += ":%d" % stp
        src.append(size)
        texts.append(text)
        index.append(py)
    # Trailing dimensions taken whole may be left out.
    while texts and texts[-1] == ":" and srng.random() < 0.5:
        texts.pop()
    return src, "[%s]" % ", ".join(texts), tuple(index)


def regrouped(srng, target):
    """A shape of the target's rank and entries whose first two sizes
    regroup the target's (a, n / a for the target's p, q with a != p): its
    reshape into the target collapses and splits. None if none exists."""
    if len(target) < 2:
        return None
    n = target[0] * target[1]
    options = [a for a in range(2, n) if n % a == 0 and a != target[0]]
    if not options:
        return None
    a = srng.choice(options)
    return [a, n // a] + list(target[2:])


def random_view(srng, target):
    """An array of shape `target` as a view of another: (the other's shape,
    (op name, attribute text), numpy's view). A slice of a larger array, a
    transposition, expand_dims of a size-1 dimension, squeeze of an
    inserted one, or a reshape, collapse or split (C or F order)."""
    rank = len(target)
    kinds = ["slice", "slice"]
    if rank >= 2:
        kinds.append("transpose")
    if rank >= 2 and 1 in target:
        kinds.append("expand_dims")
    if rank <= 2:
        kinds.append("squeeze")
    kinds.append("reshape")
    if rank <= 2 and any(n >= 2 for n in target):
        kinds.append("collapse")
    if rank >= 2:
        kinds.append("split")
    kind = srng.choice(kinds)
    order = srng.choice(["C", "F"])
    order_text = ' order "F"' if order == "F" else ""
    reshaped = lambda a: np.reshape(a, target, order=order)
    if kind == "reshape":
        # Any shape with as many entries (rank 1-3), -1 sometimes.
        total = int(np.prod(target))
        big = [total]
        for _ in range(srng.randint(0, 2)):
            divisors = [f for f in range(1, big[-1] + 1) if big[-1] % f == 0]
            f = srng.choice(divisors) if divisors else 0
            big[-1:] = [f, big[-1] // f] if f else [0, srng.randint(1, 3)]
        srng.shuffle(big)
        spec = list(target)
        if spec and srng.random() < 0.5 and total > 0:
            spec[srng.randrange(len(spec))] = -1
        return big, ("reshape", " [%s]%s" % (", ".join(map(str, spec)), order_text)), \
            reshaped
    if kind == "collapse":
        # The target's dimension d is two (or three) of the source's.
        d = srng.choice([i for i, n in enumerate(target) if n >= 2])
        n = target[d]
        f = srng.choice([f for f in range(1, n + 1) if n % f == 0])
        big = list(target[:d]) + [f, n // f] + list(target[d + 1:])
        return big, ("collapse", " [%d, %d]%s" % (d, d + 1, order_text)), reshaped
    if kind == "split":
        d = srng.randrange(rank - 1)
        big = list(target[:d]) + [target[d] * target[d + 1]] + list(target[d + 2:])
        sizes = [target[d], target[d + 1]]
        if srng.random() < 0.5 and target[d] * target[d + 1] > 0:
            sizes[srng.randrange(2)] = -1
        return big, ("split", " dim %d [%d, %d]%s" % (d, sizes[0], sizes[1], order_text)), \
            reshaped
    if kind == "slice":
        big, spec, index = random_slice(srng, target, allow_index=rank < 3)
        return big, ("slice", spec), lambda a: a[index]
    if kind == "transpose":
        perm = list(range(rank))
        srng.shuffle(perm)
        big = [0] * rank
        for d, p in enumerate(perm):
            big[p] = target[d]
        return big, ("transpose", " [%s]" % ", ".join(map(str, perm))), \
            lambda a: np.transpose(a, perm)
    if kind == "expand_dims":
        at = srng.choice([d for d, n in enumerate(target) if n == 1])
        big = [n for d, n in enumerate(target) if d != at]
        return big, ("expand_dims", " [%d]" % at), lambda a: np.expand_dims(a, at)
    at = srng.randint(0, rank)
    big = list(target[:at]) + [1] + list(target[at:])
    return big, ("squeeze", " [%d]" % at), lambda a: np.squeeze(a, axis=at)


def make_variant(rng, expr, types, fills, kinds, rank, shape, in_fmts, out_fmt, tag,
                 srng=None, slices=0.0):
    """One variant; with `slices` > 0 (drawn from `srng`, so that other
    draws are unchanged) some operands are slices of larger arrays and
    sometimes the whole expression is computed larger and sliced
    (sparse_array.slice, fused into the kernels)."""
    v = Variant()
    v.tag = tag
    v.expr = expr
    v.lines = []
    v.globals = []
    names, typs, dense = [], [], []
    slicing = srng is not None and srng.random() < slices
    final_slice = None
    final_view = None
    if slicing and srng.random() < 0.4:
        big, spec, index = random_slice(srng, shape, allow_index=False)
        final_slice = (shape, spec, index, len(big))
        shape = big
    elif slicing and srng.random() < 0.3:
        # The expression computed in another shape, then transposed,
        # reshaped, collapsed or split (a shape operator of a computed
        # expression, fused into its kernel where the reads compose).
        for _ in range(10):
            big, op, view = random_view(srng, shape)
            # Often a reshape that both collapses and splits (4x6 -> 3x8:
            # the expression's product read in windows of the split).
            if op[0] == "reshape" and srng.random() < 0.5:
                big = regrouped(srng, shape) or big
            if op[0] in ("transpose", "reshape", "collapse", "split") and \
                    1 <= len(big) <= 4 and (len(big) == len(shape) or op[0] != "reshape"):
                final_view = (list(shape), op, view)
                if len(big) != len(shape):
                    # The inputs' formats at the expression's rank.
                    in_fmts = [srng.choice(list(FORMATS[len(big)])) for _ in in_fmts]
                shape = big
                break
    shape_str = "x".join(str(d) for d in shape)
    # NumPy broadcasting: sometimes inputs are size 1 along some dimensions
    # (sparse ones are then searched for coordinate 0 there).
    broadcast = rng.random() < 0.25
    full_shape = shape
    for k, t in enumerate(types):
        shape = list(full_shape)
        if broadcast and rng.random() < 0.6:
            shape = [1 if rng.random() < 0.5 else d for d in shape]
        arr = random_values(rng, t, shape, fills[k], kinds[k])
        density = rng.choice([0.0, 0.3, 0.6, 1.0]) if rng.random() < 0.3 else 0.5
        stored = np.array([rng.random() < density for _ in range(arr.size)],
                          dtype=bool).reshape(shape)
        fmt = in_fmts[k]
        width = random_width(rng)
        vrank = len(full_shape)
        typ = array_type(shape, t, fmt, vrank, fills[k], width)
        name = "%%in%d_%s" % (k, tag)
        if slicing and srng.random() < 0.15 and any(shape):
            # A concatenation of 2-3 parts along one dimension, each with its
            # own format and fill (numpy.concatenate of the dense parts).
            d = srng.choice([i for i, n in enumerate(shape) if n > 0])
            cuts = sorted(srng.randint(0, shape[d]) for _ in range(srng.randint(1, 2)))
            sizes = [b - a for a, b in zip([0] + cuts, cuts + [shape[d]])]
            pnames, ptypes, pdense = [], [], []

            def part_operand(pname, ptag, pshape, pfmt, ptyp, pfill):
                """A part's array (or a computed part's argument); sometimes
                a view of a larger array (a slice: the fused window is then
                bounded to the slice's range)."""
                if srng.random() < 0.4 and any(pshape):
                    big, op, view = random_view(srng, pshape)
                    brank = len(big)
                    bfmt = pfmt if brank == vrank and op != "transpose" else \
                        srng.choice(list(FORMATS[brank]))
                    barr = random_values(rng, t, big, pfill, kinds[k])
                    bstored = np.array([rng.random() < density for _ in range(barr.size)],
                                       dtype=bool).reshape(big)
                    btyp = array_type(big, t, bfmt, brank, pfill, width)
                    bfull = operand_lines(rng, v, pname + "_big", ptag + "b", barr, bstored,
                                          t, bfmt, btyp, pfill, width)
                    v.lines.append("  %s = sparse_array.%s %s_big%s : %s -> %s" % (
                        pname, op[0], pname, op[1], btyp, ptyp))
                    return view(bfull)
                parr = random_values(rng, t, pshape, pfill, kinds[k])
                pstored = np.array([rng.random() < density for _ in range(parr.size)],
                                   dtype=bool).reshape(pshape)
                return operand_lines(rng, v, pname, ptag, parr, pstored, t, pfmt, ptyp,
                                     pfill, width)

            for j, size in enumerate(sizes):
                pshape = list(shape)
                pshape[d] = size
                pfmt = srng.choice(list(FORMATS[vrank]))
                pname = "%s_p%d" % (name, j)
                if t in POOLS and srng.random() < 0.35:
                    # A computed part: f(x, y) of two arrays, its declared
                    # fill f(fill x, fill y) (fused into the concatenation
                    # when that is the other parts' fill).
                    f = srng.choice(POOLS[t])
                    args, adense, atypes, afills = [], [], [], []
                    for q in range(2):
                        afill = fills[k] if srng.random() < 0.6 else srng.choice(FILL_POOLS[t])
                        afmt = srng.choice(list(FORMATS[vrank]))
                        atyp = array_type(pshape, t, afmt, vrank, afill, width)
                        aname = "%s_a%d" % (pname, q)
                        adense.append(part_operand(aname, "%s_%dp%da%d" % (tag, k, j, q),
                                                   pshape, afmt, atyp, afill))
                        args.append(aname)
                        atypes.append(atyp)
                        afills.append(np.array(afill, dtype=NP_TYPES[t]))
                    e = X(f, [0, 1])
                    pdense.append(evaluate(e, adense))
                    pfill = evaluate(e, afills)[()]
                    ptyp = array_type(pshape, t, pfmt, vrank, pfill, width)
                    v.lines.append("  %s = sparse_array.map @%s(%s) : (%s) -> %s" % (
                        pname, f, ", ".join(args), ", ".join(atypes), ptyp))
                else:
                    pfill = fills[k] if srng.random() < 0.6 else srng.choice(FILL_POOLS[t])
                    ptyp = array_type(pshape, t, pfmt, vrank, pfill, width)
                    pdense.append(part_operand(pname, "%s_%dp%d" % (tag, k, j),
                                               pshape, pfmt, ptyp, pfill))
                pnames.append(pname)
                ptypes.append(ptyp)
            v.lines.append("  %s = sparse_array.concat %s dim %d : %s -> %s" % (
                name, ", ".join(pnames), d, ", ".join(ptypes), typ))
            names.append(name)
            typs.append(typ)
            dense.append(np.concatenate(pdense, axis=d))
            continue
        if slicing and srng.random() < 0.5:
            # A view of another array: a slice of a larger one, a
            # transposition, new or removed size-1 dimensions (its own
            # format, maybe another rank).
            big, op, view = random_view(srng, shape)
            brank = len(big)
            bfmt = fmt if brank == vrank and op != "transpose" else \
                srng.choice(list(FORMATS[brank]))
            barr = random_values(rng, t, big, fills[k], kinds[k])
            bstored = np.array([rng.random() < density for _ in range(barr.size)],
                               dtype=bool).reshape(big)
            btyp = array_type(big, t, bfmt, brank, fills[k], width)
            bfull = operand_lines(rng, v, name + "_big", "%s_%db" % (tag, k),
                                  barr, bstored, t, bfmt, btyp, fills[k], width)
            v.lines.append("  %s = sparse_array.%s %s_big%s : %s -> %s" % (
                name, op[0], name, op[1], btyp, typ))
            names.append(name)
            typs.append(typ)
            dense.append(view(bfull))
            continue
        full = operand_lines(rng, v, name, "%s_%d" % (tag, k),
                             arr, stored, t, fmt, typ, fills[k], width)
        names.append("%%in%d_%s" % (k, tag))
        typs.append(typ)
        dense.append(full)
    shape = full_shape
    counter = [0]
    lines = []
    fill_args = [np.array(f, dtype=NP_TYPES[t]) for f, t in zip(fills, types)]
    v.expected_fill = evaluate(expr, fill_args)
    declared = v.expected_fill[()]
    # Sometimes declare another fill: every point must then be computed.
    if rng.random() < 0.15:
        declared = {"f64": 7.0, "i64": 7, "i1": not bool(declared)}[result_type_of(expr, types)]
        v.expected_fill = np.array(declared, dtype=v.expected_fill.dtype)
    # The expression's own rank and format (another rank when a final
    # collapse or split changes it).
    erank, efmt = rank, out_fmt
    if final_view and len(full_shape) != rank:
        erank = len(full_shape)
        efmt = srng.choice(list(FORMATS[erank]))
    res, rtyp = emit_maps(expr, names, typs, shape_str, erank, efmt, lines, counter,
                          final_fill=[declared], width=random_width(rng))
    v.lines.extend(l.replace("%m", "%%m%s_" % tag) for l in lines)
    res = res.replace("%m", "%%m%s_" % tag)
    # Every map's result has the full shape, even when all its inputs are
    # size 1 along a dimension.
    v.expected = np.broadcast_to(evaluate(expr, dense), full_shape)
    if final_slice:
        # The expression computed larger, then sliced: fused, no temporary.
        small, spec, index, brank = final_slice
        styp = array_type(small, result_type_of(expr, types), out_fmt, rank,
                          declared, random_width(srng))
        v.lines.append("  %%s_%s = sparse_array.slice %s%s : %s -> %s" % (
            tag, res, spec, rtyp, styp))
        res, rtyp = "%%s_%s" % tag, styp
        v.expected = v.expected[index]
        full_shape = small
    if final_view:
        small, op, view = final_view
        vtyp = array_type(small, result_type_of(expr, types), out_fmt, rank,
                          declared, random_width(srng))
        v.lines.append("  %%v_%s = sparse_array.%s %s%s : %s -> %s" % (
            tag, op[0], res, op[1], rtyp, vtyp))
        res, rtyp = "%%v_%s" % tag, vtyp
        v.expected = view(v.expected)
        full_shape = small
    v.rtype = result_type_of(expr, types)
    print_result(v, res, rtyp)
    v.desc = "%s inputs=%s shapes=%s fills=%s -> %s %s%s" % (
        describe(expr), in_fmts, [list(d.shape) for d in dense], fills, out_fmt,
        list(full_shape), (" (%s of the result)" % final_view[1][0]) if final_view
        else " (sliced)" if slicing else "")
    return v


def describe(e):
    if isinstance(e, int):
        return "x%d" % e
    return "%s(%s)" % (e.func, ", ".join(describe(a) for a in e.args))


def check(variants, out_lines):
    failures = []
    pos = 0
    for v in variants:
        try:
            fill, entries, pos = parse_printed(out_lines, pos, v.rtype)
        except Exception as exc:  # noqa: BLE001
            failures.append("%s: cannot parse output (%s)" % (v.desc, exc))
            return failures
        problems = []
        if getattr(v, "counts_stored", False):
            stored, pos = int(out_lines[pos]), pos + 1
            want = stored_values(v.expected, v.expected_fill, v.rtype, v.rtype_text)
            # A computed NaN whose bits differ from a NaN fill's is stored:
            # its bits are LLVM's choice, so it may or may not be counted.
            nans = stored_values(v.expected, v.expected_fill, v.rtype, v.rtype_text,
                                 nan_stored=True)
            if not want <= stored <= nans:
                problems.append("stores %d values, expected %s (computed fills "
                                "are dropped)" % (
                                    stored, want if want == nans else "%d-%d" % (want, nans)))
        if not same(fill, v.expected_fill, v.rtype):
            problems.append("fill %r, expected %r" % (fill, v.expected_fill))
        for idx in np.ndindex(v.expected.shape):
            got = entries.get(idx, fill)
            if not same(got, v.expected[idx], v.rtype):
                problems.append("at %s: %r, expected %r" % (idx, got, v.expected[idx]))
        for idx, val in entries.items():
            if same_bits(val, fill, v.rtype):
                problems.append("at %s: stored fill value %r" % (idx, val))
        if problems:
            failures.append("%s: %s" % (v.desc, "; ".join(problems[:5])))
    return failures


def random_sa_run_options(rng, option_set="all"):
    """sa-run options drawn at random: optimization level, workspaces,
    gathers, OpenMP, the linear-coiteration threshold, branch-free merges
    or a branch per case, and the bounds-checked
    debug mode (a share of the runs, so an out-of-bounds access is an error
    rather than a wrong value). `base` leaves out options older builds do
    not have (to run the harness against an earlier commit)."""
    opts = ["-O%d" % rng.choice([0, 1, 2, 3, 3]),
            "--workspace=" + rng.choice(["auto", "dense", "hash"]),
            "--vector-gathers=" + rng.choice(["auto", "on", "off"])]
    if rng.random() < 0.3:
        opts.append("--disable-openmp")
    if option_set == "all":
        opts.append("--linear-threshold=%d" % rng.choice([2, 3, 4, 5, 5, 6]))
        if rng.random() < 0.3:
            opts.append("--branchless-merge=false")
        if rng.random() < 0.3:
            opts.append("--bounds-checks")
        if rng.random() < 0.3:
            # A work threshold the fuzzers' small arrays straddle: kernels
            # parallel or sequential by their inputs' entries at run time
            # (a sparse result's two versions, VersionByWork.cpp).
            opts.append("--parallel-min-work=%d" % rng.choice([4, 16, 64]))
    return opts


def add_run_arguments(p):
    """Options of the harnesses' sa-run runs (shared with reductions.py)."""
    p.add_argument("--random-options", action="store_true",
                   help="draw sa-run options at random per batch")
    p.add_argument("--options-set", default="all", choices=["all", "base"])
    p.add_argument("--timeout", type=float, default=300,
                   help="watchdog: a batch running longer is a hang")
    p.add_argument("--compile-budget", type=float, default=0,
                   help="a batch taking longer (seconds) fails: compile-time "
                        "blow-up (0: no budget)")
    p.add_argument("--threads", default="0",
                   help="OpenMP thread counts, comma-separated (e.g. 1,2,4), "
                        "with every kernel the plan allows run in parallel "
                        "however small; each count's output is checked and "
                        "all must be alike bit for bit (0: sa-run's defaults)")


def thread_counts(args):
    return [int(t) for t in str(getattr(args, "threads", "0")).split(",")]


def thread_flags(threads, extra=()):
    """sa-run flags for `threads` threads, and parallel loops from 2
    iterations and any work on (the fuzzers' arrays are small) unless the
    `extra` options draw a work threshold."""
    if not threads:
        return []
    flags = ["--num-threads=%d" % threads, "--parallel-min-extent=2"]
    if not any(o.startswith("--parallel-min-work") for o in extra):
        flags.append("--parallel-min-work=1")
    return flags


def report(failures, total):
    """Prints each failure and the count passed; the exit code."""
    for f in failures:
        print("FAIL", f)
    print("%d of %d variants passed" % (total - len(failures), total))
    return 1 if failures else 0


def shape_fuzz_arguments(p):
    """The options of the harnesses built on fuzz_variants (moves.py,
    extract.py)."""
    p.add_argument("--sa-run", required=True)
    p.add_argument("--stdlib", required=True)
    p.add_argument("--fuzz", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--batch", type=int, default=25)
    p.add_argument("--keep", default="")
    add_run_arguments(p)


def fuzz_variants(args, stdlib_text, make):
    """Runs args.fuzz variants make(rng, srng, tag) in batches; srng draws
    what later options added, so that older draws stay unchanged. Returns
    the exit code (report)."""
    rng = random.Random(args.seed)
    srng = random.Random(args.seed * 31 + 7)
    option_rng = random.Random(args.seed * 7919 + 1)
    failures, total, batch = [], 0, []
    for i in range(args.fuzz):
        batch.append(make(rng, srng, "v%d" % i))
        if len(batch) == args.batch or i + 1 == args.fuzz:
            total += len(batch)
            failures += run_variants(args, "batch %d" % i, batch, stdlib_text, option_rng)
            batch = []
    return report(failures, total)


def run_variants(args, name, variants, stdlib_text, rng=None):
    program = build_program(variants, stdlib_text)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False,
                                     dir=args.keep or None) as f:
        f.write(program)
        path = f.name
    extra = []
    if getattr(args, "random_options", False) and rng is not None:
        extra = random_sa_run_options(rng, args.options_set)
    outputs = {}
    for threads in thread_counts(args):
        flags = (list(getattr(args, "sa_run_flags", [])) +
                 thread_flags(threads, extra) + extra)
        failures, out = run_once(args, name, path, flags, variants)
        if failures:
            return failures
        outputs[threads] = out
    # Parallel loops compute what the sequential ones do: any thread count
    # prints the same bits, but for computed NaNs (see alike_outputs).
    counts = sorted(outputs)
    for c in counts[1:]:
        differs = alike_outputs(
            [(v.desc, v.rtype, getattr(v, "counts_stored", False)) for v in variants],
            outputs[counts[0]], outputs[c])
        if differs:
            return ["%s: the output with %d threads differs from the one with %d "
                    "at %s (program %s)" % (name, c, counts[0], differs, path)]
    if not args.keep:  # --keep DIR: every program stays there (a corpus)
        os.unlink(path)
    return []


def alike_outputs(printed, out_a, out_b):
    """None if two runs printed the same bits, else the first printed array
    that differs; `printed` lists what each printed as (description, element
    type, whether a count of stored values follows). LLVM leaves the sign of a NaN computed from non-NaN operands
    unspecified: another code path (a parallel loop, a vectorized one, a
    load from a constant folded at compile time) may give -nan where one
    gives nan. So two NaN entries are alike whatever their bits, and under
    a NaN fill (where only a NaN of other bits than the fill's is stored) a
    NaN entry may be listed in one output and not in the other, and the
    counts of stored values differ by those."""
    if out_a == out_b:
        return None
    pa = pb = 0
    for desc, t, counts_stored in printed:
        try:
            fa, ea, pa = parse_printed(out_a, pa, t)
            fb, eb, pb = parse_printed(out_b, pb, t)
        except Exception:  # noqa: BLE001
            return desc
        nan_fill = t == "f64" and math.isnan(fa) and math.isnan(fb)
        loose = 0
        for idx in set(ea) | set(eb):
            a, b = ea.get(idx, fa), eb.get(idx, fb)
            if t == "f64" and math.isnan(a) and math.isnan(b):
                if nan_fill:
                    loose += (idx in ea) != (idx in eb)
                elif (idx in ea) != (idx in eb):
                    return "%s, entry %s" % (desc, idx)
            elif not same_bits(a, b, t) or (idx in ea) != (idx in eb):
                return "%s, entry %s" % (desc, idx)
        if not (same_bits(fa, fb, t) or nan_fill):
            return "%s, fill" % desc
        if counts_stored:
            sa, sb = int(out_a[pa]), int(out_b[pb])
            pa, pb = pa + 1, pb + 1
            if abs(sa - sb) > loose:
                return "%s, stored count" % desc
    return None if out_a[pa:] == out_b[pb:] else "the end"


def run_once(args, name, path, flags, variants):
    """(failures, output lines) of one sa-run of the program at `path`."""
    name = "%s [sa-run %s]" % (name, " ".join(flags))
    timeout = getattr(args, "timeout", 300)
    start = time.monotonic()
    try:
        proc = subprocess.run([args.sa_run] + flags + [path],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ["%s: sa-run did not finish in %g s (a hang or a compile-time "
                "blow-up), program kept at %s" % (name, timeout, path)], None
    elapsed = time.monotonic() - start
    budget = getattr(args, "compile_budget", 0)
    if proc.returncode < 0:
        return ["%s: sa-run crashed (signal %d), program kept at %s:\n%s" % (
            name, -proc.returncode, path, proc.stderr[-3000:])], None
    if proc.returncode != 0:
        return ["%s: sa-run failed (%d), program kept at %s:\n%s" % (
            name, proc.returncode, path, proc.stderr[-3000:])], None
    if budget and elapsed > budget:
        return ["%s: took %.1f s, over the budget of %g s (compile-time "
                "blow-up), program kept at %s" % (name, elapsed, budget, path)], None
    lines = proc.stdout.splitlines()
    failures = check(variants, lines)
    if failures:
        return ["%s (program %s)" % (f, path) for f in failures], None
    return [], lines

# ---------------------------------------------------------------------------
# The cases of the issue, and random ones
# ---------------------------------------------------------------------------

X = Expr
INF, NAN = float("inf"), float("nan")

CASES = {
    "logical_xor": (X("xor_i1", [0, 1]), ["i1", "i1"], [[False, False], [True, False]], None),
    "fused_and_of_xor": (X("and_i1", [X("xor_i1", [0, 1]), 2]), ["i1"] * 3,
                         [[False] * 3, [True, True, False]], None),
    "ldexp": (X("ldexp_f64", [0, 1]), ["f64", "i32"], [[0.0, 0], [1.0, 2]], None),
    "right_shift": (X("right_shift_i64", [0, 1]), ["i64", "i64"], [[0, 0], [-8, 1]],
                    [None, "shift"]),
    "power": (X("pow_f64", [0, 1]), ["f64", "f64"], [[0.0, 0.0], [NAN, 1.0], [2.0, -0.0]], None),
    "gcd_with_cases": (X("gcd_i64", [0, 1]), ["i64", "i64"], [[0, 0], [0, 6]], None),
    "and_of_gcd": (X("and_i64", [X("gcd_i64", [0, 1]), 2]), ["i64"] * 3,
                   [[0, 0, 0], [0, 0, -1], [4, 6, 0]], None),
    "min_max_fills": (X("max_f64", [X("min_f64", [0, 1]), 2]), ["f64"] * 3,
                      [[INF, INF, -INF], [42.0, INF, 42.0], [-INF, 42.0, INF]], None),
    "masked_power": (X("mul_f64", [X("pow_f64", [0, 1]), X("not_f64", [2])]), ["f64"] * 3,
                     [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0]], None),
    "division_annihilator_at_0": (X("div_i64", [0, 1]), ["i64", "i64"], [[0, 7], [0, -3]],
                                  [None, "nonzero"]),
    "repeated_xor": (X("xor_i64", [0, 0]), ["i64"], [[0], [5]], None),
    "product_plus_repeated": (X("add_i64", [X("mul_i64", [0, 1]), 0]), ["i64", "i64"],
                              [[0, 0], [2, 0], [0, 3]], None),
    "special_fills": (X("add_f64", [X("mul_f64", [0, 1]), 2]), ["f64"] * 3,
                      [[NAN, 1.0, -0.0], [-0.0, -0.0, -0.0], [INF, 0.0, -INF]], None),
}

POOLS = {
    "f64": ["add_f64", "sub_f64", "mul_f64", "min_f64", "max_f64", "pow_f64", "div_f64",
            "addmul_f64"],
    "i64": ["add_i64", "mul_i64", "and_i64", "or_i64", "xor_i64", "min_i64", "max_i64",
            "gcd_i64", "twice_max_i64"],
    "i1": ["and_i1", "or_i1", "xor_i1", "or_via_xor_i1"],
}

# Operations of long fused chains (unions and intersections of many inputs).
CHAIN_POOLS = {
    "f64": ["add_f64", "min_f64", "max_f64", "mul_f64"],
    "i64": ["add_i64", "or_i64", "xor_i64", "max_i64", "and_i64"],
    "i1": ["or_i1", "xor_i1", "and_i1"],
}


def random_chain(rng, t, n):
    """op(...op(op(x0, x1), x2)..., x(n-1)): one operation (a union or an
    intersection of n inputs) or a mixture."""
    one = rng.random() < 0.6
    op = rng.choice(CHAIN_POOLS[t])
    e = 0
    for k in range(1, n):
        e = X(op if one else rng.choice(CHAIN_POOLS[t]), [e, k])
    return e
FILL_POOLS = {
    "f64": [0.0, -0.0, 1.0, 42.0, INF, -INF, NAN],
    "i64": [0, 1, -1, 42],
    "i1": [False, True],
}


def random_expr(rng, t, num_inputs, depth):
    if depth == 0 or rng.random() < 0.3:
        return rng.randrange(num_inputs)
    f = rng.choice(POOLS[t])
    return X(f, [random_expr(rng, t, num_inputs, depth - 1) for _ in range(2)])


def shapes_for(rank, rng):
    if rank == 1:
        return [rng.choice([0, 1, 5, 9, 16])]
    if rank == 2:
        return [rng.choice([0, 1, 3, 5]), rng.choice([1, 4, 7])]
    if rank == 3:
        return [rng.choice([2, 3]), rng.choice([0, 1, 3]), rng.choice([2, 4])]
    return [rng.choice([1, 2]), rng.choice([0, 2, 3]), rng.choice([1, 2]),
            rng.choice([2, 3])]


def variants_for_case(rng, name, spec, per_case):
    expr, types, fill_sets, kinds = spec
    kinds = kinds or [None] * len(types)
    out = []
    n = 0
    for rank in (1, 2, 3):
        fmts = list(FORMATS[rank])
        for fills in fill_sets:
            for _ in range(per_case):
                shape = shapes_for(rank, rng)
                in_fmts = [rng.choice(fmts) for _ in types]
                out_fmt = rng.choice(fmts)
                out.append(make_variant(rng, expr, types, list(fills), kinds, rank, shape,
                                        in_fmts, out_fmt, "%s%d" % (name[:3], n)))
                n += 1
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sa-run", required=True)
    p.add_argument("--stdlib", required=True)
    p.add_argument("--cases", default="")
    p.add_argument("--per-case", type=int, default=2)
    p.add_argument("--fuzz", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--batch", type=int, default=25)
    p.add_argument("--depth", type=int, default=3, help="fuzz expression depth")
    p.add_argument("--keep", default="",
                   help="write the programs to this directory and keep them")
    p.add_argument("--chains", type=int, default=0,
                   help="variants that fuse chains of 6-12 operands")
    p.add_argument("--slices", type=float, default=0.0,
                   help="share of fuzz variants with shape operators: "
                        "operands that are slices, transpositions, "
                        "expand_dims or squeeze of other arrays; a sliced "
                        "result")
    p.add_argument("--ranks", default="1,2,3",
                   help="ranks the fuzz variants draw from (up to 4)")
    add_run_arguments(p)
    args = p.parse_args()
    args.ranks = [int(r) for r in args.ranks.split(",")]
    with open(args.stdlib) as f:
        stdlib_text = f.read()
    rng = random.Random(args.seed)
    option_rng = random.Random(args.seed * 7919 + 1)
    slice_rng = random.Random(args.seed * 104729 + 3)
    failures, total = [], 0
    names = list(CASES) if args.cases == "all" else [c for c in args.cases.split(",") if c]
    for name in names:
        vs = variants_for_case(rng, name, CASES[name], args.per_case)
        total += len(vs)
        failures += run_variants(args, name, vs, stdlib_text, option_rng)
    if args.fuzz:
        batch = []
        for i in range(args.fuzz):
            t = rng.choice(["f64", "f64", "i64", "i1"])
            num_inputs = rng.randint(1, 3)
            expr = random_expr(rng, t, num_inputs, args.depth)
            if isinstance(expr, int):
                expr = X(POOLS[t][0], [expr, (expr + 1) % num_inputs])
            rank = rng.choice(args.ranks)
            fmts = list(FORMATS[rank])
            fills = [rng.choice(FILL_POOLS[t]) for _ in range(num_inputs)]
            batch.append(make_variant(rng, expr, [t] * num_inputs, fills,
                                      [None] * num_inputs, rank, shapes_for(rank, rng),
                                      [rng.choice(fmts) for _ in range(num_inputs)],
                                      rng.choice(fmts), "f%d" % i,
                                      srng=slice_rng, slices=args.slices))
            if len(batch) == args.batch or i + 1 == args.fuzz:
                total += len(batch)
                failures += run_variants(args, "fuzz batch %d" % i, batch, stdlib_text,
                                         option_rng)
                batch = []
    if args.chains:
        batch = []
        for i in range(args.chains):
            t = rng.choice(["f64", "f64", "i64", "i1"])
            n = rng.randint(6, 12)
            rank = rng.choice([1, 2, 2])
            sparse = [f for f in FORMATS[rank] if f != "dense"]
            fmts = [rng.choice(sparse) if rng.random() < 0.85 else "dense"
                    for _ in range(n)]
            fills = [rng.choice(FILL_POOLS[t]) for _ in range(n)]
            batch.append(make_variant(rng, random_chain(rng, t, n), [t] * n, fills,
                                      [None] * n, rank, shapes_for(rank, rng), fmts,
                                      rng.choice(list(FORMATS[rank])), "c%d" % i))
            if len(batch) == max(1, args.batch // 5) or i + 1 == args.chains:
                total += len(batch)
                failures += run_variants(args, "chain batch %d" % i, batch, stdlib_text,
                                         option_rng)
                batch = []
    return report(failures, total)


if __name__ == "__main__":
    sys.exit(main())
