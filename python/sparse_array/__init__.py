"""sparse_array: NumPy-style sparse arrays with any fill value, compiled by
the sparse_array MLIR dialect (docs/python.md).

    import sparse_array as sa
    A = sa.asarray(scipy_csr)                 # zero-copy CSR
    B = sa.asarray(dense, format="csr", fill_value=float("inf"))
    C = np.minimum(A, B)                      # compiled once, then cached
    y = sa.matmul(A, x, semiring=("minimum", "add"))
    r = sa.compute((sa.lazy(A) * 2 + B).sum(axis=1))   # one fused kernel
"""
from ._array import Array, asarray
from ._errors import CompileError, SparseArrayError
from ._format import Format, Level, bsr
from ._function import Algebra, Function, complement, function, intersect, union
from ._lazy import Lazy, compute, lazy
from ._ops import clip, explain, matmul, read, reduce, where, write
from ._shape import concatenate, expand_dims, hstack, reshape, squeeze, stack, transpose, vstack

__all__ = ["Array", "asarray", "lazy", "compute", "Lazy", "explain", "matmul", "read", "reduce", "where", "clip", "write", "reshape",
           "transpose", "expand_dims", "squeeze", "concatenate", "stack", "hstack", "vstack", "function", "Function", "union",
           "intersect", "complement", "Algebra", "Format", "Level", "bsr", "SparseArrayError",
           "CompileError"]
