"""Shape operations with numpy semantics (issue 18 part 3; seed 001): basic
indexing, reshape, transpose, expand_dims, squeeze, concatenate, stack,
hstack, vstack. Each is the dialect's shape operation in a compiled
function (sparse_array.slice, reshape, transpose, expand_dims, squeeze,
concat), whose code moves stored entries without densifying; results keep
the source's fill (a concatenation takes its first operand's: the other
parts' implicit entries become their own fill values, stored where they
differ). Types are static, so kernels are cached per shape."""
import numpy as np

from . import _compile, _ops
from ._array import Array, asarray
from ._format import Format, make_format, type_text
from ._trace import static_types, traced


def _type(a):
    return type_text(a.shape, a.dtype, a.format, a.fill_value, static=True)


def _sparse_format(like, rank):
    """Dense for a dense source, else dense outer levels over a compressed
    innermost one (CSR-like) at `rank`."""
    if like.format.is_dense() or rank == 0:
        return make_format("dense", rank)
    return make_format("csr" if rank > 1 else "compressed", rank)


def _run(key, sources, op_text, shape, dtype, fmt, fill):
    kernel = _compile._KERNELS.get(key)
    if kernel is None:
        rtype = type_text(shape, dtype, fmt, fill, static=True)
        params = ", ".join("%%a%d: %s" % (k, _type(a)) for k, a in enumerate(sources))
        text = "\n".join([
            "func.func @kernel(%s) -> %s {" % (params, rtype),
            "  %%r = %s : %s -> %s" % (op_text, ", ".join(_type(a) for a in sources), rtype),
            "  return %r : " + rtype,
            "}"])
        kernel = _compile._KERNELS[key] = _compile._Kernel(text, "kernel", len(shape), dtype, fmt, fill)
    return kernel(list(sources), tuple(shape))


def _key(name, sources, *extra):
    return (name,) + tuple((a.signature(), a.shape) for a in sources) + extra


# --- basic indexing ------------------------------------------------------------

@traced
def getitem(a, key):
    """numpy basic indexing: integers, slices, np.newaxis (None) and one
    Ellipsis."""
    if not isinstance(key, tuple):
        key = (key,)
    if sum(k is Ellipsis for k in key) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    given = sum(k is not Ellipsis and k is not None for k in key)
    if given > a.ndim:
        raise IndexError("too many indices for array: array is %d-dimensional, but %d were "
                         "indexed" % (a.ndim, given))
    if Ellipsis in key:
        at = key.index(Ellipsis)
        key = key[:at] + (slice(None),) * (a.ndim - given) + key[at + 1:]
    if any(k is None for k in key):
        # np.newaxis: the selection without them, then a size-1 dimension
        # at each one's place among the result's dimensions.
        new, r = [], 0
        for k in key:
            if k is None:
                new.append(r)
                r += 1
            elif isinstance(k, slice):
                r += 1
        rest = tuple(k for k in key if k is not None)
        selected = getitem(a, rest) if rest else a
        if not isinstance(selected, Array) and not static_types():
            selected = asarray(np.asarray(selected))
        return expand_dims(selected, tuple(new))
    key = key + (slice(None),) * (a.ndim - len(key))
    parts, shape, kept = [], [], []
    for dim, (k, n) in enumerate(zip(key, a.shape)):
        if isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)):
            k = int(k)
            if not -n <= k < n:
                raise IndexError("index %d is out of bounds for axis %d with size %d" % (k, dim, n))
            parts.append(str(k + n if k < 0 else k))
        elif isinstance(k, slice):
            start, stop, step = k.indices(n)
            length = len(range(start, stop, step))
            if length == 0:
                # Empty (x[-4::-1] of 2 entries: indices gives start -1,
                # which the dialect would read as the last entry).
                start, stop, step = 0, 0, 1
            # Normalized bounds, non-negative (a negative stop after a
            # reversal means "past the start": omitted).
            stop_text = "" if stop < 0 else str(stop)
            parts.append("%d:%s:%d" % (start, stop_text, step))
            shape.append(length)
            kept.append(dim)
        else:
            raise IndexError("sparse_array: only integers, slices and '...' index arrays "
                             "(basic indexing), not %r" % (k,))
    if len(kept) == a.ndim:
        f = a.format.unblocked()
        fmt = Format(f.levels, f.order)
    else:
        fmt = _sparse_format(a, len(shape))
    spec = ", ".join(parts)
    result = _run(_key("slice", [a], spec), [a], "sparse_array.slice %%a0[%s]" % spec,
                  tuple(shape), a.dtype, fmt, a.fill_value)
    # An integer per dimension selects one entry: a numpy scalar, as numpy.
    return result.todense()[()] if not shape and not static_types() else result


# --- reshaping ---------------------------------------------------------------

@traced
def reshape(a, shape, order="C"):
    a = _ops._operand(a, None)
    if order not in ("C", "F"):
        raise ValueError("sparse_array.reshape: order must be 'C' or 'F', not %r" % (order,))
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = tuple(int(n) for n in shape)
    if sum(n == -1 for n in shape) > 1:
        raise ValueError("can only specify one unknown dimension")
    size = int(np.prod(a.shape))
    known = int(np.prod([n for n in shape if n != -1]))
    if -1 in shape:
        if known == 0 or size % known:
            raise ValueError("cannot reshape array of size %d into shape %s" % (size, shape))
        shape = tuple(size // known if n == -1 else n for n in shape)
    if int(np.prod(shape)) != size or any(n < 0 for n in shape):
        raise ValueError("cannot reshape array of size %d into shape %s" % (size, shape))
    fmt = _sparse_format(a, len(shape))
    text = "sparse_array.reshape %%a0 [%s] order \"%s\"" % (", ".join(map(str, shape)), order)
    return _run(_key("reshape", [a], shape, order), [a], text, shape, a.dtype, fmt,
                a.fill_value)


@traced
def transpose(a, axes=None):
    a = _ops._operand(a, None)
    axes = tuple(reversed(range(a.ndim))) if axes is None else tuple(
        int(x) % a.ndim if a.ndim else int(x) for x in axes)
    if sorted(axes) != list(range(a.ndim)):
        raise ValueError("axes don't match array")
    shape = tuple(a.shape[p] for p in axes)
    # The same levels, relabelled: level l stored source dimension o[l],
    # which is result dimension axes^-1[o[l]] (CSR.T is CSC, no copy).
    inverse = [axes.index(d) for d in range(a.ndim)]
    source = a.format.unblocked()
    order = [inverse[d] for d in (source.order or list(range(a.ndim)))]
    fmt = Format(source.levels, order, source.pos_width, source.crd_width)
    text = "sparse_array.transpose %%a0 [%s]" % ", ".join(map(str, axes))
    return _run(_key("transpose", [a], axes), [a], text, shape, a.dtype, fmt, a.fill_value)


def _axes(axis, ndim, name):
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = []
    for x in axes:
        x = int(x)
        if not -ndim <= x < ndim:
            raise np.exceptions.AxisError(x, ndim) if hasattr(np, "exceptions") \
                else np.AxisError(x, ndim)
        out.append(x % ndim)
    if len(set(out)) != len(out):
        raise ValueError("repeated axis in %s" % name)
    return tuple(sorted(out))


@traced
def expand_dims(a, axis):
    # Like numpy's, any array-like (a full reduction with keepdims is a
    # numpy array).
    a = _ops._operand(a, None)
    ndim = a.ndim + (1 if isinstance(axis, (int, np.integer)) else len(tuple(axis)))
    dims = _axes(axis, ndim, "expand_dims")
    shape = list(a.shape)
    for d in dims:
        shape.insert(d, 1)
    fmt = _sparse_format(a, len(shape))
    text = "sparse_array.expand_dims %%a0 [%s]" % ", ".join(map(str, dims))
    return _run(_key("expand_dims", [a], dims), [a], text, tuple(shape), a.dtype, fmt,
                a.fill_value)


@traced
def squeeze(a, axis=None):
    a = _ops._operand(a, None)
    if axis is None:
        dims = tuple(d for d, n in enumerate(a.shape) if n == 1)
    else:
        dims = _axes(axis, a.ndim, "squeeze")
        for d in dims:
            if a.shape[d] != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not "
                                 "equal to one")
    if not dims:
        return a
    shape = tuple(n for d, n in enumerate(a.shape) if d not in dims)
    fmt = _sparse_format(a, len(shape))
    text = "sparse_array.squeeze %%a0 [%s]" % ", ".join(map(str, dims))
    return _run(_key("squeeze", [a], dims), [a], text, shape, a.dtype, fmt, a.fill_value)


# --- joining -------------------------------------------------------------------

@traced
def concatenate(arrays, axis=0):
    arrays = [x if _ops._is_array(x) else _ops._operand(x, None) for x in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    first = arrays[0]
    if axis is None:
        return concatenate([reshape(x, -1) for x in arrays], 0)
    if first.ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    for x in arrays[1:]:
        if x.ndim != first.ndim:
            raise ValueError("all the input arrays must have same number of dimensions")
        if x.dtype != first.dtype:
            raise TypeError("sparse_array.concatenate of %s and %s arrays: convert them to one "
                            "dtype first" % (first.dtype, x.dtype))
    axis = _axes(axis, first.ndim, "concatenate")[0]
    for x in arrays[1:]:
        for d in range(first.ndim):
            if d != axis and x.shape[d] != first.shape[d]:
                raise ValueError("all the input array dimensions except for the concatenation "
                                 "axis must match exactly")
    if len(arrays) == 1:
        return first
    shape = list(first.shape)
    shape[axis] = sum(x.shape[axis] for x in arrays)
    fmt = _ops._result_format(arrays, first.ndim)
    names = ", ".join("%%a%d" % k for k in range(len(arrays)))
    text = "sparse_array.concat %s dim %d" % (names, axis)
    return _run(_key("concat", arrays, axis), arrays, text, tuple(shape), first.dtype, fmt,
                first.fill_value)


@traced
def stack(arrays, axis=0):
    arrays = [_ops._operand(x, None) for x in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    ndim = arrays[0].ndim + 1
    axis = _axes(axis, ndim, "stack")[0]
    return concatenate([expand_dims(x, axis) for x in arrays], axis)


@traced
def hstack(arrays):
    arrays = [_ops._operand(x, None) for x in arrays]
    return concatenate(arrays, 0 if arrays and arrays[0].ndim == 1 else 1)


@traced
def vstack(arrays):
    arrays = [_ops._operand(x, None) for x in arrays]
    arrays = [x if x.ndim > 1 else expand_dims(x, 0) for x in arrays]
    return concatenate(arrays, 0)
