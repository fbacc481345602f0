"""Reductions (sum, prod, min, max, any, all over axes): a kernel folding
with the ufunc's combiner, exact on NaN, signed zeros and wrap-around."""
import math

import numpy as np

from . import _shape
from ._array import Array, asarray
from ._compile import _Kernel, _KERNELS
from ._format import make_format
from ._function import Function
from ._ops import astype, _result_type, _static_type, widen
from ._trace import static_types, traced
from ._ufuncs import _DT, _function, _narrow, _REDUCTIONS


def _zero_signs(a):
    """The signs (signbit) of the zeros `a` may hold, stored or fill; None
    when not known. A traced value is known when it is an input, or when a
    map that yields one of its operands (np.maximum, np.minimum, fmax,
    fmin: `selects`, with its bound constants) made it from known ones."""
    if a.dtype.kind != "f":
        return set()
    signs = {bool(np.signbit(a.fill_value))} if a.fill_value == 0 else set()
    if isinstance(a, Array):
        values = a._buffers[-1]
        zero = values == 0
        if zero.any():
            negative = np.signbit(values[zero])
            signs.update({True} if negative.all() else {False} if not negative.any() else {True, False})
        return signs
    if getattr(a, "_array", None) is not None:
        return _zero_signs(a._array)
    constants = getattr(getattr(a, "_kernel", None), "selects", None)
    if constants is None:
        return None
    signs.update(bool(np.signbit(c)) for c in constants if c == 0)
    for arg in a._args:
        more = _zero_signs(arg)
        if more is None:
            return None
        signs |= more
    return signs


def _zeros_of_one_sign(*arrays):
    """Whether every zero the arrays hold, stored or fill, has one sign
    (no when not known)."""
    signs = set()
    for a in arrays:
        more = _zero_signs(a)
        if more is None:
            return False
        signs |= more
    return len(signs) <= 1


# NumPy's float minimum/maximum differ from IEEE's only on a tie of +0.0
# and -0.0; without such ties the standard library's commutative min/max
# (whose reductions skip the fills) give the same values.
_IEEE_WITHOUT_SIGNED_ZERO_TIES = {"minimum": "min_f64", "maximum": "max_f64"}  # _narrow()ed


_COMBINERS = {}  # (ufunc name, dtype, one_sign_zeros) -> _combiner's result


def _combiner(op, dtype, one_sign_zeros=False):
    """(function name, its text or "", fold(value, count) -> the fold of
    `count` copies) for a ufunc name or a user Function."""
    if isinstance(op, str):
        key = (op, dtype, one_sign_zeros)
        found = _COMBINERS.get(key)
        if found is None:
            found = _COMBINERS[key] = _make_combiner(op, dtype, one_sign_zeros)
        return found
    return _make_combiner(op, dtype, one_sign_zeros)


def _make_combiner(op, dtype, one_sign_zeros):
    if isinstance(op, Function):
        if [np.dtype(_DT[t]) for t in op.arg_types] != [dtype, dtype] or op.dtype != dtype:
            raise TypeError("%s does not combine two %s values into one" % (op.__name__, dtype))

        def fold(value, count):
            # Any fill is exact; past a few thousand terms the fold of
            # copies has settled for every function of interest.
            acc = value if count else None
            for _ in range(min(count, 4096) - 1):
                acc = op.evaluate(acc, value)
                if acc is None:
                    return None
            return acc
        return op.__name__, op.text, fold
    ufunc = getattr(np, op)

    def fold(value, count):
        with np.errstate(all="ignore"):
            if not count:
                return ufunc.reduce(np.zeros(0, dtype=dtype)) if ufunc.identity is not None else value
            # A left fold, as the kernels fold (not NumPy's pairwise sum),
            # in chunks: a row of 2^40 fills must not cost 8 TB. Once a step
            # leaves the accumulator as it is, every later step does.
            chunk = np.full(min(count, 1 << 16), value, dtype=dtype)
            acc, done = None, 0
            while done < count:
                part = chunk[:min(count - done, len(chunk))].copy()
                if acc is not None:
                    part[0] = ufunc(acc, part[0])
                    if part[0].tobytes() == acc.tobytes():
                        return acc
                acc = ufunc.accumulate(part)[-1]
                done += len(part)
            return acc
    if one_sign_zeros and dtype.kind == "f" and op in _IEEE_WITHOUT_SIGNED_ZERO_TIES:
        return _narrow(_IEEE_WITHOUT_SIGNED_ZERO_TIES[op], dtype), "", fold
    return _function(ufunc.__name__, dtype), "", fold


@traced
def reduce(name, a, axis=None, keepdims=False):
    """Reduction of `a` over `axis` by a numpy name (sum, prod, min, max,
    any, all) or a user function (sa.function)."""
    dtype = a.dtype
    if isinstance(name, str):
        if name in ("any", "all") and dtype != np.bool_:
            # NumPy's truth of a value: != 0 (NaN is true).
            a, dtype = np.not_equal(a, dtype.type(0)), np.dtype(np.bool_)
        if name in ("sum", "prod") and dtype == np.int32:
            # numpy sums and multiplies int32 in int64 (the platform int).
            a, dtype = widen(a), np.dtype(np.int64)
        if name in ("sum", "prod") and dtype == np.bool_:
            # ... and bools too (True + True is 2).
            a, dtype = astype(a, np.int64), np.dtype(np.int64)
        op = _REDUCTIONS[name]
    else:
        op = name
    # The zero-sign check is a pass over the values: only for min/max.
    fn, extra, fold = _combiner(op, dtype, one_sign_zeros=(
        op in _IEEE_WITHOUT_SIGNED_ZERO_TIES and _zeros_of_one_sign(a)))
    given = (axis if isinstance(axis, tuple) else (axis,)) if axis is not None else ()
    if a.ndim == 0 and given in ((0,), (-1,)):
        given = ()  # NumPy reduces a 0-d array over axis 0 too (over nothing)
    for d in given:
        if not -a.ndim <= d < a.ndim:
            raise np.exceptions.AxisError(d, a.ndim) if hasattr(np, "exceptions") else \
                np.AxisError(d, a.ndim)
    axes = tuple(range(a.ndim)) if axis is None else tuple(d % a.ndim for d in given)
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate axis in %r" % (axis,))
    # The fold is over the reduced entries in C order whatever order the
    # axes are named in (NumPy's a.sum(axis=(2, 0)) is a.sum(axis=(0, 2))).
    axes = tuple(sorted(axes))
    if not axes:
        # Nothing reduced (axis=(), or a 0-d array): NumPy folds each entry
        # alone, into the ufunc's identity where it has one (0.0 + -0.0 is
        # 0.0), else the entry itself.
        r = a
        if isinstance(op, str) and getattr(np, op).identity is not None:
            r = getattr(np, op)(dtype.type(getattr(np, op).identity), a)
        if a.ndim == 0 and not static_types():
            return np.array(r.todense()[()], dtype=dtype)[()]
        return r
    kept = [d for d in range(a.ndim) if d not in axes]
    shape = tuple(a.shape[d] for d in kept)
    count = math.prod(a.shape[d] for d in axes)
    if count == 0 and isinstance(op, str):
        # NumPy's empty reductions: the ufunc's identity (+0.0 for sum,
        # where the exact add_f64's identity is -0.0), or an error.
        ufunc = getattr(np, op)
        if ufunc.identity is None:
            raise ValueError("zero-size array to reduction operation %s which has no identity" % op)
        empty = np.full(shape if not keepdims else
                        [1 if d in axes else a.shape[d] for d in range(a.ndim)],
                        ufunc.identity, dtype=dtype)
        return empty[()] if not empty.ndim else asarray(empty)
    # The result's fill depends on how many fills are folded.
    idempotent = op in ("minimum", "maximum", "logical_or", "logical_and")
    key = ("reduce", fn, extra, a.signature(), axes, count > 0 if idempotent else count)
    kernel = _KERNELS.get(key)
    if kernel is None:
        fill = fold(a.fill_value, count)
        fill = np.array(0 if fill is None else fill).astype(dtype)
        kernel = _KERNELS[key] = _reduce_kernel(fn, extra, a, axes, shape, fill)
    r = kernel([a], shape)
    if isinstance(op, str) and op == "add" and dtype.kind == "f":
        # NumPy's sums start from +0.0 (the identity it initializes them
        # with), so a sum of -0.0s is +0.0; the kernel's left fold starts
        # from the first entry. Adding +0.0 changes exactly that case.
        r = _plus_zero(r)
    if static_types():  # traced: a scalar stays a rank-0 Lazy
        if keepdims:
            return _shape.expand_dims(r, axes)
        return r
    if not shape:
        value = r.todense()[()]
        return np.array(value, dtype=dtype)[()] if not keepdims else np.full((1,) * a.ndim, value)
    if keepdims:
        return _shape.expand_dims(r, axes)
    return r


def _plus_zero(r):
    """r + 0.0: in place on an eager kernel's fresh values (a -0.0 becomes
    +0.0, nothing else changes), else a map (fused when traced)."""
    zero = r.dtype.type(0.0)
    if isinstance(r, Array) and r._buffers[-1].flags.writeable:
        values = r._buffers[-1]
        np.add(values, zero, out=values)
        r.fill_value = r.fill_value + zero
        r._signature = None
        return r
    return r + zero


def _reduce_kernel(fn, extra, a, axes, shape, fill):
    dtype = a.dtype
    if a.format.is_dense() or not shape:
        fmt = make_format("dense", len(shape))
    else:
        fmt = make_format("csr" if len(shape) > 1 else "compressed", len(shape))
    rtype = _result_type(shape, dtype, fmt, fill)
    itype = _static_type(a)
    text = "\n".join([
        extra,
        "func.func @kernel(%%a: %s) -> %s {" % (itype, rtype),
        "  %%r = sparse_array.reduce @%s %%a dims [%s] : %s -> %s" % (
            fn, ", ".join(map(str, axes)), itype, rtype),
        "  return %r : " + rtype,
        "}"])
    return _Kernel(text, "kernel", len(shape), dtype, fmt, fill)
