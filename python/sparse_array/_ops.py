"""Element-wise operations: each builds a small sparse_array program (the
standard library's exact functions), compiled once per process (keyed by
its text: element types, formats, fills and which extents are 1) and
called on the arrays' buffers; conversions, where, clip and user maps."""
import hashlib
import math

import numpy as np

from . import _promotion, _storage
from ._array import Array, asarray
from ._compile import _Kernel, _KERNELS
from ._format import ELEMENT, Format, make_format, scalar_text, type_text
from ._trace import static_types, Traced, traced
from ._ufuncs import _comparison_function, _COMPARISONS, _DT, _function, _generated, _kind, _MIXED, _UNARY, _unary_function, _WRITTEN, _written_function


def _static_type(a):
    """The array's type with its size-1 extents static (NumPy broadcasting
    repeats them) and every other extent dynamic (all static while
    tracing)."""
    if static_types():
        return type_text(a.shape, a.dtype, a.format, a.fill_value)
    dims = "".join(("1" if n == 1 else "?") + "x" for n in a.shape)
    return type_text(a.shape, a.dtype, a.format, a.fill_value).replace(
        "array<" + "".join("?x" for _ in a.shape), "array<" + dims, 1)


def _result_type(shape, dtype, fmt, fill):
    if static_types():
        return type_text(shape, dtype, fmt, fill)
    dims = "".join(("1" if n == 1 else "?") + "x" for n in shape)
    return type_text(shape, dtype, fmt, fill).replace(
        "array<" + "".join("?x" for _ in shape), "array<" + dims, 1)


def _broadcast_shape(shapes):
    return np.broadcast_shapes(*shapes)


def _is_array(x):
    """An Array or a traced value (_lazy.Lazy)."""
    return isinstance(x, (Array, Traced))


def _converts_exactly(source, dtype):
    """Whether every value of `source` survives a round trip through dtype
    (asked only when NumPy would promote: it copies the operand twice)."""
    with np.errstate(all="ignore"):
        return np.array_equal(source.astype(dtype).astype(source.dtype), source,
                              equal_nan=source.dtype.kind == "f")


def _scalar_operands(inputs, ops):
    """(positions of the scalar inputs, the other operands): scalars are
    constants of the mapped function (_bind_scalars), not dense 0-d
    operands, which would make a function without an annihilator iterate
    every point of the result (850 ms for a * 2.0 on a 20000^2 CSR with
    400k entries, against 3 ms). All scalars: nothing to bind."""
    scalars = [k for k, x in enumerate(inputs) if not _is_array(x) and np.ndim(x) == 0]
    if len(scalars) == len(ops):
        return [], ops
    return scalars, [a for k, a in enumerate(ops) if k not in scalars]


def _operand(x, dtype, compare=False):
    if _is_array(x):
        return x
    if dtype is not None:
        # NumPy's promotion decides (value-based for scalars: int32 + 5 is
        # int32, int64 + 1.5 float64): an operand it would not cast to
        # `dtype` is an error, never silently truncated. A comparison only
        # needs the values: one that converts exactly compares alike
        # (bools >= 1).
        source = x if isinstance(x, np.ndarray) else np.asarray(x)
        promoted = np.result_type(x if np.ndim(x) == 0 else source, np.dtype(dtype))
        if promoted != np.dtype(dtype) and not (compare and _converts_exactly(source, dtype)):
            raise TypeError("sparse_array: an operand of dtype %s with %s arrays (NumPy's result "
                            "would be %s): convert one first" % (source.dtype, np.dtype(dtype),
                                                                 promoted))
    x = np.asarray(x, dtype=dtype)
    # A scalar's fill is its value: the result's fill is then the function
    # of the other operand's fill and it (b = a * 2 + 1 keeps a's pattern).
    return asarray(x, fill_value=x[()] if x.ndim == 0 else None)


def _result_format(operands, rank):
    """The first sparse operand's format at the result's rank (its level
    kinds), else dense."""
    for a in operands:
        if not a.format.is_dense() and a.ndim == rank:
            f = a.format.unblocked()
            return Format(f.levels, f.order)
    for a in operands:
        if not a.format.is_dense():
            return make_format("csr" if rank > 1 else "compressed", rank) if rank else Format([])
    return make_format("dense", rank)


def elementwise(ufunc, inputs):
    if ufunc.__name__ in _MIXED:
        return _mixed(ufunc, inputs)
    # NumPy's type resolution: each operand converted where NumPy converts
    # it (value-based promotion, 0-d operands as scalars, its loop's dtype).
    inputs = _promoted(ufunc, inputs)
    if any(_is_array(x) and (x.ndim or not isinstance(x, Array)) for x in inputs):
        # An eager 0-d Array beside arrays is a value, as NumPy's 0-d arrays
        # are: bound as a constant, its fill (0 unless given) says nothing
        # of it (fuzz_idioms seed 12018: -1 * x took the fill 0 * 42, and a
        # later 0 ** ~x the fills' negative power).
        inputs = [np.asarray(x.todense()) if isinstance(x, Array) and not x.ndim else x
                  for x in inputs]
    arrays = [x for x in inputs if _is_array(x)]
    dtype = arrays[0].dtype
    if ufunc.__name__ == "positive" or (ufunc.__name__ == "absolute" and dtype == np.bool_):
        return arrays[0]  # the values as they are (arrays are immutable)
    if ufunc.__name__ == "power" and dtype.kind in "iu" and \
            math.prod(_broadcast_shape([np.shape(x) for x in inputs])):
        _check_integer_exponent(inputs[1])
    for x in inputs:
        if _is_array(x):
            if x.dtype != dtype:
                raise TypeError("sparse_array: %s of %s arrays: convert them to one dtype first" % (
                    ufunc.__name__, ", ".join(str(a.dtype) for a in arrays)))
    ops = [_operand(x, dtype, compare=ufunc.__name__ in _COMPARISONS) for x in inputs]
    shape = _broadcast_shape([a.shape for a in ops])
    scalars, arrays = _scalar_operands(inputs, ops)
    key = ("map", ufunc.__name__, tuple(a.signature() for a in ops), tuple(scalars))
    kernel = _KERNELS.get(key)
    if kernel is None:
        name = ufunc.__name__
        if name in _COMPARISONS:
            fn, rdtype = _comparison_function(name, dtype), np.dtype(np.bool_)
        elif name in _UNARY:
            fn, rdtype = _unary_function(name, dtype), dtype
        elif name in _WRITTEN and _kind(dtype) in _WRITTEN[name]:
            fn, rdtype = _written_function(ufunc, dtype)
        else:
            fn, rdtype = _function(name, dtype), dtype
        if scalars:
            fn = _generated(*_bind_scalars(fn, ops, scalars, [dtype] * len(ops), rdtype))
        kernel = _map_kernel(ufunc, ops, rdtype, len(shape), fn, operands=arrays)
        if name in ("maximum", "minimum", "fmax", "fmin"):
            # Each result entry is one of its operands' (a constant's too).
            kernel.selects = [ops[k].fill_value for k in scalars]
        _KERNELS[key] = kernel
    return kernel(arrays, shape)


def _check_integer_exponent(e):
    """NumPy refuses negative integer exponents: so does the package where
    it knows them (a scalar, an eager array's stored values and fill)."""
    if _is_array(e) and not isinstance(e, Array):
        return  # known only when the expression runs (docs/python.md)
    if isinstance(e, Array):
        values = e._buffers[-1]
        negative = bool((values < 0).any()) or (e.fill_value < 0 and e.nnz < e.size)
    else:
        negative = bool(np.any(np.asarray(e) < 0))
    if negative:
        raise ValueError("Integers to negative integer powers are not allowed.")


def _bind_scalars(fn, ops, scalars, dtypes, rdtype):
    """(name, text) of fn with the scalar operands at `scalars` (0-d
    arrays whose fill is their value) as constants: a function of the
    other operands. `dtypes`: fn's operand types."""
    elts, relt = [ELEMENT[np.dtype(d)] for d in dtypes], ELEMENT[np.dtype(rdtype)]
    consts = tuple(scalar_text(ops[k].fill_value, dtypes[k]) for k in scalars)
    name = "%s_with_%s" % (fn, hashlib.sha1(repr((tuple(scalars), consts)).encode()).hexdigest()[:12])
    params, args, lines = [], [], []
    for k in range(len(ops)):
        if k in scalars:
            lines.append("  %%c%d = arith.constant %s" % (k, consts[scalars.index(k)]))
            args.append("%%c%d" % k)
        else:
            params.append("%%x%d: %s" % (k, elts[k]))
            args.append("%%x%d" % k)
    return name, "\n".join(
        ["sparse_array.func @%s(%s) -> %s {" % (name, ", ".join(params), relt)] + lines + [
            "  %%r = sparse_array.apply @%s(%s) : (%s) -> %s" % (
                fn, ", ".join(args), ", ".join(elts), relt),
            "  sparse_array.yield %r : " + relt,
            "}"])


def _mixed(ufunc, inputs):
    types, fn, dtype = _MIXED[ufunc.__name__]
    if len(inputs) != len(types):
        raise TypeError("%s takes %d operands" % (ufunc.__name__, len(types)))
    if ufunc is np.ldexp and _promotion.loop_dtypes(ufunc, inputs)[0] == np.float32:
        # NumPy's float32 loop (for a NumPy float32 operand too): x * 2^e in
        # float64 is exact for every float32 x (its exponent range is
        # wider), then rounded once.
        x = inputs[0]
        x = astype(x, np.float64) if _is_array(x) else np.asarray(x).astype(np.float64)
        return astype(_mixed(ufunc, [x, inputs[1]]), np.float32)
    ops = []
    for x, dt in zip(inputs, types):
        if _is_array(x) and x.dtype == np.int32 and dt == np.int64:
            # NumPy's own exponent type (ldexp's int): sign-extended, a map
            # that fuses into the kernel.
            x = widen(x)
        if _is_array(x) and x.dtype != dt:
            raise TypeError("sparse_array: %s wants %s operands, got %s" % (
                ufunc.__name__, ", ".join(map(str, types)), x.dtype))
        ops.append(_operand(x, dt))
    shape = _broadcast_shape([a.shape for a in ops])
    scalars, arrays = _scalar_operands(inputs, ops)
    key = ("map", ufunc.__name__, tuple(a.signature() for a in ops), tuple(scalars))
    kernel = _KERNELS.get(key)
    if kernel is None:
        if scalars:
            fn = _generated(*_bind_scalars(fn, ops, scalars, types, dtype))
        kernel = _KERNELS[key] = _map_kernel(ufunc, ops, dtype, len(shape), fn, operands=arrays)
    return kernel(arrays, shape)


class _Where:
    """np.where(c, x, y) as _map_kernel's ufunc (it folds the fills)."""
    __name__ = "where"

    def __call__(self, c, x, y):
        return np.where(c, x, y)


_WHERE = _Where()


def _where_function(dtype):
    elt = ELEMENT[np.dtype(dtype)]
    name = "np_where_%s" % elt
    return _generated(name, "\n".join([
        "sparse_array.func @%s(%%c: i1, %%x: %s, %%y: %s) -> %s {" % (name, elt, elt, elt),
        "  %%r = arith.select %%c, %%x, %%y : %s" % elt,
        "  sparse_array.yield %%r : %s" % elt,
        "}"]))


@traced
def where(condition, x=None, y=None):
    """np.where(condition, x, y): x where condition holds, else y,
    broadcast together; a value of x or y as it is (NaN payloads, -0.0).
    x and y take one dtype, as every element-wise operation (scalars by
    NumPy's promotion); a condition that is not bool is `!= 0`."""
    if x is None or y is None:
        if x is None and y is None:
            raise TypeError("sparse_array: np.where(condition) alone (the coordinates of "
                            "nonzero entries) is not supported; give x and y")
        raise ValueError("either both or neither of x and y should be given")
    if _is_array(condition):
        if condition.dtype != np.bool_:
            condition = np.not_equal(condition, condition.dtype.type(0))
    else:
        condition = np.asarray(condition).astype(bool)
    arrays = [v for v in (x, y) if _is_array(v)]
    if arrays:
        dtype = arrays[0].dtype
        if any(a.dtype != dtype for a in arrays):
            raise TypeError("sparse_array: where of %s arrays: convert them to one dtype first" % (
                ", ".join(str(a.dtype) for a in arrays)))
    else:
        dtype = np.result_type(x, y)
        if dtype not in ELEMENT:
            # NumPy scalars of a dtype the package does not have (an int8
            # NumPy computed from bools): as for a loop in it.
            raise TypeError("sparse_array: NumPy computes where of %s, %s in %s, which "
                            "sparse_array does not have (float64, float32, int64, int32, "
                            "bool): convert first" % (np.asarray(x).dtype, np.asarray(y).dtype,
                                                      dtype))
    inputs = [condition, x, y]
    ops = [_operand(condition, np.bool_), _operand(x, dtype), _operand(y, dtype)]
    shape = _broadcast_shape([a.shape for a in ops])
    scalars, operands = _scalar_operands(inputs, ops)
    key = ("map", "where", tuple(a.signature() for a in ops), tuple(scalars))
    kernel = _KERNELS.get(key)
    if kernel is None:
        fn = _where_function(dtype)
        if scalars:
            fn = _generated(*_bind_scalars(fn, ops, scalars, [np.bool_, dtype, dtype], dtype))
        kernel = _map_kernel(_WHERE, ops, dtype, len(shape), fn, operands=operands)
        # Each entry is x's or y's (or a bound constant's): zero signs kept.
        kernel.selects = [ops[k].fill_value for k in scalars if k > 0]
        _KERNELS[key] = kernel
    return kernel(operands, shape)


class _AsType:
    """x.astype(dtype) as _map_kernel's ufunc (it converts the fill)."""
    __name__ = "astype"

    def __init__(self, dtype):
        self.dtype = dtype

    def __call__(self, x):
        return np.asarray(x).astype(self.dtype)


def _cast_lines(source, target):
    """MLIR lines converting %x of `source` to %r of `target` as NumPy's C
    casts do on x86: floats round to nearest, integers wrap, a float out of
    an integer's range (NaN and inf too) is its smallest value (cvttsd2si's
    "integer indefinite"; LLVM's fptosi would be poison there), anything to
    bool is `!= 0` (NaN is True)."""
    s, t = ELEMENT[source], ELEMENT[target]
    sk, tk = source.kind, target.kind
    if tk == "b":
        if sk == "f":
            return ["%zero = arith.constant 0.0 : " + s, "%r = arith.cmpf une, %x, %zero : " + s]
        return ["%zero = arith.constant 0 : " + s, "%r = arith.cmpi ne, %x, %zero : " + s]
    if sk == "b":
        op = "arith.uitofp" if tk == "f" else "arith.extui"
        return ["%%r = %s %%x : i1 to %s" % (op, t)]
    if sk == "f" and tk == "f":
        op = "arith.extf" if target.itemsize > source.itemsize else "arith.truncf"
        return ["%%r = %s %%x : %s to %s" % (op, s, t)]
    if sk == "i" and tk == "f":
        return ["%%r = arith.sitofp %%x : %s to %s" % (s, t)]
    if sk == "i":
        op = "arith.extsi" if target.itemsize > source.itemsize else "arith.trunci"
        return ["%%r = %s %%x : %s to %s" % (op, s, t)]
    low = np.iinfo(target).min
    bound = scalar_text(source.type(low), source)
    return ["%%low = arith.constant %s" % bound,
            "%%high = arith.negf %%low : %s" % s,
            "%%above = arith.cmpf ogt, %%x, %%low : %s" % s,
            "%%below = arith.cmpf olt, %%x, %%high : %s" % s,
            "%in = arith.andi %above, %below : i1",
            "%%zero = arith.constant 0.0 : %s" % s,
            "%%safe = arith.select %%in, %%x, %%zero : %s" % s,
            "%%c = arith.fptosi %%safe : %s to %s" % (s, t),
            "%%min = arith.constant %d : %s" % (low, t),
            "%%r = arith.select %%in, %%c, %%min : %s" % t]


@traced
def astype(a, dtype):
    """a.astype(dtype): each value (and the fill) converted as NumPy does."""
    a = a if _is_array(a) else asarray(a)
    dtype = np.dtype(dtype)
    if dtype not in ELEMENT:
        raise TypeError("dtype %s is not supported (float64, float32, int64, int32, bool)" % dtype)
    if dtype == a.dtype:
        return a  # arrays are immutable: the same values
    key = ("map", "astype", a.signature(), dtype.str)
    kernel = _KERNELS.get(key)
    if kernel is None:
        name = "np_cast_%s_%s" % (ELEMENT[a.dtype], ELEMENT[dtype])
        fn = _generated(name, "\n".join(
            ["sparse_array.func @%s(%%x: %s) -> %s {" % (name, ELEMENT[a.dtype], ELEMENT[dtype])] +
            ["  " + line for line in _cast_lines(a.dtype, dtype)] +
            ["  sparse_array.yield %%r : %s" % ELEMENT[dtype], "}"]))
        kernel = _KERNELS[key] = _map_kernel(_AsType(dtype), [a], dtype, a.ndim, fn)
    return kernel([a], a.shape)


@traced
def convert(a, fmt, fill):
    """`a` stored in format `fmt` with fill `fill`: a copying map whose
    result type says so (entries that differ from the new fill, bitwise,
    are stored). Traced like any kernel (sa.lazy(x, format=...) of an
    expression)."""
    fill = a.dtype.type(fill)
    if fmt == a.format and not _storage_differs(fill, a.fill_value):
        return a
    key = ("convert", a.signature(), fmt.key(), fill.tobytes())
    kernel = _KERNELS.get(key)
    if kernel is None:
        elt = ELEMENT[a.dtype]
        name = "np_copy_%s" % elt
        fn = _generated(name, "sparse_array.func @%s(%%x: %s) -> %s {\n"
                              "  sparse_array.yield %%x : %s\n}" % (name, elt, elt, elt))
        rtype = _result_type(a.shape, a.dtype, fmt, fill)
        t = _static_type(a)
        text = "\n".join([
            "func.func @kernel(%%a0: %s) -> %s {" % (t, rtype),
            "  %%r = sparse_array.map @%s(%%a0) : (%s) -> %s" % (fn, t, rtype),
            "  return %r : " + rtype,
            "}"])
        kernel = _KERNELS[key] = _Kernel(text, "kernel", a.ndim, a.dtype, fmt, fill)
    return kernel([a], a.shape)


def restore(a, fmt):
    """`a`'s stored entries, explicit fills included, in format `fmt` (the
    runtime's conversion, which knows every level format)."""
    if fmt == a.format:
        return a
    key = ("restore", a.signature(), fmt.key())
    kernel = _KERNELS.get(key)
    if kernel is None:
        rtype = _result_type(a.shape, a.dtype, fmt, a.fill_value)
        t = _static_type(a)
        text = "\n".join([
            "func.func @kernel(%%a0: %s) -> %s {" % (t, rtype),
            "  %%r = sparse_array.convert %%a0 : %s to %s" % (t, rtype),
            "  return %r : " + rtype,
            "}"])
        kernel = _KERNELS[key] = _Kernel(text, "kernel", a.ndim, a.dtype, fmt, a.fill_value)
    return kernel([a], a.shape)


def _storage_differs(x, y):
    return bool(_storage.differs(np.array([x]), y)[0])


def _clip_values(x, lo, hi):
    """NumPy 1.24's clip loop on values (`lo`/`hi` None: no bound): a NaN x
    stays, else max by `>` (the bound on a tie: clip(0.0, -0.0, 1) is
    -0.0), then min by `<`."""
    with np.errstate(all="ignore"):
        m = x if lo is None else np.where(np.isnan(x) if x.dtype.kind == "f" else False, x,
                                          np.where(x > lo, x, lo))
        if hi is None:
            return m
        return np.where(np.isnan(m) if m.dtype.kind == "f" else False, m, np.where(m < hi, m, hi))


class _Clip:
    """clip as _map_kernel's ufunc (the fill of the fills)."""
    __name__ = "clip"

    def __init__(self, dtype, has_lo, has_hi, nan_free=(False, False)):
        self.dtype, self.has_lo, self.has_hi = dtype, has_lo, has_hi
        self.nan_free = nan_free

    def __call__(self, x, *bounds):
        bounds = list(bounds)
        lo = bounds.pop(0).astype(self.dtype) if self.has_lo else None
        hi = bounds.pop(0).astype(self.dtype) if self.has_hi else None
        # A 0-d bound holding NaN is no bound (as a NumPy scalar's).
        if self.nan_free[0] and lo is not None and np.isnan(lo):
            lo = None
        if self.nan_free[1] and hi is not None and np.isnan(hi):
            hi = None
        return _clip_values(np.asarray(x, dtype=self.dtype), lo, hi)


def _clip_function(dtype, has_lo, has_hi, nan_free=(False, False)):
    """NumPy 1.24's clip loop; a bound in `nan_free` (a 0-d array's, known
    only when the kernel runs) is no bound when it is NaN."""
    elt = ELEMENT[np.dtype(dtype)]
    floating = np.dtype(dtype).kind == "f"
    nan_free = nan_free if floating else (False, False)
    name = "np_clip%s%s%s_%s" % ("_lo" if has_lo else "", "_hi" if has_hi else "",
                                 "_nanfree%d%d" % nan_free if any(nan_free) else "", elt)
    params = ["%%x: %s" % elt] + (["%%lo: %s" % elt] if has_lo else []) + (
        ["%%hi: %s" % elt] if has_hi else [])
    gt, lt = ("arith.cmpf ogt", "arith.cmpf olt") if floating else (
        ("arith.cmpi ugt", "arith.cmpi ult") if np.dtype(dtype) == np.bool_ else
        ("arith.cmpi sgt", "arith.cmpi slt"))
    lines, v = [], "%x"
    # max by `>` then min by `<`, each keeping a NaN it is given.
    for bound, cmp, tag, free in (("%lo", gt, "m", nan_free[0]), ("%hi", lt, "r", nan_free[1])):
        if (bound == "%lo" and not has_lo) or (bound == "%hi" and not has_hi):
            continue
        lines += ["%%%s_keep = %s, %s, %s : %s" % (tag, cmp, v, bound, elt),
                  "%%%s = arith.select %%%s_keep, %s, %s : %s" % (tag, tag, v, bound, elt)]
        if floating:
            lines += ["%%%s_nan = arith.cmpf uno, %s, %s : %s" % (tag, v, v, elt)]
            if free:
                lines += ["%%%s_bnan = arith.cmpf uno, %s, %s : %s" % (tag, bound, bound, elt),
                          "%%%s_nan2 = arith.ori %%%s_nan, %%%s_bnan : i1" % (tag, tag, tag)]
            lines += ["%%%s_kept = arith.select %%%s_nan%s, %s, %%%s : %s" % (
                tag, tag, "2" if free else "", v, tag, elt)]
            v = "%%%s_kept" % tag
        else:
            v = "%%%s" % tag
    return _generated(name, "\n".join(
        ["sparse_array.func @%s(%s) -> %s {" % (name, ", ".join(params), elt)] +
        ["  " + line for line in lines] + ["  sparse_array.yield %s : %s" % (v, elt), "}"]))


@traced
def clip(a, a_min=None, a_max=None, out=None, **kwargs):
    """np.clip(a, a_min, a_max): NumPy 1.24's (a NaN of `a` stays, a scalar
    NaN bound means no bound, an array bound's NaN gives NaN; on a tie the
    bound's value, so -0.0 and 0.0 follow it)."""
    if out is not None or kwargs:
        raise TypeError("sparse_array: clip takes no out= or other keywords")
    a = a if _is_array(a) else asarray(a)
    if a_min is None and a_max is None:
        raise ValueError("One of max or min must be given")

    def zero_d(b):
        # A 0-d Array's value is a scalar's (NumPy treats 0-d arrays so).
        return b.todense()[()] if isinstance(b, Array) and b.ndim == 0 else b

    def scalar_nan(b):
        return b is not None and not _is_array(b) and np.ndim(b) == 0 and np.isnan(b)
    a_min, a_max = zero_d(a_min), zero_d(a_max)
    # NumPy 1.24 clips by -inf/inf (Python floats) for a scalar NaN bound.
    a_min = -float("inf") if scalar_nan(a_min) else a_min
    a_max = float("inf") if scalar_nan(a_max) else a_max
    # Its type resolution: um.clip with both bounds, else maximum/minimum.
    from numpy.core import umath
    ufunc = umath.clip if a_min is not None and a_max is not None else (
        np.minimum if a_min is None else np.maximum)
    bounds = [b for b in (a_min, a_max) if b is not None]
    dtypes = _promotion.loop_dtypes(ufunc, [a] + bounds)
    if a.dtype != dtypes[0]:
        a = astype(a, dtypes[0])
    dtype = a.dtype

    def infinite(b, sign):
        return (b is not None and not _is_array(b) and np.ndim(b) == 0 and
                np.asarray(b).dtype.kind == "f" and np.isinf(b) and (b > 0) == (sign > 0))
    # An infinite scalar bound clips nothing (NaN and -0.0 stay).
    if dtype.kind == "f":
        a_min = None if infinite(a_min, -1) else a_min
        a_max = None if infinite(a_max, 1) else a_max
    a_min = astype(a_min, dtype) if _is_array(a_min) and a_min.dtype != dtype else a_min
    a_max = astype(a_max, dtype) if _is_array(a_max) and a_max.dtype != dtype else a_max
    if a_min is None and a_max is None:
        return a
    # A lazy 0-d bound's value is known only when it runs: NaN is no bound.
    nan_free = tuple(b is not None and _is_array(b) and b.ndim == 0 for b in (a_min, a_max))
    inputs = [a] + [b for b in (a_min, a_max) if b is not None]
    for b in inputs[1:]:
        if _is_array(b) and b.dtype != dtype:
            raise TypeError("sparse_array: clip of a %s array by %s bounds: convert one first" % (
                dtype, b.dtype))
    ops = [_operand(x, dtype) for x in inputs]
    shape = _broadcast_shape([x.shape for x in ops])
    if shape != a.shape:
        raise ValueError("sparse_array: clip's bounds of shapes %s do not broadcast to %s" % (
            [x.shape for x in ops[1:]], a.shape))
    scalars, operands = _scalar_operands(inputs, ops)
    has = (a_min is not None, a_max is not None)
    key = ("map", "clip", has, nan_free, tuple(x.signature() for x in ops), tuple(scalars))
    kernel = _KERNELS.get(key)
    if kernel is None:
        fn = _clip_function(dtype, *has, nan_free=nan_free)
        if scalars:
            fn = _generated(*_bind_scalars(fn, ops, scalars, [dtype] * len(ops), dtype))
        kernel = _map_kernel(_Clip(dtype, *has, nan_free=nan_free), ops, dtype, a.ndim, fn,
                             operands=operands)
        kernel.selects = [ops[k].fill_value for k in scalars]
        _KERNELS[key] = kernel
    return kernel(operands, shape)


def _map_kernel(ufunc, ops, dtype, rank, fn=None, operands=None):
    """The map of fn over `operands` (default: ops); the fill is ufunc's
    on the fills of `ops` (every operand, scalars bound into fn too)."""
    fn = fn or _function(ufunc.__name__, dtype)
    shape = _broadcast_shape([a.shape for a in ops])
    # The result's fill: the function of the operands' fills (NumPy's own
    # semantics; any fill is exact, this one stores the fewest entries).
    with np.errstate(all="ignore"):
        try:
            fill = ufunc(*[np.array(a.fill_value, dtype=a.dtype) for a in ops])
        except ValueError:
            # An integer exponent's negative fill: for eager operands
            # _check_integer_exponent let it through only when no entry
            # holds it (an empty array, every entry stored), so no result
            # entry is the fills' power. A lazy one may hold it: refused,
            # as NumPy refuses.
            if (getattr(ufunc, "__name__", "") != "power" or
                    not all(isinstance(a, Array) for a in ops)):
                raise
            fill = 0
    fill = np.array(fill).astype(dtype)
    ops = ops if operands is None else operands
    fmt = _result_format(ops, rank)
    rtype = _result_type(shape, dtype, fmt, fill)
    types = [_static_type(a) for a in ops]
    params = ", ".join("%%a%d: %s" % (k, t) for k, t in enumerate(types))
    text = "\n".join([
        "func.func @kernel(%s) -> %s {" % (params, rtype),
        "  %%r = sparse_array.map @%s(%s) : (%s) -> %s" % (
            fn, ", ".join("%%a%d" % k for k in range(len(ops))), ", ".join(types), rtype),
        "  return %r : " + rtype,
        "}"])
    return _Kernel(text, "kernel", rank, dtype, fmt, fill)


@traced
def map_function(f, inputs):
    """A user function (sa.function) applied element-wise with
    broadcasting."""
    types = [np.dtype(_DT[t]) for t in f.arg_types]
    if len(inputs) != len(types):
        raise TypeError("%s takes %d arrays, %d given" % (f.__name__, len(types), len(inputs)))
    ops = []
    for x, dt in zip(inputs, types):
        if _is_array(x) and x.dtype != dt:
            raise TypeError("%s: an operand of dtype %s where %s is declared" % (f.__name__, x.dtype, dt))
        ops.append(_operand(x, dt))
    shape = _broadcast_shape([a.shape for a in ops])
    scalars, arrays = _scalar_operands(inputs, ops)
    key = ("map", f.text, tuple(a.signature() for a in ops), tuple(scalars))
    kernel = _KERNELS.get(key)
    if kernel is None:
        dtype = f.dtype
        fill = f.evaluate(*[a.fill_value for a in ops])
        fill = np.array(0 if fill is None else fill).astype(dtype)
        rank = len(shape)
        fmt = _result_format(arrays, rank)
        rtype = _result_type(shape, dtype, fmt, fill)
        tys = [_static_type(a) for a in arrays]
        params = ", ".join("%%a%d: %s" % (k, t) for k, t in enumerate(tys))
        fn, texts = f.__name__, [f.text]
        if scalars:
            fn, bound = _bind_scalars(f.__name__, ops, scalars, types, dtype)
            texts.append(bound)
        text = "\n".join(texts + [
            "func.func @kernel(%s) -> %s {" % (params, rtype),
            "  %%r = sparse_array.map @%s(%s) : (%s) -> %s" % (
                fn, ", ".join("%%a%d" % k for k in range(len(arrays))), ", ".join(tys), rtype),
            "  return %r : " + rtype,
            "}"])
        kernel = _KERNELS[key] = _Kernel(text, "kernel", rank, dtype, fmt, fill)
    return kernel(arrays, shape)


_WIDEN_I32 = """sparse_array.func @np_extsi_i32_i64(%x: i32) -> i64 {
  %r = arith.extsi %x : i32 to i64
  sparse_array.yield %r : i64
}"""


def widen(a):
    """An int32 array as int64 (sign-extended; its fill too): a map that
    fuses into the kernel reading it."""
    key = ("widen", a.signature())
    kernel = _KERNELS.get(key)
    if kernel is None:
        fill = np.int64(a.fill_value)
        fmt = a.format.unblocked()
        fmt = Format(fmt.levels, fmt.order) if not fmt.is_dense() else fmt
        t, rtype = _static_type(a), _result_type(a.shape, np.int64, fmt, fill)
        text = "\n".join([
            _WIDEN_I32,
            "func.func @kernel(%%a0: %s) -> %s {" % (t, rtype),
            "  %%r = sparse_array.map @np_extsi_i32_i64(%%a0) : (%s) -> %s" % (t, rtype),
            "  return %r : " + rtype,
            "}"])
        kernel = _KERNELS[key] = _Kernel(text, "kernel", a.ndim, np.int64, fmt, fill)
    return kernel([a], a.shape)


def _power_of_ten(n):
    """NumPy's power_of_ten (multiarray/calculation.c): exact to 1e22."""
    if n < 9:
        return [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8][n]
    r = 1e9
    for _ in range(n - 9):
        r *= 10.0
    return r


def around(a, decimals=0, out=None):
    """np.round(a, decimals) as NumPy computes it (PyArray_Round): rint of
    a * 10**decimals, divided back (a / 10**-decimals, multiplied back,
    for negative decimals); integers are their own rounding to decimals
    >= 0."""
    if out is not None:
        raise TypeError("sparse_array: np.round takes no out=")
    a = _operand(a, None)
    decimals = int(decimals)
    if a.dtype.kind in "ib":
        if decimals >= 0:
            return a
        raise TypeError("sparse_array: rounding integers to negative decimals is not supported")
    if decimals == 0:
        return np.rint(a)
    f = a.dtype.type(_power_of_ten(abs(decimals)))
    if decimals > 0:
        return np.true_divide(np.rint(np.multiply(a, f)), f)
    return np.multiply(np.rint(np.true_divide(a, f)), f)


def _promoted(ufunc, inputs):
    """`inputs` with each array converted (astype: a map that fuses) to the
    dtype of NumPy's loop; scalars stay (the kernel converts them as NumPy
    does). Unchanged when every array already has its loop's dtype."""
    dtypes = _promotion.loop_dtypes(ufunc, inputs)
    out = []
    for x, dt in zip(inputs, dtypes):
        if _is_array(x) and x.dtype != dt:
            x = astype(x, dt)
        elif isinstance(x, np.ndarray) and x.ndim and x.dtype != dt:
            x = x.astype(dt)
        out.append(x)
    return out
