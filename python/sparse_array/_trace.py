"""Tracing (_lazy.py): while an operation has a Lazy operand, kernels are
recorded as nodes of one expression instead of being run, and every type
is static so that the result type one operation's kernel declares is the
operand type the next one's declares."""
import functools


class Traced:
    """Base of values whose operations are recorded, not run (Lazy)."""


_DEPTH = [0]
# How a traced kernel call becomes a node (Lazy.node, set by _lazy.py): the
# kernels (_compile.py) sit below the Lazy type and record through this.
_RECORD = [None]


def set_recorder(record):
    """`record(kernel, args, shape)` builds the node of a traced call."""
    _RECORD[0] = record


def record(kernel, args, shape):
    """The node of a call of `kernel` on `args` while tracing."""
    return _RECORD[0](kernel, args, shape)


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
