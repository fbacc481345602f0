"""Tracing (_lazy.py): while an operation has a Lazy operand, kernels are
recorded as nodes of one expression instead of being run, and every type
is static so that the result type one operation's kernel declares is the
operand type the next one's declares."""
import functools


class Traced:
    """Base of values whose operations are recorded, not run (Lazy)."""


_DEPTH = [0]


def static_types():
    """Whether an operation is being traced."""
    return _DEPTH[0] > 0


def _has_traced(values):
    for x in values:
        if isinstance(x, Traced):
            return True
        if isinstance(x, (list, tuple)):
            for y in x:
                if isinstance(y, Traced):
                    return True
    return False


def traced(fn):
    """An operation that records a node when an operand is traced (or when
    called from one that does) and runs otherwise."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        # The common case (no Lazy operand) costs two checks per call.
        if not (_DEPTH[0] or _has_traced(args) or (kwargs and _has_traced(kwargs.values()))):
            return fn(*args, **kwargs)
        _DEPTH[0] += 1
        try:
            return fn(*args, **kwargs)
        finally:
            _DEPTH[0] -= 1
    return wrapper
