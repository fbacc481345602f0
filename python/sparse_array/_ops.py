"""Operations: each builds a small sparse_array program (the standard
library's exact functions), compiles it once per process (keyed by its
text: element types, formats, fills and which extents are 1) and calls it
on the arrays' buffers."""
import ctypes
import os

import numpy as np

from . import _capi
from ._array import Array, asarray
from ._errors import SparseArrayError
from ._format import ELEMENT, Format, make_format, type_text

_HERE = os.path.dirname(os.path.abspath(__file__))


def _stdlib_text():
    """The standard library and the package's NumPy-semantics functions."""
    for path in (os.path.join(_HERE, "std.mlir"),
                 os.path.join(_HERE, "..", "..", "stdlib", "std.mlir")):
        if os.path.exists(path):
            with open(path) as f, open(os.path.join(_HERE, "numpy.mlir")) as g:
                return f.read() + "\n" + g.read()
    raise ImportError("sparse_array: the standard library std.mlir is missing")


_STDLIB = None
_CACHE = {}
OPTIONS = os.environ.get("SPARSE_ARRAY_OPTIONS", "")


def _module(text):
    """The compiled module of `text` (cached per process)."""
    global _STDLIB
    mod = _CACHE.get(text)
    if mod is None:
        if _STDLIB is None:
            _STDLIB = _stdlib_text()
        mod = _capi.Module(_STDLIB + "\n" + text, OPTIONS)
        _CACHE[text] = mod
    return mod


# (ufunc name, dtype kind) -> standard library function; numpy semantics.
_UFUNCS = {
    "add": {"f": "add_f64", "i": "add_i64", "b": "or_i1"},
    "subtract": {"f": "sub_f64", "i": "sub_i64"},
    "multiply": {"f": "mul_f64", "i": "mul_i64", "b": "and_i1"},
    "divide": {"f": "div_f64"},
    "power": {"f": "pow_f64"},
    # NumPy's float minimum/maximum differ from IEEE's on signed zeros.
    "minimum": {"f": "np_minimum_f64", "i": "min_i64", "b": "and_i1"},
    "maximum": {"f": "np_maximum_f64", "i": "max_i64", "b": "or_i1"},
    "logical_and": {"b": "and_i1"},
    "logical_or": {"b": "or_i1"},
    "logical_xor": {"b": "xor_i1"},
    "bitwise_and": {"i": "and_i64", "b": "and_i1"},
    "bitwise_or": {"i": "or_i64", "b": "or_i1"},
    "bitwise_xor": {"i": "xor_i64", "b": "xor_i1"},
    "left_shift": {"i": "left_shift_i64"},
    "right_shift": {"i": "right_shift_i64"},
    "gcd": {"i": "np_gcd_i64"},
}
# Reductions: numpy's name -> the ufunc whose function combines.
_REDUCTIONS = {"sum": "add", "prod": "multiply", "min": "minimum", "max": "maximum",
               "any": "logical_or", "all": "logical_and"}


def _kind(dtype):
    return {"f": "f", "i": "i", "u": "i", "b": "b"}[np.dtype(dtype).kind]


def _function(ufunc_name, dtype):
    fn = _UFUNCS.get(ufunc_name, {}).get(_kind(dtype))
    if fn is None:
        raise TypeError("sparse_array: %s is not supported for %s arrays" % (ufunc_name, np.dtype(dtype)))
    return fn


def _static_type(a):
    """The array's type with its size-1 extents static (NumPy broadcasting
    repeats them) and every other extent dynamic."""
    dims = "".join(("1" if n == 1 else "?") + "x" for n in a.shape)
    return type_text(a.shape, a.dtype, a.format, a.fill_value).replace(
        "array<" + "".join("?x" for _ in a.shape), "array<" + dims, 1)


def _result_type(shape, dtype, fmt, fill):
    dims = "".join(("1" if n == 1 else "?") + "x" for n in shape)
    return type_text(shape, dtype, fmt, fill).replace(
        "array<" + "".join("?x" for _ in shape), "array<" + dims, 1)


# --- calling compiled functions --------------------------------------------

class _Malloced:
    """Owns buffers a kernel returned (freed with the last array or view
    using them), and keeps the arguments of the call alive."""
    __slots__ = ("addresses", "args")

    def __init__(self, addresses, args=()):
        self.addresses = addresses
        self.args = args

    def __del__(self):
        for address in self.addresses:
            _capi.free(address)


_CTYPE = {np.dtype(np.float64): ctypes.c_double, np.dtype(np.int64): ctypes.c_int64,
          np.dtype(np.int32): ctypes.c_int32, np.dtype(np.bool_): ctypes.c_uint8}


def _buffer_dtypes(fmt, dtype):
    out = []
    for level in fmt.levels:
        if level.has_positions:
            out.append(np.dtype(np.int32 if fmt.pos_width == 32 else np.int64))
        if level.has_coordinates:
            out.append(np.dtype(np.int32 if fmt.crd_width == 32 else np.int64))
    out.append(np.dtype(dtype))
    return out


class _Kernel:
    """A compiled function and what its result is: called with arrays (and
    int index arguments), packs their buffers as the packed interface wants
    (docs/storage.md, SparseArrayCAPI.h) without a ctypes object per word."""

    def __init__(self, text, name, rank, dtype, fmt, fill):
        self.fn = _module(text).lookup(name)
        self.rank, self.dtype, self.fmt = rank, np.dtype(dtype), fmt
        self.fill = self.dtype.type(fill)
        self.dtypes = _buffer_dtypes(fmt, dtype)
        self.nout = 5 * len(self.dtypes) + rank

    def __call__(self, args):
        words = []
        inputs = set()
        for a in args:
            if isinstance(a, int):  # an index argument
                words.append(a)
                continue
            words += a._words()
            inputs.update(a._allocations())
        n = len(words)
        # Each argument word, then the results' storage, addressed by the
        # pointer array (one numpy buffer for all).
        block = np.empty(2 * n + 1 + self.nout, dtype=np.int64)
        block[:n] = words
        base = block.ctypes.data
        block[n:2 * n] = base + 8 * np.arange(n, dtype=np.int64)
        out_at = 2 * n + 1
        block[2 * n] = base + 8 * out_at
        _capi.call(self.fn, base + 8 * n)
        out = block[out_at:].tolist()
        buffers, owned = [], []
        for k, dt in enumerate(self.dtypes):
            allocated, aligned, offset, size = out[5 * k:5 * k + 4]
            if allocated and allocated not in inputs and allocated not in owned:
                owned.append(allocated)
            buffers.append((aligned + offset * dt.itemsize, size, dt))
        # The views keep the owner of the malloc()ed buffers (and the
        # arguments, whose buffers a result may share) alive.
        owner = _Malloced(owned, args)
        views = [np.asarray(_View(address, size, dt, owner)) if size else np.zeros(0, dt)
                 for address, size, dt in buffers]
        shape = out[5 * len(self.dtypes):]
        return Array(shape, self.dtype, self.fmt, self.fill, views, owner=owner)


class _View:
    """A buffer at an address, seen by numpy through the array interface
    (no copy); numpy keeps this object, hence the owner, alive."""
    __slots__ = ("__array_interface__", "owner")

    def __init__(self, address, size, dtype, owner):
        self.__array_interface__ = {"data": (address, False), "shape": (size,),
                                    "typestr": dtype.str, "version": 3}
        self.owner = owner


def _call(text, name, args, result_shape, result_dtype, result_fmt, result_fill):
    return _Kernel(text, name, len(result_shape), result_dtype, result_fmt, result_fill)(args)


# --- element-wise ------------------------------------------------------------

def _broadcast_shape(shapes):
    return np.broadcast_shapes(*shapes)


def _operand(x, dtype):
    if isinstance(x, Array):
        return x
    x = np.asarray(x, dtype=dtype)
    # A scalar's fill is its value: the result's fill is then the function
    # of the other operand's fill and it (b = a * 2 + 1 keeps a's pattern).
    return asarray(x, fill_value=x[()] if x.ndim == 0 else None)


def _result_format(operands, rank):
    """The first sparse operand's format at the result's rank (its level
    kinds), else dense."""
    for a in operands:
        if not a.format.is_dense() and a.ndim == rank:
            return Format(a.format.levels, a.format.order)
    for a in operands:
        if not a.format.is_dense():
            return make_format("csr" if rank > 1 else "compressed", rank) if rank else Format([])
    return make_format("dense", rank)


_KERNELS = {}


def elementwise(ufunc, inputs):
    arrays = [x for x in inputs if isinstance(x, Array)]
    dtype = arrays[0].dtype
    for x in inputs:
        if isinstance(x, Array):
            if x.dtype != dtype:
                raise TypeError("sparse_array: %s of %s arrays: convert them to one dtype first" % (
                    ufunc.__name__, ", ".join(str(a.dtype) for a in arrays)))
    ops = [_operand(x, dtype) for x in inputs]
    shape = _broadcast_shape([a.shape for a in ops])
    key = ("map", ufunc.__name__, tuple(a.signature() for a in ops))
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = _KERNELS[key] = _map_kernel(ufunc, ops, dtype, len(shape))
    return kernel(ops)


def _map_kernel(ufunc, ops, dtype, rank):
    fn = _function(ufunc.__name__, dtype)
    shape = _broadcast_shape([a.shape for a in ops])
    # The result's fill: the function of the operands' fills (NumPy's own
    # semantics; any fill is exact, this one stores the fewest entries).
    with np.errstate(all="ignore"):
        fill = ufunc(*[np.array(a.fill_value, dtype=dtype) for a in ops])
    fill = np.array(fill).astype(dtype)
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


def array_ufunc(ufunc, method, inputs, kwargs):
    if method != "__call__" or kwargs.get("out") is not None:
        return NotImplemented
    return elementwise(ufunc, inputs)


# --- reductions ----------------------------------------------------------------

def reduce(name, a, axis=None, keepdims=False):
    ufunc = getattr(np, _REDUCTIONS[name])
    dtype = a.dtype
    if name in ("any", "all") and dtype != np.bool_:
        raise TypeError("sparse_array: %s of a %s array: compare it first (a != 0)" % (name, dtype))
    fn = _function(_REDUCTIONS[name], dtype)
    axes = tuple(range(a.ndim)) if axis is None else tuple(
        d % a.ndim for d in (axis if isinstance(axis, tuple) else (axis,)))
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate axis in %r" % (axis,))
    kept = [d for d in range(a.ndim) if d not in axes]
    shape = tuple(a.shape[d] for d in kept)
    count = int(np.prod([a.shape[d] for d in axes], dtype=np.int64))
    # The result's fill depends on how many fills are folded.
    key = ("reduce", name, a.signature(), axes,
           count if name in ("sum", "prod") else count > 0)
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = _KERNELS[key] = _reduce_kernel(name, ufunc, fn, a, axes, shape, count)
    r = kernel([a])
    if not shape:
        value = r.todense()[()]
        return np.array(value, dtype=dtype)[()] if not keepdims else np.full((1,) * a.ndim, value)
    if keepdims:
        return asarray(r.todense().reshape([1 if d in axes else a.shape[d] for d in range(a.ndim)]),
                       format=None, fill_value=r.fill_value)
    return r


def _reduce_kernel(name, ufunc, fn, a, axes, shape, count):
    dtype = a.dtype
    with np.errstate(all="ignore"):
        fill = ufunc.reduce(np.full(count, a.fill_value, dtype=dtype)) if count else \
            ufunc.reduce(np.zeros(0, dtype=dtype)) if name in ("sum", "prod", "any", "all") else a.fill_value
    fill = np.array(fill).astype(dtype)
    if a.format.is_dense() or not shape:
        fmt = make_format("dense", len(shape))
    else:
        fmt = make_format("csr" if len(shape) > 1 else "compressed", len(shape))
    rtype = _result_type(shape, dtype, fmt, fill)
    itype = _static_type(a)
    text = "\n".join([
        "func.func @kernel(%%a: %s) -> %s {" % (itype, rtype),
        "  %%r = sparse_array.reduce @%s %%a dims [%s] : %s -> %s" % (
            fn, ", ".join(map(str, axes)), itype, rtype),
        "  return %r : " + rtype,
        "}"])
    return _Kernel(text, "kernel", len(shape), dtype, fmt, fill)


# --- matrix products over semirings ---------------------------------------------

def matmul(a, b, semiring=None, format=None):
    """a @ b (matrix or vector operands) over `semiring` = (add, multiply)
    ufunc names (default ("add", "multiply")), e.g. ("minimum", "add")."""
    a = a if isinstance(a, Array) else asarray(a)
    b = b if isinstance(b, Array) else asarray(b)
    if a.dtype != b.dtype:
        raise TypeError("sparse_array: matmul of %s and %s arrays" % (a.dtype, b.dtype))
    add, mul = semiring or ("add", "multiply")
    add, mul = getattr(np, add).__name__, getattr(np, mul).__name__
    dtype = a.dtype
    fadd, fmul = _function(add, dtype), _function(mul, dtype)
    if a.ndim not in (1, 2) or b.ndim not in (1, 2):
        raise ValueError("matmul of arrays of rank %d and %d" % (a.ndim, b.ndim))
    k = a.shape[-1]
    if b.shape[0] != k:
        raise ValueError("matmul: inner extents %d and %d differ" % (k, b.shape[0]))
    key = ("matmul", add, mul, a.signature(), b.signature(), k, format)
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = _KERNELS[key] = _matmul_kernel(a, b, add, mul, fadd, fmul, k, format)
    return kernel([a, b])


def _matmul_kernel(a, b, add, mul, fadd, fmul, k, format):
    dtype = a.dtype
    # Index variables: i (rows of a), j (columns of b), then k.
    ai = (["%i"] if a.ndim == 2 else []) + ["%k"]
    bi = ["%k"] + (["%j"] if b.ndim == 2 else [])
    out_idx = (["%i"] if a.ndim == 2 else []) + (["%j"] if b.ndim == 2 else [])
    shape = tuple(([a.shape[0]] if a.ndim == 2 else []) + ([b.shape[1]] if b.ndim == 2 else []))
    with np.errstate(all="ignore"):
        prod_fill = getattr(np, mul)(np.array(a.fill_value), np.array(b.fill_value)).astype(dtype)
        fill = getattr(np, add).reduce(np.full(k, prod_fill, dtype=dtype)) if k else \
            getattr(np, add).reduce(np.zeros(0, dtype))
    fill = np.array(fill).astype(dtype)
    sparse = not (a.format.is_dense() and b.format.is_dense())
    fmt = make_format(format or ("csr" if sparse and len(shape) == 2 else
                                 "compressed" if sparse and len(shape) == 1 and b.ndim == 2 and not b.format.is_dense() and a.format.is_dense() is False
                                 else "dense"), len(shape))
    ta, tb = _static_type(a), _static_type(b)
    rtype = _result_type(shape, dtype, fmt, fill)
    names = out_idx + ["%k"]
    elt = ELEMENT[dtype]
    text = "\n".join([
        "func.func @kernel(%%a: %s, %%b: %s) -> %s {" % (ta, tb, rtype),
        "  %%r = sparse_array.kernel ins(%%a, %%b : %s, %s) -> %s {" % (ta, tb, rtype),
        "  ^bb0(%s, %%A: %s, %%B: %s):" % (", ".join(n + ": index" for n in names), ta, tb),
        "    %%x = sparse_array.access %%A[%s] : %s" % (", ".join(ai), ta),
        "    %%y = sparse_array.access %%B[%s] : %s" % (", ".join(bi), tb),
        "    %%p = sparse_array.apply @%s(%%x, %%y) : (%s, %s) -> %s" % (fmul, elt, elt, elt),
        "    %%s = sparse_array.reduce_over [%%k] %%p with @%s : %s" % (fadd, elt),
        "    sparse_array.yield %s : " + elt,
        "  }",
        "  return %r : " + rtype,
        "}"])
    return _Kernel(text, "kernel", len(shape), dtype, fmt, fill)


# --- files -------------------------------------------------------------------

def read(path, ndim=2, format="csr", fill_value=0, dtype=np.float64, file_format="auto"):
    """An array read from a Matrix Market (.mtx), FROSTT (.tns) or text
    file (docs/storage.md); a malformed file raises SparseArrayError naming
    the file and line."""
    dtype = np.dtype(dtype)
    if dtype not in ELEMENT:
        raise TypeError("dtype %s is not supported (float64, int64, bool)" % dtype)
    if file_format not in ("auto", "mtx", "tns", "text"):
        raise ValueError("file_format %r is not one of auto, mtx, tns, text" % file_format)
    fmt = make_format(format, ndim)
    fill = dtype.type(fill_value)
    rtype = type_text((0,) * ndim, dtype, fmt, fill)
    text = "\n".join([
        "func.func @kernel(%%k: index) -> %s {" % rtype,
        "  %%r = sparse_array.read input %%k {file_format = \"%s\"} : %s" % (file_format, rtype),
        "  return %r : " + rtype,
        "}"])
    _capi.set_inputs([os.fsencode(path)])
    return _call(text, "kernel", [0], (0,) * ndim, dtype, fmt, fill)
