#!/usr/bin/env python3
"""Random NumPy idioms through the package, against NumPy (issue 55).

Where fuzz_programs.py draws deep expressions, this draws the idioms users
write around them, one to four steps on random arrays: reductions by
method, np function and ufunc.reduce with axis None, an int (negative
too), a tuple in any order or () and keepdims, over every dtype (bool and
int32 included); operators with Python and NumPy scalars on either side
(reflected ones: 4 >> a, 2.0 ** a); 0-d arrays (NumPy's and the
package's) as operands, exponents and clip bounds; powers with constant
bases and exponents; shape operations (slices with any step, empty ones,
newaxis and Ellipsis, reshape, transpose, squeeze, expand_dims,
concatenate, stack), where, negative, abs, astype and clip on arrays whose
fill and stored entries are NaNs of other signs and payloads; and each
program eagerly, lazily and with lazy and eager operands mixed.

The oracle is NumPy on the dense arrays. Results must have NumPy's dtype
and shape and its values bit for bit; NaNs match any NaN, except in a
program that only moves values (shape operations, where, negative, abs,
float casts, clip by scalars), where a NaN must keep its sign and
payload. Float sums, products, min and max are the dense program's left
folds in C order (docs/python.md), so the oracle folds so too. Where
NumPy raises, the package must raise; a valid program the package refuses
is a failure unless the refusal is one docs/python.md lists (operands of
different dtypes: "convert one first").

    PYTHONPATH=build/python fuzz_idioms.py --count 500 --seed 1
"""

import argparse
import sys
import traceback

import numpy_reference  # noqa: F401  (before NumPy: see its docstring)
import numpy as np

import sparse_array as sa
from fuzz_formats import FORMATS, resolve

DTYPES = [np.float64, np.float64, np.float32, np.int64, np.int32, np.bool_]


def nan(dtype, bits):
    """A NaN of the given bits (sign and payload)."""
    it = np.uint64 if np.dtype(dtype).itemsize == 8 else np.uint32
    return np.array(bits, dtype=it).view(dtype)[()]


def nans(dtype):
    if np.dtype(dtype).itemsize == 8:
        return [nan(dtype, b) for b in (0x7FF8000000000000, 0xFFF8000000000000,
                                        0x7FF8000000000001, 0xFFF80000DEADBEEF)]
    return [nan(dtype, b) for b in (0x7FC00000, 0xFFC00000, 0x7FC00001, 0xFFC0BEEF)]


def fills(dtype):
    k = np.dtype(dtype).kind
    if k == "f":
        return [dtype(0.0), dtype(0.0), dtype(-0.0), dtype(1.0), dtype(np.inf)] + nans(dtype)
    if k == "b":
        return [False, False, True]
    return [dtype(0), dtype(0), dtype(1), dtype(-1), dtype(42)]


def random_array(rng, shape, dtype, fill):
    a = np.full(shape, fill, dtype=dtype)
    mask = rng.random(shape) < rng.choice([0.2, 0.5, 0.8])
    k = np.dtype(dtype).kind
    if k == "f":
        # 0.3 and -1.7: exponents a constant base's exp2 rewrite rounds.
        pool = [1.5, -2.25, 3.0, 0.5, -7.0, 4.0, -0.0, 0.0, np.inf, -np.inf, 1e300, 0.3, -1.7]
        pool = [dtype(v) for v in pool] + nans(dtype) + [fill]
    elif k == "b":
        pool = [True, False]
    else:
        info = np.iinfo(dtype)
        pool = [dtype(v) for v in (1, -3, 7, 2, 0, 5, -1, info.min, info.max, 63)] + [fill]
    values = np.array(pool, dtype=dtype)
    a[mask] = values[rng.integers(len(values), size=int(mask.sum()))]
    return a


class Leaf:
    def __init__(self, dense, fmt, fill):
        self.dense, self.fmt, self.fill = dense, fmt, fill

    def make(self, lazy):
        return (sa.lazy if lazy else sa.asarray)(self.dense, format=self.fmt,
                                                fill_value=self.fill)

    def desc(self):
        return "%s%s %s fill %r" % (self.dense.dtype, list(self.dense.shape), self.fmt,
                                    self.fill)


class Skip(Exception):
    pass


def left_fold(ufunc, x, axis, keepdims, dtype=None):
    """ufunc folded over `axis` left to right in C order (the package's
    documented fold); sums start from +0.0 as NumPy's do."""
    x = np.asarray(x)
    if dtype is not None:
        x = x.astype(dtype)
    nd = x.ndim
    if axis is None:
        axes = tuple(range(nd))
    else:
        axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
        if nd == 0 and axes in ((0,), (-1,)):
            axes = ()  # NumPy reduces a 0-d array over axis 0 (over nothing)
        for a in axes:
            if not -nd <= a < nd:
                raise np.AxisError(a, nd)
        axes = tuple(a % nd for a in axes)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        axes = tuple(sorted(axes))
    kept = [a for a in range(nd) if a not in axes]
    moved = np.transpose(x, kept + list(axes))
    n = int(np.prod([x.shape[a] for a in axes]))
    flat = moved.reshape([x.shape[a] for a in kept] + [n])
    if n == 0:
        if ufunc.identity is None:
            raise ValueError("zero-size array to reduction operation which has no identity")
        out = np.full(flat.shape[:-1], ufunc.identity, dtype=x.dtype)
    else:
        out = ufunc.accumulate(flat, axis=-1, dtype=x.dtype)[..., -1]
        if ufunc.identity is not None and (not axes or ufunc is np.add):
            # NumPy starts from the identity: a sum of -0.0s is +0.0; over
            # no axes every entry is identity op entry.
            out = ufunc(x.dtype.type(ufunc.identity), out)
    if keepdims:
        out = out.reshape([1 if a in axes else x.shape[a] for a in range(nd)])
    return out[()] if out.ndim == 0 else out


class Gen:
    """A program: steps on a current value (NumPy's, known while drawing, so
    each step fits its dtype and shape), with the other leaves at hand."""

    def __init__(self, rng, leaves):
        self.rng, self.leaves = rng, leaves
        self.moves = True  # whether the value so far was only moved

    def pick(self, xs):
        return xs[int(self.rng.integers(len(xs)))]

    # --- steps: (text, numpy function, package function, moves only) -----
    def reduction(self, x):
        kinds = ["sum", "prod", "min", "max", "any", "all", "count_nonzero"]
        name = self.pick(kinds)
        how = self.pick(["method", "function", "ufunc"] if name not in (
            "count_nonzero",) else ["function"])
        r = self.rng.random()
        nd = np.ndim(x)
        if how == "ufunc":
            axis = "default" if r < 0.3 else None if r < 0.4 else (
                int(self.rng.integers(-nd, nd)) if nd else 0)
        elif r < 0.2:
            axis = None
        elif r < 0.55 and nd:
            chosen = [d for d in range(nd) if self.rng.random() < 0.55]
            self.rng.shuffle(chosen)
            axis = tuple(d - nd if self.rng.random() < 0.3 else d for d in chosen)
        else:
            axis = int(self.rng.integers(-nd, nd)) if nd else None
        keep = bool(self.rng.random() < 0.3) and name != "count_nonzero"
        ufunc = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum,
                 "any": np.logical_or, "all": np.logical_and,
                 "count_nonzero": np.add}[name]
        kw = {} if axis == "default" else {"axis": axis}
        if keep:
            kw["keepdims"] = True

        def dense(v):
            if how == "method" and isinstance(v, int):
                # A whole count is a Python int (a lazy one a 0-d array).
                raise Skip("a method of a Python int")
            x = np.asarray(v)
            dt = x.dtype
            if name in ("any", "all") or (name == "count_nonzero"):
                x = x != 0
            if name in ("sum", "prod", "count_nonzero") and (x.dtype == np.bool_ or
                                                              x.dtype == np.int32):
                dt = np.int64
            elif name in ("any", "all"):
                dt = np.bool_
            if name in ("min", "max") and x.size == 0:
                # NumPy's error (or its empty result)
                return ufunc.reduce(x, **kw) if how == "ufunc" else getattr(np, name)(x, **kw)
            ax = 0 if axis == "default" else axis
            if name == "count_nonzero" and axis is None:
                return int(np.count_nonzero(x))
            return left_fold(ufunc, x, ax, keep, dt)

        def package(v):
            if how == "method":
                return getattr(v, name)(**kw)
            if how == "function":
                return getattr(np, name)(v, **kw)
            return ufunc.reduce(v, **kw)
        text = "%s(%s, %s)" % (name, how, ", ".join("%s=%r" % i for i in kw.items()))
        return text, dense, package, False

    def scalar_op(self, x):
        dt = np.asarray(x).dtype
        ops = ["+", "-", "*", "/", "//", "%", "**", "<", "==", "!="]
        if dt.kind in "iub":
            ops += ["&", "|", "^"]
        if dt.kind in "iu":
            ops += ["<<", ">>"]
        op = self.pick(ops)
        if dt.kind == "f":
            pool = [2.0, -0.0, 0.5, 3.0, np.inf, np.nan, 1.0, -1.5, 2, 0, True]
        elif dt.kind == "b":
            pool = [True, False, 1, 0]
        else:
            pool = [2, 3, 0, -1, 1, 5, 63, True]
        c = self.pick(pool)
        wrap = self.pick(["python", "python", "numpy", "0-d", "sa 0-d"])
        if wrap == "numpy":
            c = np.asarray(c).astype(dt)[()]
        elif wrap == "0-d":
            c = np.asarray(c).astype(dt)
        elif wrap == "sa 0-d":
            c = ("sa", np.asarray(c).astype(kept_dtype(dt)))
        left = self.rng.random() < 0.5
        f = OPS[op]

        def value(c, package):
            if isinstance(c, tuple):
                return sa.asarray(c[1]) if package else c[1]
            return c

        def dense(v):
            return f(value(c, False), v) if left else f(v, value(c, False))

        def package(v):
            return f(value(c, True), v) if left else f(v, value(c, True))
        shown = ("sa.asarray(%r)" % (c[1],)) if isinstance(c, tuple) else repr(c)
        text = "(%s %s x)" % (shown, op) if left else "(x %s %s)" % (op, shown)
        return text, dense, package, False

    def power(self, x):
        dt = np.asarray(x).dtype
        if dt.kind != "f":
            raise Skip("power of a non-float")
        c = self.pick([2.0 ** 53, 10.0, 2.0, 0.5, -0.5, 1024.0, 3.0, -2.0, np.e, 1e-3,
                       0.0, 1.0, -1.0, 2.0 ** -20])
        wrap = self.pick(["python", "numpy", "0-d"])
        cc = c if wrap == "python" else dt.type(c) if wrap == "numpy" else np.array(c, dt)
        form = self.pick(["c ** x", "x ** c", "np.power(c, x)", "np.power(x, c)"])
        fns = {"c ** x": lambda v: cc ** v, "x ** c": lambda v: v ** cc,
               "np.power(c, x)": lambda v: np.power(cc, v),
               "np.power(x, c)": lambda v: np.power(v, cc)}
        return form.replace("c", repr(cc)), fns[form], fns[form], False

    def binary(self, x):
        dt = np.asarray(x).dtype
        names = ["add", "subtract", "multiply", "minimum", "maximum", "equal", "less"]
        if dt.kind == "f":
            names += ["divide", "fmin", "fmax", "power", "floor_divide", "remainder", "fmod",
                      "ldexp"]
        elif dt.kind in "iu":
            names += ["floor_divide", "remainder", "bitwise_and", "bitwise_xor", "gcd",
                      "right_shift", "left_shift"]
        else:
            names += ["logical_and", "logical_or", "logical_xor"]
        name = self.pick(names)
        k = int(self.rng.integers(len(self.leaves)))
        other = self.leaves[k]
        if name == "ldexp":
            e = (np.abs(other.dense.astype(np.int64)) % 5 - 2).astype(
                self.pick([np.int32, np.int64])) if other.dense.dtype.kind != "f" else \
                np.arange(other.dense.size).reshape(other.dense.shape).astype(np.int32) % 7 - 3
            exp = Leaf(e, other.fmt, e.dtype.type(0))
            k = None
        f = getattr(np, name)

        def operand(vals, package):
            if k is None:
                return exp.make(False) if package else exp.dense
            return vals[k]

        swap = self.rng.random() < 0.3 and name != "ldexp"
        text = "%s(%s)" % (name, "x%s, x" % k if swap else "x, x%s" % k)
        return (text,
                lambda v, vals=None: f(operand(vals, False), v) if swap else f(v, operand(vals, False)),
                lambda v, vals=None: f(operand(vals, True), v) if swap else f(v, operand(vals, True)),
                False)

    def unary(self, x):
        dt = np.asarray(x).dtype
        moves = {"negative": dt.kind == "f", "absolute": dt.kind == "f", "positive": True}
        names = ["negative", "absolute", "positive", "square", "sign"]
        if dt.kind == "f":
            names += ["sqrt", "floor", "ceil", "trunc", "rint", "reciprocal", "isnan",
                      "isfinite", "logical_not"]
            if self.moves:
                # The sign of a NaN is exact only where values were moved:
                # LLVM leaves computed NaNs' signs unspecified (as C does).
                names.append("signbit")
        if dt.kind in "iub":
            names += ["invert"]
        name = self.pick(names)
        if dt.kind == "b" and name in ("negative", "sign", "square"):
            name = "invert"
        f = getattr(np, name)
        spelled = {"negative": lambda v: -v, "positive": lambda v: +v,
                   "absolute": lambda v: abs(v), "invert": lambda v: ~v}
        if name in spelled and self.rng.random() < 0.5:
            f = spelled[name]
        return "%s(x)" % name, f, f, moves.get(name, False)

    def astype(self, x):
        target = self.pick([np.float64, np.float32, np.int64, np.int32, np.bool_])
        moves = np.asarray(x).dtype.kind == "f" and np.dtype(target).kind == "f"

        def cast(v):
            if isinstance(v, np.ndarray) or np.ndim(v) == 0 and not hasattr(v, "astype"):
                return np.asarray(v).astype(target)
            return v.astype(target)
        return "astype(%s)" % np.dtype(target), cast, cast, moves

    def convert(self, x):
        """The package's own conversions of a value, lazy or eager:
        sa.asarray(x, format=...) (of a lazy expression too) and sa.lazy(x,
        dtype=...) (NumPy: astype)."""
        dt, nd = np.asarray(x).dtype, np.ndim(x)
        if self.rng.random() < 0.5:
            fmt = self.pick(FORMATS.get(nd, ["dense"]))

            def to_array(v):
                return (sa.asarray(v, format=resolve(fmt, tuple(np.shape(v))))
                        if not isinstance(v, np.ndarray) else v)
            return "sa.asarray(x, format=%r)" % fmt, lambda v: v, to_array, True
        target = np.dtype(self.pick([np.float64, np.float32, np.int64]))
        if dt.kind == "f" and target.kind != "f":
            raise Skip("float to int: NaN and inf have no int value")
        moves = dt.kind == "f" and target.kind == "f"

        def to_lazy(v):
            return sa.lazy(v, dtype=target) if not isinstance(v, np.ndarray) else v.astype(target)
        return ("sa.lazy(x, dtype=%s)" % target, lambda v: np.asarray(v).astype(target),
                to_lazy, moves)

    def clip(self, x):
        dt = np.asarray(x).dtype
        if dt.kind == "b":
            raise Skip("clip of bools")
        pool = ([dt.type(v) for v in (-1.0, 0.0, -0.0, 2.0)] + [dt.type(np.nan), None]
                if dt.kind == "f" else [dt.type(v) for v in (-1, 0, 3)] + [None])
        lo, hi = self.pick(pool), self.pick(pool)
        if lo is None and hi is None:
            hi = pool[0]
        wrap = self.pick(["scalar", "0-d", "sa 0-d"])

        def bound(b, package):
            if b is None or wrap == "scalar":
                return b
            if wrap == "sa 0-d":
                kept = np.array(b, kept_dtype(dt))
                return sa.asarray(kept) if package else kept
            return np.array(b, dt)
        return ("clip(x, %r, %r as %s)" % (lo, hi, wrap),
                lambda v: np.clip(v, bound(lo, False), bound(hi, False)),
                lambda v: np.clip(v, bound(lo, True), bound(hi, True)), True)

    def where(self, x):
        k = int(self.rng.integers(len(self.leaves)))
        other = self.pick([None, None, 0, -0.0, np.nan])
        first = bool(self.rng.random() < 0.5)
        text = ("where(x%d > 0, x, %r)" if first else "where(x%d > 0, %r, x)") % (k, other)
        return (text, lambda v, vals=None: _where(vals[k], v, other, first),
                lambda v, vals=None: _where(vals[k], v, other, first), True)

    def shape(self, x):
        nd = np.ndim(x)
        if nd == 0:
            raise Skip("shape operation of a scalar")
        op = self.pick(["slice", "slice", "T", "reshape", "expand", "squeeze", "concat",
                        "stack", "newaxis"])
        shape = np.shape(x)
        if op == "slice":
            key = []
            for n in shape:
                r = self.rng.random()
                if r < 0.15 and n:
                    key.append(int(self.rng.integers(-n, n)))
                elif r < 0.3:
                    key.append(slice(None))
                else:
                    step = self.pick([1, 2, -1, -2, 3])
                    lo = self.pick([None, 0, 1, -1, -4, n, n + 3])
                    hi = self.pick([None, 0, 2, -1, -5, n + 2])
                    key.append(slice(lo, hi, step))
            if self.rng.random() < 0.2 and len(key) > 1:
                key = [Ellipsis] + key[1:]
            key = tuple(key)
            return "x[%r]" % (key,), (lambda v: v[key]), (lambda v: v[key]), True
        if op == "newaxis":
            key = (None, Ellipsis) if self.rng.random() < 0.5 else (Ellipsis, None)
            return "x[%r]" % (key,), (lambda v: v[key]), (lambda v: v[key]), True
        if op == "T":
            return "x.T", (lambda v: v.T), (lambda v: v.T), True
        if op == "reshape":
            size = int(np.prod(shape))
            cands = [(-1,), (size,), (1, -1), (-1, 1)]
            for d in (2, 3, 4):
                if size and size % d == 0:
                    cands += [(d, -1), (-1, d)]
            new = self.pick(cands)
            order = self.pick(["C", "F"])
            return ("x.reshape(%r, order=%s)" % (new, order),
                    lambda v: v.reshape(new, order=order), lambda v: v.reshape(new, order=order),
                    True)
        if op == "expand":
            ax = int(self.rng.integers(-nd - 1, nd + 1))
            return ("expand_dims(x, %d)" % ax, lambda v: np.expand_dims(v, ax),
                    lambda v: np.expand_dims(v, ax), True)
        if op == "squeeze":
            ones = [d for d in range(nd) if shape[d] == 1]
            ax = tuple(ones) if ones and self.rng.random() < 0.5 else None
            return "squeeze(x, %r)" % (ax,), (lambda v: np.squeeze(v, ax)), \
                (lambda v: np.squeeze(v, ax)), True
        k = int(self.rng.integers(len(self.leaves)))
        axis = int(self.rng.integers(-nd, nd)) if op == "concat" else int(
            self.rng.integers(-nd - 1, nd + 1))
        f = np.concatenate if op == "concat" else np.stack
        first = self.rng.random() < 0.5
        return ("%s([x, x%d], axis=%d)" % (f.__name__, k, axis),
                lambda v, vals=None: f([v, vals[k]] if first else [vals[k], v], axis=axis),
                lambda v, vals=None: f([v, vals[k]] if first else [vals[k], v], axis=axis),
                True)


def _where(c, v, other, flag):
    cond = c > 0 if getattr(c, "dtype", None) != np.bool_ else c
    dt = v.dtype if hasattr(v, "dtype") else np.asarray(v).dtype
    y = v if other is None else np.asarray(other).astype(dt)[()]
    return np.where(cond, v, y) if flag else np.where(cond, y, v)


OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
       "/": lambda a, b: a / b, "//": lambda a, b: a // b, "%": lambda a, b: a % b,
       "**": lambda a, b: a ** b, "<": lambda a, b: a < b, "==": lambda a, b: a == b,
       "!=": lambda a, b: a != b, "&": lambda a, b: a & b, "|": lambda a, b: a | b,
       "^": lambda a, b: a ^ b, "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b}

STEPS = ["reduction", "reduction", "scalar_op", "scalar_op", "power", "binary", "unary",
         "astype", "clip", "where", "shape", "shape", "shape", "convert"]


def takes_vals(fn):
    code = getattr(fn, "__code__", None)  # a ufunc takes the value only
    return code is not None and code.co_argcount == 2


def make_program(rng):
    dtype = DTYPES[int(rng.integers(len(DTYPES)))]
    rank = int(rng.choice([0, 1, 2, 2, 3])) if rng.random() < 0.95 else 0
    base = tuple(int(rng.choice([1, 2, 3, 4])) if rng.random() < 0.9 else int(rng.choice([0, 1]))
                 for _ in range(rank))
    leaves = []
    for _ in range(int(rng.choice([1, 2, 2, 3]))):
        shape = list(base)
        if shape and rng.random() < 0.2:
            shape[int(rng.integers(rank))] = 1
        fs = fills(dtype)
        fill = fs[int(rng.integers(len(fs)))]
        fmts = FORMATS[rank]
        leaves.append(Leaf(random_array(rng, tuple(shape), dtype, fill),
                           resolve(fmts[int(rng.integers(len(fmts)))], shape), fill))
    gen = Gen(rng, leaves)
    steps = []
    x = leaves[0].dense
    vals = [l.dense for l in leaves]
    moves = True
    with np.errstate(all="ignore"):
        for _ in range(int(rng.choice([1, 2, 2, 3, 4]))):
            kind = STEPS[int(rng.integers(len(STEPS)))]
            try:
                text, dense, package, keeps = getattr(gen, kind)(x)
            except Skip:
                continue
            try:
                y = dense(x, vals) if takes_vals(dense) else dense(x)
            except Skip:
                break
            except Exception:  # noqa: BLE001 - NumPy refuses: the last step
                steps.append((text, dense, package))
                moves = moves and keeps
                break
            steps.append((text, dense, package))
            moves = gen.moves = moves and keeps
            x = y
    return leaves, steps, moves


def apply(steps, start, vals, package):
    x = start
    for _, dense, fn in steps:
        f = fn if package else dense
        x = f(x, vals) if takes_vals(f) else f(x)
    return x


def to_dense(x):
    if hasattr(x, "todense"):
        return x.todense()
    return np.asarray(x)


def compare(got, want, exact_nan):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return "shape %s, numpy %s" % (got.shape, want.shape)
    if got.dtype != want.dtype:
        return "dtype %s, numpy %s" % (got.dtype, want.dtype)
    if got.dtype.kind == "f":
        bits = np.uint64 if got.dtype.itemsize == 8 else np.uint32
        same = got.view(bits) == want.view(bits)
        if not exact_nan:
            same |= np.isnan(got) & np.isnan(want)
        bad = ~same
    else:
        bad = got != want
    if bad.any():
        if got.ndim == 0:
            return "%r, numpy %r" % (got[()], want[()])
        idx = tuple(int(i[0]) for i in np.nonzero(bad))
        g, w = got[idx], want[idx]
        if got.dtype.kind == "f":
            bits = np.uint64 if got.dtype.itemsize == 8 else np.uint32
            g, w = "%r (0x%x)" % (g, g.view(bits)), "%r (0x%x)" % (w, w.view(bits))
        return "at %s: %s, numpy %s (%d entries differ)" % (idx, g, w, int(bad.sum()))
    return None


STATS = {"compared": 0, "refused": 0, "documented": 0, "skipped": 0}
REFUSALS = (ValueError, IndexError, TypeError, sa.SparseArrayError, ZeroDivisionError)


TRACE = False
REDUCTIONS = ("sum(", "prod(", "min(", "max(", "any(", "all(", "count_nonzero(")


def narrower_after_reduction(got, want, steps):
    """Whether got has want's kind in fewer bytes and a reduction comes
    before a later step (value-based promotion of a lazy 0-d value)."""
    got, want = np.asarray(got), np.asarray(want)
    return (got.dtype.kind == want.dtype.kind and got.dtype.itemsize < want.dtype.itemsize
            and any(t.startswith(REDUCTIONS) for t, _, _ in steps[:-1]))


def kept_dtype(dt):
    """The dtype sa.asarray gives a NumPy array of dtype `dt`: the package's
    own, other integers and floats converted on the way in (docs/python.md;
    x can be a NumPy int8 where NumPy computed a step on 0-d values)."""
    dt = np.dtype(dt)
    if dt in (np.float64, np.float32, np.int64, np.int32, np.bool_):
        return dt
    return np.dtype(np.float64 if dt.kind == "f" else np.int64)


def run_program(rng, index):
    """None when it passed, else a description."""
    leaves, steps, moves = make_program(rng)
    if not steps:
        STATS["skipped"] += 1
        return None
    head = "program %d: %s on %s" % (index, " -> ".join(t for t, _, _ in steps),
                                     "; ".join(l.desc() for l in leaves))
    lazy_leaf = [bool(b) for b in rng.random(len(leaves)) < 0.5]
    if TRACE:  # a crash of the process loses what it buffered: say first
        print("running " + head, flush=True)
    with np.errstate(all="ignore"):
        try:
            want = apply(steps, leaves[0].dense, [l.dense for l in leaves], False)
        except Skip:
            STATS["skipped"] += 1
            return None
        except Exception as e:  # noqa: BLE001
            want = e
        for mode in ("eager", "lazy", "mixed"):
            flags = {"eager": [False] * len(leaves), "lazy": [True] * len(leaves),
                     "mixed": lazy_leaf}[mode]
            try:
                ops = [l.make(z) for l, z in zip(leaves, flags)]
                got = apply(steps, ops[0], ops, True)
                got = sa.compute(got) if isinstance(got, sa.Lazy) else got
                got_dense = to_dense(got)
            except REFUSALS + (np.AxisError, AttributeError) as e:
                if isinstance(want, Exception):
                    STATS["refused"] += 1
                    continue
                if isinstance(e, TypeError) and "convert" in str(e):
                    STATS["documented"] += 1  # operands of different dtypes
                    continue
                return "%s\n  %s raised %s: %s" % (head, mode, type(e).__name__, e)
            except Exception:  # noqa: BLE001 - a crash of the package
                return "%s\n  %s crashed:\n%s" % (head, mode, traceback.format_exc())
            if isinstance(want, Exception):
                if ((mode != "eager" or "sa.lazy(" in head)
                        and "negative integer powers" in str(want)):
                    # Documented: a lazy exponent's values are not known
                    # before the kernel runs (docs/python.md), also where
                    # the program itself makes one (sa.lazy of a value).
                    STATS["documented"] += 1
                    continue
                return "%s\n  %s gave a result where numpy raised %s: %s" % (
                    head, mode, type(want).__name__, want)
            problem = compare(got_dense, want, moves)
            if problem and mode != "eager" and narrower_after_reduction(got_dense, want, steps):
                # Documented: a 0-d value the lazy expression computes (a
                # reduction) counts as 0 in value-based promotion, so
                # beside an array of its kind it does not widen the result
                # as its actual value makes NumPy do (docs/python.md).
                STATS["documented"] += 1
                continue
            if problem is None and hasattr(got, "fill_value") and getattr(got, "nnz", 0) >= 0:
                d = got_dense
                if d.size and d.dtype.kind == "f":
                    bits = np.uint64 if d.dtype.itemsize == 8 else np.uint32
                    f = np.asarray(got.fill_value, dtype=d.dtype).reshape(1).view(bits)
                    differ = d.view(bits) != f
                elif d.size:
                    differ = d != np.asarray(got.fill_value, dtype=d.dtype)
                else:
                    differ = np.zeros(0, bool)
                if int(np.count_nonzero(differ)) > got.nnz:
                    problem = "%d entries differ from the fill (bitwise) but %d are stored" % (
                        int(np.count_nonzero(differ)), got.nnz)
            if problem:
                return "%s\n  %s: %s" % (head, mode, problem)
            STATS["compared"] += 1
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--trace", action="store_true",
                   help="print each program before running it")
    args = p.parse_args()
    global TRACE
    TRACE = args.trace
    rng = np.random.default_rng(args.seed)
    failed = 0
    for i in range(args.count):
        problem = run_program(rng, i)
        if problem:
            failed += 1
            print("FAIL " + problem, flush=True)
    print("%(compared)d results compared, %(refused)d refusals matched numpy's, "
          "%(documented)d documented refusals, %(skipped)d programs skipped" % STATS)
    print("%d of %d programs passed" % (args.count - failed, args.count))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
