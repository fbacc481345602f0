"""NumPy 1.24's type resolution for ufuncs over the package's arrays: which
dtype each operand is converted to before the loop runs, decided by NumPy
itself on stand-ins for the operands, so that the package converts exactly
where NumPy does (and then computes the same bits):

- value-based promotion of scalars: int32 array + 5 stays int32, + 2**40
  is int64; a float32 array * 0.5 stays float32;
- 0-d arrays are scalars: a 0-d int32 + 1 is int64, a 0-d float32 * 0.5
  float64 (all operands scalar: plain promotion);
- arrays of different dtypes promote (int32 + int64 is int64, int64 +
  float32 is float64), by NumPy's casts (sign extension, round to nearest);
- the loop NumPy picks for the common dtype (bool % bool runs in int8,
  sqrt of an int32 in float64, true division of integers in float64).

A 0-d operand known only when the expression runs (a lazy reduction) is
taken as a 0-d array holding 0: its value, which NumPy consults beside
arrays of the same kind (int64 sum + int32 array), is not known at trace
time (docs/python.md, "Where the package differs from NumPy")."""
import numpy as np

from ._array import Array
from ._format import ELEMENT
from ._trace import Traced

_CACHE = {}  # (ufunc, operand keys) -> loop input dtypes, or the error


def _stand_in(x):
    """What NumPy's resolution sees of operand x, and a hashable key of
    what it depends on."""
    if isinstance(x, Array) and x.ndim == 0:
        value = x.todense()[()]
        return np.asarray(value, x.dtype), ("0-d", x.dtype.str, value.tobytes())
    if isinstance(x, Traced) and x.ndim == 0:
        # A lazy 0-d value: an input's is known; a computed one's value is
        # taken as 0 (it decides only beside arrays of its kind).
        value = x._array.todense()[()] if getattr(x, "_array", None) is not None else \
            x.dtype.type(0)
        return np.asarray(value, x.dtype), ("0-d", x.dtype.str, np.asarray(value).tobytes())
    if isinstance(x, (Array, Traced)):
        return np.zeros((1,), x.dtype), ("array", x.dtype.str)
    if isinstance(x, np.ndarray):
        if x.ndim == 0:
            return x, ("0-d", x.dtype.str, x.tobytes())
        return np.zeros((1,), x.dtype), ("array", x.dtype.str)
    if isinstance(x, np.generic):
        return x, ("scalar", x.dtype.str, x.tobytes())
    if isinstance(x, (bool, int, float)):
        return x, ("python", type(x).__name__, repr(x))
    a = np.asarray(x)
    return (a if a.ndim == 0 else np.zeros((1,), a.dtype)), ("other", a.dtype.str, a.ndim)


_NUMERIC = set("?bhilqpBHILQPefdg")


def _homogeneous(ufunc):
    """Whether every numeric loop takes its inputs in one dtype (all but
    ldexp-like ufuncs): then NumPy resolves the inputs' common dtype."""
    loops = [t.split("->")[0] for t in ufunc.types]
    numeric = [t for t in loops if set(t) <= _NUMERIC]
    return all(len(set(t)) == 1 for t in numeric)


def loop_dtypes(ufunc, inputs):
    """The dtypes NumPy converts each input to for `ufunc` (its loop's
    input types), or raises NumPy's error (TypeError) where NumPy has no
    loop. Raises TypeError naming the dtype where NumPy's loop computes in
    a dtype the package does not have (int8 for bool % bool, float16 for
    sqrt of bools)."""
    stands, keys = zip(*[_stand_in(x) for x in inputs])
    key = (ufunc.__name__, keys)
    found = _CACHE.get(key)
    if found is None:
        try:
            if _homogeneous(ufunc):
                common = np.result_type(*stands)
                loop = ufunc.resolve_dtypes(tuple([common] * ufunc.nin) +
                                            (None,) * ufunc.nout)
            else:
                loop = ufunc.resolve_dtypes(tuple(np.asarray(s).dtype for s in stands) +
                                            (None,) * ufunc.nout)
            found = loop[:ufunc.nin]
        except TypeError as e:
            found = TypeError("sparse_array: %s" % e)
        _CACHE[key] = found
    if isinstance(found, Exception):
        raise found
    for dt in found:
        if dt not in ELEMENT:
            raise TypeError("sparse_array: NumPy computes %s of %s in %s, which sparse_array does "
                            "not have (float64, float32, int64, int32, bool): convert first" % (
                                ufunc.__name__, ", ".join(str(np.asarray(s).dtype) for s in stands),
                                dt))
    return found
