"""NumPy's protocols: `__array_ufunc__` (calls, `reduce`, `np.matmul`) and
`__array_function__` (np.sum, np.dot, np.reshape, ...) routed to the
element-wise, reduction, product and shape modules; and the binding of
Array's methods to those operations (bind_array_methods)."""
import numpy as np

from . import _io, _ops, _shape
from ._array import OPS
from ._linalg import matmul
from ._ops import elementwise, _operand
from ._reductions import reduce
from ._trace import Traced, traced
from ._ufuncs import _UFUNC_REDUCTIONS


@traced
def array_ufunc(ufunc, method, inputs, kwargs):
    if kwargs.get("out") is not None:
        return NotImplemented
    if method == "reduce" and ufunc.__name__ in _UFUNC_REDUCTIONS and len(inputs) == 1:
        # np.add.reduce(a, axis=0, keepdims=False): NumPy's default axis is 0.
        extra = set(kwargs) - {"axis", "keepdims", "out"}
        if extra or kwargs.get("dtype") is not None:
            raise TypeError("sparse_array: %s.reduce takes axis and keepdims only, not %s" % (
                ufunc.__name__, ", ".join(sorted(extra))))
        return reduce(_UFUNC_REDUCTIONS[ufunc.__name__], inputs[0], kwargs.get("axis", 0),
                      kwargs.get("keepdims", False))
    if method != "__call__":
        return NotImplemented
    if ufunc is np.matmul:
        if kwargs:
            raise TypeError("sparse_array: np.matmul takes no keywords")
        return matmul(*inputs)
    return elementwise(ufunc, inputs)


def _numpy_reduction(name):
    """np.sum, np.prod (a, axis=None, dtype=None, keepdims=False); what else
    NumPy takes (out, initial, where) is refused. A dtype other than the
    default accumulates in it, as NumPy does: the entries are cast first."""
    def fn(a, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        if out is not None or kwargs:
            raise TypeError("sparse_array: np.%s takes axis, dtype and keepdims only" % name)
        a = _operand(a, None)
        if dtype is not None and np.dtype(dtype) != getattr(np, name)(np.zeros(1, a.dtype)).dtype:
            a = a.astype(dtype)
        return reduce(name, a, axis, keepdims)
    return fn


def _reduction_without_dtype(name):
    def fn(a, axis=None, out=None, keepdims=False, **kwargs):
        if out is not None or kwargs:
            raise TypeError("sparse_array: np.%s takes axis and keepdims only" % name)
        return reduce(name, _operand(a, None), axis, keepdims)
    return fn


def _dot(a, b, out=None):
    """np.dot: a product of scalars, else matmul (1-D and 2-D)."""
    if out is not None:
        raise TypeError("sparse_array: np.dot takes no out=")
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return np.multiply(a, b)
    return matmul(a, b)


def _count_nonzero(a, axis=None, keepdims=False):
    """Entries != 0 (NaN counts), as int64; a whole count is a Python int."""
    r = reduce("sum", np.not_equal(a, a.dtype.type(0)).astype(np.int64), axis, keepdims)
    if isinstance(r, Traced):
        return r  # a lazy count: computed with the expression
    return int(r) if axis is None and not keepdims and np.ndim(r) == 0 else r


# numpy's functions on Arrays (__array_function__).
NUMPY_FUNCTIONS = {
    np.around: _ops.around,
    np.round: _ops.around,
    np.sum: _numpy_reduction("sum"),
    np.prod: _numpy_reduction("prod"),
    np.amax: _reduction_without_dtype("max"),
    np.amin: _reduction_without_dtype("min"),
    np.max: _reduction_without_dtype("max"),
    np.min: _reduction_without_dtype("min"),
    np.any: _reduction_without_dtype("any"),
    np.all: _reduction_without_dtype("all"),
    np.dot: _dot,
    np.count_nonzero: _count_nonzero,
    np.ravel: lambda a, order="C": _shape.reshape(a, (-1,), order),
    np.reshape: lambda a, newshape=None, order="C", shape=None: _shape.reshape(
        a, shape if shape is not None else newshape, order),
    np.transpose: lambda a, axes=None: _shape.transpose(a, axes),
    np.expand_dims: _shape.expand_dims,
    np.squeeze: lambda a, axis=None: _shape.squeeze(a, axis),
    np.concatenate: lambda arrays, axis=0: _shape.concatenate(arrays, axis),
    np.stack: lambda arrays, axis=0: _shape.stack(arrays, axis),
    np.hstack: lambda tup: _shape.hstack(tup),
    np.vstack: lambda tup: _shape.vstack(tup),
    np.where: _ops.where,
    np.clip: _ops.clip,
    # What NumPy code asks of any array-like.
    np.ndim: lambda a: len(a.shape),
    np.shape: lambda a: tuple(a.shape),
    np.size: lambda a, axis=None: (
        int(np.prod(a.shape, dtype=np.int64)) if axis is None else a.shape[axis]),
}

if hasattr(np, "round_"):  # NumPy 1.24's np.round is np.round_
    NUMPY_FUNCTIONS[np.round_] = _ops.around


def bind_array_methods():
    """Binds the operations Array's methods call (_array.OPS): every
    module is loaded by then (sparse_array/__init__.py calls this)."""
    bound = dict(
        reduce=reduce, astype=_ops.astype, around=_ops.around, clip=_ops.clip,
        matmul=matmul, getitem=_shape.getitem, reshape=_shape.reshape,
        transpose=_shape.transpose, squeeze=_shape.squeeze, restore=_ops.restore,
        convert=_ops.convert, write=_io.write, array_ufunc=array_ufunc,
        numpy_functions=NUMPY_FUNCTIONS)
    for name, value in bound.items():
        setattr(OPS, name, value)
