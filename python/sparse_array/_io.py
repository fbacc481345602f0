"""Files: Matrix Market and FROSTT read into arrays and written from them
by the runtime."""
import os

import numpy as np

from . import _capi
from ._array import Array
from ._compile import _call, _Kernel, _KERNELS
from ._format import ELEMENT, Format, make_format, type_text
from ._ops import _static_type


def read(path, ndim=2, format="csr", fill_value=0, dtype=np.float64, file_format="auto"):
    """An array read from a Matrix Market (.mtx), FROSTT (.tns) or text
    file (docs/storage.md); a malformed file raises SparseArrayError naming
    the file and line."""
    dtype = np.dtype(dtype)
    if dtype not in ELEMENT:
        raise TypeError("dtype %s is not supported (float64, float32, int64, int32, bool)" % dtype)
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


def write(a, path):
    """Writes `a` to `path`: Matrix Market when it ends in .mtx (matrices
    with fill 0), else the text format of sparse_array.print (any rank and
    fill, read back exactly by sa.read)."""
    if not isinstance(a, Array):
        raise TypeError("sparse_array.write: an Array, not %s" % type(a).__name__)
    key = ("write", a.signature())
    kernel = _KERNELS.get(key)
    if kernel is None:
        t = _static_type(a)
        text = "\n".join([
            "func.func @kernel(%%a: %s, %%k: index) {" % t,
            "  sparse_array.write %%a to input %%k : %s" % t,
            "  return",
            "}"])
        kernel = _KERNELS[key] = _Kernel(text, "kernel", 0, a.dtype, Format([]), a.fill_value,
                                         returns=False)
    _capi.set_inputs([os.fsencode(path)])
    kernel([a, 0])
