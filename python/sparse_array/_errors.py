"""Exceptions of the sparse_array package."""


class SparseArrayError(RuntimeError):
    """A run-time error of a compiled kernel or the runtime (mismatched
    extents, a malformed file, ...): the interpreter keeps running."""


class CompileError(SparseArrayError):
    """The compiler rejected a generated or given program (its diagnostics
    are the message)."""
