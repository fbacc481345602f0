#!/usr/bin/env python3
"""Random NumPy programs through the Python package, against NumPy.

A program is an expression over two to three random arrays (shapes that
broadcast, float64, float32, int64 or int32, fills 0, -0.0, 1, 42, NaN,
±inf, every format their rank allows, stored entries including the fill
itself, NaN, ±inf and -0.0): ufuncs and operators with scalars and with
each other, reductions over any axes with keepdims, random user functions
(@sa.function, some declared commutative), basic indexing with any step,
reshape in C and F order, transpose, expand_dims/squeeze and concatenation
with another expression; at the top, sometimes a comparison (then combined
with another by logical_and/or/xor, folded by any/all) or a product with a
vector (`@`, or over min-plus or max-times). Each program runs twice — eagerly (one compiled function per
operation) and lazily (sa.lazy ... sa.compute: one fused function) — and
every entry of both results, and their fills' meaning, must be NumPy's on
the dense arrays, bit for bit (any NaN matching any NaN). Folds are left
folds in C order, as the package documents, so the oracle sums with
np.add.accumulate.

    PYTHONPATH=build/python fuzz_programs.py --count 300 --seed 1

pytest runs a fixed set (test_fuzz.py); more on demand with the command
above. Prints one line per failure and "N of M programs passed".
"""

import argparse
import itertools
import linecache
import sys
import traceback

import numpy_reference  # noqa: F401  (before NumPy: see its docstring)
import numpy as np

import sparse_array as sa
from fuzz_formats import FORMATS, resolve

FILLS_F = [0.0, 0.0, -0.0, 1.0, 42.0, np.nan, np.inf, -np.inf]
FILLS_I = [0, 0, 1, 42, -1]


def random_values(rng, shape, dtype, fill):
    a = np.full(shape, fill, dtype=dtype)
    mask = rng.random(shape) < rng.choice([0.1, 0.3, 0.6])
    n = int(mask.sum())
    if np.dtype(dtype).kind == "f":
        big = 1e300 if dtype == np.float64 else 3e38
        pool = np.array([1.5, -2.25, 3.0, 0.5, -7.0, big, -0.0, 0.0, np.nan,
                         np.inf, -np.inf, fill], dtype=dtype)
    elif dtype == np.int64:
        pool = np.array([1, -3, 7, 2**62, -(2**63), 5, 0, 2, fill],
                        dtype=np.int64)
    else:
        pool = np.array([1, -3, 7, 2**30, -(2**31), 5, 0, 2, fill],
                        dtype=np.int32)
    a[mask] = pool[rng.integers(len(pool), size=n)]
    return a


class Leaf:
    def __init__(self, dense, fmt, fill):
        self.dense, self.fmt, self.fill = dense, fmt, fill

    def desc(self):
        return "asarray(%s%s, %s, fill %r)" % (
            self.dense.dtype, list(self.dense.shape), self.fmt, self.fill)


def left_fold(ufunc, x, axis, keepdims):
    """ufunc folded over `axis` (None, int or tuple) left to right in C
    order: the dense program the package computes."""
    nd = x.ndim
    axes = tuple(range(nd)) if axis is None else (
        (axis,) if isinstance(axis, int) else tuple(axis))
    axes = tuple(sorted(a % nd for a in axes))
    kept = [a for a in range(nd) if a not in axes]
    moved = np.transpose(x, kept + list(axes))
    flat = moved.reshape([x.shape[a] for a in kept] +
                         [int(np.prod([x.shape[a] for a in axes]))])
    if flat.shape[-1] == 0:
        out = np.full(flat.shape[:-1], ufunc.identity, dtype=x.dtype)
    else:
        # (accumulate would widen int32 additions to int64 itself)
        out = ufunc.accumulate(flat, axis=-1, dtype=x.dtype)[..., -1]
        if ufunc is np.add and x.dtype.kind == "f":
            # NumPy's sums start from +0.0: a sum of -0.0s is +0.0.
            out = out + x.dtype.type(0.0)
    if keepdims:
        out = out.reshape([1 if a in axes else x.shape[a] for a in range(nd)])
    # A whole fold is a NumPy scalar, as x.sum() gives (not a 0-d array:
    # NumPy computes `** 0.5` of one as sqrt, -0.0 ** 0.5 = -0.0).
    return out[()] if out.ndim == 0 else out


class Gen:
    """Builds a program as pairs of closures: one over NumPy arrays, one
    over sparse_array operands (eager arrays or lazy expressions)."""

    def __init__(self, rng, dtype):
        self.rng, self.dtype = rng, dtype

    def choice(self, xs):
        return xs[int(self.rng.integers(len(xs)))]

    def expr(self, leaves, depth):
        """(text, numpy function, sparse_array function) of an expression
        of leaves' values; functions take the list of operands."""
        rng = self.rng
        if depth == 0 or rng.random() < 0.2:
            k = int(rng.integers(len(leaves)))
            return "x%d" % k, (lambda v, k=k: v[k]), (lambda v, k=k: v[k])
        kind = self.choice(["binary", "binary", "scalar", "unary", "reduce",
                            "shape", "shape", "user"])
        t, fn, fs = self.expr(leaves, depth - 1)
        if kind == "user" and self.dtype == np.float64:
            if self.rng.random() < 0.4:
                # A scalar argument (a constant of the function).
                c = self.choice([0.3, -0.0, np.inf, np.nan, 2.0])
                u, gn, gs = repr(c), (lambda v, c=c: c), (lambda v, c=c: c)
            else:
                u, gn, gs = self.expr(leaves, depth - 1)
            py, src, flags = self.user_function()
            try:
                compiled = sa.function(**flags)(py)
            except ValueError:
                # A declared property that does not hold: the checker's
                # refusal; the function without it.
                flags = {}
                compiled = sa.function()(py)
            vec = np.vectorize(py, otypes=[np.float64])
            return ("user(%s, %s)%s{%s}" % (t, u, flags or "", src),
                    lambda v: vec(fn(v), gn(v)), lambda v: compiled(fs(v), gs(v)))
        if kind in ("binary", "user"):
            u, gn, gs = self.expr(leaves, depth - 1)
            names = ["add", "subtract", "multiply", "minimum", "maximum", "add",
                     "multiply", "floor_divide", "remainder", "fmod"]
            if np.dtype(self.dtype).kind == "f":
                names += ["divide", "fmax", "fmin"]
            else:
                names += ["bitwise_xor", "bitwise_and"]
            name = self.choice(names)
            f = getattr(np, name)
            return ("%s(%s, %s)" % (name, t, u),
                    lambda v: f(fn(v), gn(v)), lambda v: f(fs(v), gs(v)))
        if kind == "scalar":
            c = self.choice([2, -1, 0, 3] if np.dtype(self.dtype).kind == "i"
                            else [2.0, -0.0, 0.5, np.inf, np.nan, 1.0])
            if np.dtype(self.dtype).kind == "f" and self.rng.random() < 0.15:
                return ("(%s ** %r)" % (t, c), lambda v: fn(v) ** c,
                        lambda v: fs(v) ** c)
            if self.rng.random() < 0.15:
                # Clipped by scalar bounds (one may be None).
                lo, hi = self.choice([(-1, 2), (0, None), (None, 1), (2, -1)])
                if np.dtype(self.dtype).kind == "f":
                    lo, hi = self.choice([(-0.0, 1.0), (0.0, None), (None, -0.0), (-1.5, 0.0),
                                          (-np.inf, 2.0)])
                lo = None if lo is None else self.dtype(lo)
                hi = None if hi is None else self.dtype(hi)

                def clipped(x):
                    if np.ndim(x) == 0 and not hasattr(x, "todense"):
                        return np.clip(x, lo, hi)[()]
                    return np.clip(x, lo, hi)
                return ("clip(%s, %r, %r)" % (t, lo, hi), lambda v: clipped(fn(v)),
                        lambda v: clipped(fs(v)))
            c = self.dtype(c)
            op = self.choice(["+", "*", "-", "r-"])
            if op == "+":
                return "(%s + %r)" % (t, c), lambda v: fn(v) + c, lambda v: fs(v) + c
            if op == "*":
                return "(%s * %r)" % (t, c), lambda v: fn(v) * c, lambda v: fs(v) * c
            if op == "-":
                return "(%s - %r)" % (t, c), lambda v: fn(v) - c, lambda v: fs(v) - c
            return "(%r - %s)" % (c, t), lambda v: c - fn(v), lambda v: c - fs(v)
        if kind == "unary":
            name = self.choice(["negative", "absolute", "sign", "square"] + (
                ["floor", "ceil", "trunc", "rint", "reciprocal"]
                if np.dtype(self.dtype).kind == "f" else ["invert"]))
            f = getattr(np, name)
            return "%s(%s)" % (name, t), lambda v: f(fn(v)), lambda v: f(fs(v))
        if kind == "reduce":
            return self.reduction(t, fn, fs)
        return self.shape_op(t, fn, fs)

    def body(self, depth):
        """Python source of a random float expression of x and y."""
        if depth == 0 or self.rng.random() < 0.25:
            return self.choice(["x", "y", "x", "y", "0.0", "-0.0", "1.0", "2.5",
                                "math.inf", "-math.inf"])
        a, b = self.body(depth - 1), self.body(depth - 1)
        form = self.choice(["(%s + %s)", "(%s - %s)", "(%s * %s)", "min(%s, %s)",
                            "max(%s, %s)", "abs(%s)", "-(%s)", "math.copysign(%s, %s)",
                            "(%s if %s < %s else %s)", "(%s if %s == %s else %s)",
                            "(%s if math.isnan(%s) else %s)"])
        if form.startswith("math.copysign"):
            # A NaN's sign is not kept where it equals a NaN fill
            # (docs/README.md, "NaN is one value"): copysign reads only
            # the signs of numbers.
            return "(%s if math.isnan(%s) else math.copysign(%s, %s))" % (a, b, a, b)
        n = form.count("%s")
        args = [a, b] + [self.body(depth - 1) for _ in range(max(0, n - 2))]
        return form % tuple(args[:n])

    def user_function(self):
        """A Python function on floats, sometimes declared commutative (the
        property checker accepts it only where it holds)."""
        src = self.body(int(self.rng.integers(1, 4)))
        ns = {"math": __import__("math")}
        text = "def user(x: float, y: float) -> float:\n    return %s\n" % src
        # sa.function reads the source (inspect): give it one.
        name = "<fuzz user function %d>" % next(_USER_IDS)
        linecache.cache[name] = (len(text), None, text.splitlines(True), name)
        exec(compile(text, name, "exec"), ns)
        flags = {"commutative": True} if self.rng.random() < 0.3 else {}
        return ns["user"], src, flags

    def reduction(self, t, fn, fs):
        name = self.choice(["sum", "max", "min"] +
                           (["prod"] if np.dtype(self.dtype).kind == "i" else []))
        # NumPy sums and multiplies int32 in int64.
        widen = name in ("sum", "prod") and self.dtype == np.int32
        ufunc = {"sum": np.add, "max": np.maximum, "min": np.minimum,
                 "prod": np.multiply}[name]
        axis_pick = self.rng.random()
        order = self.rng.random(4)  # a permutation key for tuples of axes
        keep = bool(self.rng.random() < 0.3)

        def axes(ndim):
            if axis_pick < 0.1:
                return None
            if axis_pick < 0.45:
                # A tuple of axes in any order (negative ones too), or ().
                chosen = [d for d in range(ndim) if order[d % 4] < 0.6]
                chosen.sort(key=lambda d: order[(d + 1) % 4])
                return tuple(d - ndim if order[(d + 2) % 4] < 0.3 else d for d in chosen)
            d = int(axis_pick * 1000) % ndim
            return d - ndim if axis_pick > 0.9 else d

        def dense(v):
            x = fn(v)
            if np.ndim(x) == 0:
                return x
            if name in ("max", "min") and x.size == 0:
                raise _Skip("max/min of an empty array")
            return left_fold(ufunc, x.astype(np.int64) if widen else x,
                             axes(x.ndim), keep)

        def sparse(v):
            x = fs(v)
            if np.ndim(x) == 0:
                return x
            return getattr(x, name)(axis=axes(x.ndim), keepdims=keep)
        return "%s.%s(keepdims=%s)" % (t, name, keep), dense, sparse

    def shape_op(self, t, fn, fs):
        rng = self.rng
        op = self.choice(["slice", "reshape", "transpose", "expand", "concat"])
        pick = rng.random(4)

        def key(shape):
            out = []
            for i, n in enumerate(shape):
                r = pick[i % 4]
                if r < 0.3 or n == 0:
                    out.append(slice(None))
                elif r < 0.5 and len(shape) > 1 and i == 0:
                    out.append(int(r * 97) % n)  # drops the dimension
                else:
                    step = [1, 2, -1, -2][int(r * 31) % 4]
                    lo = int(r * 13) % n
                    hi = (lo + 1 + int(r * 7) % n) if step > 0 else None
                    out.append(slice(lo, hi, step))
            return tuple(out)

        def reshaped(shape):
            size = int(np.prod(shape))
            if size == 0:
                return shape[::-1] or (0,)
            cands = [(size,), (1, size), (size, 1)]
            for d in (2, 3, 4, 5):
                if size % d == 0:
                    cands.append((d, size // d))
                    cands.append((d, -1))
            return cands[int(pick[0] * 1000) % len(cands)]
        order = "F" if pick[1] < 0.3 else "C"

        def guard(x):
            if np.ndim(x) == 0:
                raise _Skip("shape operation of a scalar")
            return x
        if op == "slice":
            return ("%s[slice]" % t, lambda v: guard(fn(v))[key(fn(v).shape)],
                    lambda v: guard(fs(v))[key(fs(v).shape)])
        if op == "reshape":
            return ("%s.reshape(order=%s)" % (t, order),
                    lambda v: guard(fn(v)).reshape(reshaped(fn(v).shape), order=order),
                    lambda v: guard(fs(v)).reshape(reshaped(fs(v).shape), order=order))
        if op == "transpose":
            return "%s.T" % t, lambda v: guard(fn(v)).T, lambda v: guard(fs(v)).T
        if op == "expand":
            return ("squeeze(expand_dims(%s))" % t,
                    lambda v: np.expand_dims(guard(fn(v)), 0),
                    lambda v: sa.expand_dims(guard(fs(v)), 0))
        axis = 0 if pick[2] < 0.5 else -1
        if pick[3] < 0.5:
            # Another expression: its fill often differs; its shape may
            # not fit (then both must refuse).
            u, gn, gs = self.expr(self.leaves, 1)
        else:
            u, gn, gs = "%s * 2" % t, (lambda v: fn(v) * 2), (lambda v: fs(v) * 2)
        return ("concatenate([%s, %s], axis=%d)" % (t, u, axis),
                lambda v: np.concatenate([guard(fn(v)), guard(gn(v))], axis=axis),
                lambda v: sa.concatenate([guard(fs(v)), guard(gs(v))], axis=axis))

    def root(self, leaves, depth):
        """An expression, sometimes compared or multiplied by a vector."""
        self.leaves = leaves
        t, fn, fs = self.expr(leaves, depth)
        r = self.rng.random()
        if r < 0.12:
            name = self.choice(["less", "greater_equal", "equal", "not_equal"])
            f = getattr(np, name)
            c = self.dtype(self.choice([0, 1, 2]))
            t, fn, fs = ("%s(%s, %r)" % (name, t, c), lambda v, fn=fn: f(fn(v), c),
                         lambda v, fs=fs: f(fs(v), c))
            r2 = self.rng.random()
            if r2 < 0.3:
                # Bools combined, then maybe folded with any/all.
                u, gn, gs = self.expr(leaves, 1)
                g = getattr(np, self.choice(["logical_and", "logical_or", "logical_xor"]))
                t, fn, fs = ("%s(%s, %s != 0)" % (g.__name__, t, u),
                             lambda v, fn=fn: g(fn(v), gn(v) != 0),
                             lambda v, fs=fs: g(fs(v), gs(v) != 0))
            if r2 > 0.6:
                name = self.choice(["any", "all"])
                ufunc = np.logical_or if name == "any" else np.logical_and
                axis = self.choice([None, 0, -1])
                keep = bool(self.rng.random() < 0.3)

                def dense(v, fn=fn):
                    x = fn(v)
                    if np.ndim(x) == 0:
                        return x
                    return left_fold(ufunc, x, axis, keep)

                def sparse(v, fs=fs):
                    x = fs(v)
                    if np.ndim(x) == 0:
                        return x
                    return getattr(x, name)(axis=axis, keepdims=keep)
                t, fn, fs = "%s.%s(axis=%s)" % (t, name, axis), dense, sparse
            return t, fn, fs
        if r < 0.3:
            # a @ x, or over a semiring (min-plus, max-times).
            add, mul = self.choice([("add", "multiply"), ("add", "multiply"),
                                    ("minimum", "add"), ("maximum", "multiply")])
            specials = np.dtype(self.dtype).kind == "f" and self.rng.random() < 0.5

            def vec(n):
                x = (np.arange(n) % 3 - 1).astype(self.dtype)
                if specials:  # -0.0 and inf among x's values
                    x[::4] = -0.0
                    x[1::5] = np.inf
                return x

            def dense(v):
                x = fn(v)
                if np.ndim(x) != 2:
                    raise _Skip("matmul of rank %d" % np.ndim(x))
                if add != "add" and x.shape[1] == 0:
                    raise _Skip("a fold of nothing without an identity")
                # The dense program's fold: left to right over j; NumPy's
                # a @ x starts it from +0.0 (an all -0.0 sum is +0.0).
                r = left_fold(getattr(np, add), getattr(np, mul)(x, vec(x.shape[1])),
                              1, False)
                if add == "add" and mul == "multiply" and np.dtype(self.dtype).kind == "f":
                    r = r + self.dtype(0.0)
                return r

            def sparse(v):
                x = fs(v)
                if np.ndim(x) != 2:
                    raise _Skip("matmul of rank %d" % np.ndim(x))
                if add == "add" and mul == "multiply":
                    return x @ vec(x.shape[1])
                return sa.matmul(x, vec(x.shape[1]), semiring=(add, mul))
            return "matmul(%s, vector, %s)" % (t, (add, mul)), dense, sparse
        if r < 0.4:
            # x @ y.T of two computed matrices (SpGEMM when both are
            # sparse), plain or over a semiring; shapes that do not fit
            # must be refused by both.
            add, mul = self.choice([("add", "multiply"), ("add", "multiply"),
                                    ("minimum", "add"), ("maximum", "multiply")])
            u, gn, gs = self.expr(leaves, int(self.rng.choice([1, 2])))

            def dense(v, fn=fn):
                x, y = fn(v), gn(v)
                if np.ndim(x) != 2 or np.ndim(y) != 2:
                    raise _Skip("matmul of rank %d and %d" % (np.ndim(x), np.ndim(y)))
                y = y.T
                if x.shape[1] != y.shape[0]:
                    raise ValueError("inner extents %d and %d" % (x.shape[1], y.shape[0]))
                if add != "add" and x.shape[1] == 0:
                    raise _Skip("a fold of nothing without an identity")
                # products[i, k, j], folded left to right over k; NumPy's
                # a @ b starts from +0.0.
                products = getattr(np, mul)(x[:, :, None], y[None, :, :])
                r = left_fold(getattr(np, add), products, 1, False)
                if add == "add" and mul == "multiply" and np.dtype(self.dtype).kind == "f":
                    r = r + self.dtype(0.0)
                return r

            def sparse(v, fs=fs):
                x, y = fs(v), gs(v)
                if np.ndim(x) != 2 or np.ndim(y) != 2:
                    raise _Skip("matmul of rank %d and %d" % (np.ndim(x), np.ndim(y)))
                if add == "add" and mul == "multiply":
                    return x @ y.T
                return sa.matmul(x, y.T, semiring=(add, mul))
            return "matmul(%s, (%s).T, %s)" % (t, u, (add, mul)), dense, sparse
        if r < 0.41:
            # The result converted (rounding, wrapping, NaN and inf to an
            # integer's smallest value, != 0 to bool).
            target = self.choice([np.float64, np.float32, np.int64, np.int32, np.bool_])

            def dense(v, fn=fn):
                with np.errstate(all="ignore"):
                    return np.asarray(fn(v)).astype(target)[()]

            def sparse(v, fs=fs):
                x = fs(v)
                if np.ndim(x) == 0:
                    with np.errstate(all="ignore"):
                        return np.asarray(x).astype(target)[()]
                return x.astype(target)
            return "(%s).astype(%s)" % (t, np.dtype(target)), dense, sparse
        if r < 0.44:
            # A predicate of each entry (bool results).
            name = self.choice(["isnan", "isinf", "isfinite", "signbit", "logical_not"])
            f = getattr(np, name)
            return "%s(%s)" % (name, t), lambda v, fn=fn: f(fn(v)), lambda v, fs=fs: f(fs(v))
        if r < 0.52:
            # np.where(x > c, x, y) or with a scalar branch: values taken
            # as they are (broadcasting, -0.0, NaN).
            u, gn, gs = self.expr(leaves, int(self.rng.choice([1, 2])))
            c = self.dtype(self.choice([0, 1]))
            other = self.choice([None, None, 0, -0.0, np.nan])
            if other is not None and np.dtype(self.dtype).kind != "f":
                other = 0
            if other is None:
                return ("where(%s > %r, %s, %s)" % (t, c, t, u),
                        lambda v, fn=fn: np.where(fn(v) > c, fn(v), gn(v)),
                        lambda v, fs=fs: np.where(fs(v) > c, fs(v), gs(v)))
            o = self.dtype(other)
            return ("where(%s > %r, %r, %s)" % (t, c, o, u),
                    lambda v, fn=fn: np.where(fn(v) > c, o, gn(v)),
                    lambda v, fs=fs: np.where(fs(v) > c, o, gs(v)))
        return t, fn, fs


_USER_IDS = itertools.count()


class _Skip(Exception):
    pass


def make_program(rng):
    dtype = [np.float64, np.float64, np.float64, np.float32, np.int64,
             np.int32][int(rng.integers(6))]
    rank = int(rng.choice([1, 2, 2, 2, 3]))
    base = tuple(int(rng.choice([0, 1, 2, 3, 4, 5, 6])) if rng.random() < 0.1
                 else int(rng.choice([2, 3, 4, 5, 6])) for _ in range(rank))
    leaves = []
    for _ in range(int(rng.choice([1, 2, 2, 3]))):
        shape = list(base)
        if rng.random() < 0.2:  # broadcasting: a size-1 dimension
            shape[int(rng.integers(rank))] = 1
        fills = FILLS_F if np.dtype(dtype).kind == "f" else FILLS_I
        fill = dtype(fills[int(rng.integers(len(fills)))])
        fmt = resolve(FORMATS[rank][int(rng.integers(len(FORMATS[rank])))], shape)
        leaves.append(Leaf(random_values(rng, tuple(shape), dtype, fill),
                           fmt, fill))
    gen = Gen(rng, dtype)
    text, fn, fs = gen.root(leaves, int(rng.choice([1, 2, 3, 4])))
    return leaves, text, fn, fs


def same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return "shape %s, numpy %s" % (got.shape, want.shape)
    if got.dtype != want.dtype:
        return "dtype %s, numpy %s" % (got.dtype, want.dtype)
    if got.dtype.kind == "f":
        nan = np.isnan(want)
        bits = np.int64 if got.dtype.itemsize == 8 else np.int32
        bad = (np.isnan(got) != nan) | (~nan & (got.view(bits) != want.view(bits)))
    else:
        bad = got != want
    if bad.any() and got.ndim == 0:
        return "%r, numpy %r" % (got[()], want[()])
    if bad.any():
        idx = tuple(int(i[0]) for i in np.nonzero(bad))
        return "at %s: %r, numpy %r (%d entries differ)" % (
            idx, got[idx], want[idx], int(bad.sum()))
    return None


def narrower_after_fold(got, want, text):
    """Whether got has want's kind in fewer bytes and the program folds a
    whole array to a 0-d value."""
    got, want = np.asarray(got), np.asarray(want)
    return (got.dtype.kind == want.dtype.kind and got.dtype.itemsize < want.dtype.itemsize
            and "(keepdims=False)" in text)


def to_dense(x):
    return x.todense() if hasattr(x, "todense") else np.asarray(x)


STATS = {"compared": 0, "refused": 0, "skipped": 0, "dtypes": 0, "documented": 0}


def run_program(rng, index):
    """None when it passed or was skipped, else a description."""
    leaves, text, fn, fs = make_program(rng)
    head = "program %d: %s over %s" % (
        index, text, "; ".join(l.desc() for l in leaves))
    with np.errstate(all="ignore"):
        try:
            want = fn([l.dense for l in leaves])
        except _Skip:
            STATS["skipped"] += 1
            return None
        except (ValueError, IndexError) as e:
            # NumPy refuses: the package must refuse too (any error).
            want = e
        results = {}
        # Mixed: some operands lazy, the others eager (a lazy expression
        # absorbs the eager arrays it meets).
        lazy_leaf = [bool(b) for b in rng.random(len(leaves)) < 0.5]
        for mode in ("eager", "lazy", "mixed"):
            try:
                if mode == "eager":
                    ops = [sa.asarray(l.dense, format=l.fmt, fill_value=l.fill)
                           for l in leaves]
                    results[mode] = fs(ops)
                elif mode == "lazy":
                    ops = [sa.lazy(l.dense, format=l.fmt, fill_value=l.fill)
                           for l in leaves]
                    results[mode] = sa.compute(fs(ops))
                else:
                    ops = [(sa.lazy if z else sa.asarray)(l.dense, format=l.fmt,
                                                          fill_value=l.fill)
                           for l, z in zip(leaves, lazy_leaf)]
                    results[mode] = sa.compute(fs(ops))
            except _Skip:
                STATS["skipped"] += 1
                return None
            except (ValueError, IndexError, TypeError, sa.SparseArrayError) as e:
                if isinstance(want, Exception):
                    STATS["refused"] += 1
                    continue
                if isinstance(e, TypeError) and "convert" in str(e):
                    # Documented: operands of different dtypes (an int32
                    # sum is int64) are an error, not promoted.
                    STATS["dtypes"] += 1
                    continue
                return "%s\n  %s raised %s: %s" % (head, mode, type(e).__name__, e)
            except Exception:  # noqa: BLE001 - a crash of the package
                return "%s\n  %s crashed:\n%s" % (head, mode, traceback.format_exc())
            if isinstance(want, Exception):
                return "%s\n  %s gave a result where numpy raised %s" % (
                    head, mode, want)
            got = results[mode]
            problem = same_bits(to_dense(got), want)
            if problem and mode != "eager" and narrower_after_fold(to_dense(got), want, text):
                # Documented: a 0-d value the lazy expression computes (a
                # whole fold) counts as 0 in value-based promotion, so it
                # does not widen the result as its actual value makes NumPy
                # do (docs/python.md); fuzz_idioms.py skips the same.
                STATS["documented"] += 1
                continue
            if problem is None and hasattr(got, "fill_value") and got.nnz:
                # Stored entries are the ones that differ from the fill.
                d = to_dense(got)
                f = np.asarray(got.fill_value, dtype=d.dtype)
                if d.dtype.kind == "f":
                    bits = np.int64 if d.dtype.itemsize == 8 else np.int32
                    differ = (d.view(bits) != f.reshape(1).view(bits)) & ~(
                        np.isnan(d) & np.isnan(f))
                else:
                    differ = d != f
                if int(differ.sum()) > got.nnz:
                    problem = "%d entries differ from the fill but %d are stored" % (
                        int(differ.sum()), got.nnz)
            if problem:
                return "%s\n  %s: %s" % (head, mode, problem)
            STATS["compared"] += 1
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = np.random.default_rng(args.seed)
    failed = 0
    for i in range(args.count):
        problem = run_program(rng, i)
        if problem:
            failed += 1
            print("FAIL " + problem, flush=True)
    print("%(compared)d results compared, %(refused)d refusals matched numpy's, "
          "%(dtypes)d mixed-dtype refusals, %(documented)d documented lazy promotions, "
          "%(skipped)d programs skipped" % STATS)
    print("%d of %d programs passed" % (args.count - failed, args.count))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
