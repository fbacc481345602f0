"""sparse_array: NumPy-style sparse arrays with any fill value, compiled by
the sparse_array MLIR dialect (docs/python.md).

    import sparse_array as sa
    A = sa.asarray(scipy_csr)                 # zero-copy CSR
    B = sa.asarray(dense, format="csr", fill_value=float("inf"))
    C = np.minimum(A, B)                      # compiled once, then cached
    y = sa.matmul(A, x, semiring=("minimum", "add"))
    r = sa.compute((sa.lazy(A) * 2 + B).sum(axis=1))   # one fused kernel
"""
import sys

from . import _dispatch
from ._array import Array, asarray
from ._errors import CompileError, SparseArrayError
from ._format import bsr, Format, Level, structured
from ._function import Algebra, complement, Function, function, intersect, union
from ._io import read, write
from ._lazy import compute, explain, Lazy, lazy
from ._linalg import matmul
from ._ops import clip, where
from ._reductions import reduce
from ._shape import concatenate, expand_dims, hstack, reshape, squeeze, stack, transpose, vstack

__all__ = ["Array", "asarray", "lazy", "compute", "Lazy", "explain", "matmul", "read", "reduce", "where", "clip", "write", "reshape",
           "transpose", "expand_dims", "squeeze", "concatenate", "stack", "hstack", "vstack", "function", "Function", "union",
           "intersect", "complement", "Algebra", "Format", "Level", "bsr", "structured", "SparseArrayError",
           "CompileError"]

# Array's methods call operations of the modules above _array.py.
_dispatch.bind_array_methods()

# In a process that has Dask loaded (a worker unpickling sa chunks, a
# dask.array user), sa.Array registers as a Dask chunk type, so dask.array's
# dispatch finds sa's concatenate and tensordot there too (docs/python.md,
# "More than one machine").
if "dask" in sys.modules:
    from . import dask as _dask_chunks  # noqa: F401
