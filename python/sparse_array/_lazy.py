"""Lazy evaluation: sa.lazy(x) starts an expression whose operations are
recorded instead of run; sa.compute(expr) (or expr.compute(), or
np.asarray(expr)) turns the whole expression into one compiled function,
in which sparse-array-fuse composes the operations into as few kernels as
the seeds allow (seed 000 §5, seed 001 §5.2): no temporary between an
element-wise chain and the reduction, product or shape operation that
consumes it.

Every operation builds the same kernel text it would run eagerly (the
element-wise, reduction, product and shape builders of _ops.py,
_reductions.py, _linalg.py and _shape.py), with static types (_trace.py); compute() splices those texts
into one function, renaming each kernel's values apart and binding its
parameters to the values of its operands. The composed function is cached
like any other (per process and on disk), keyed by its text: by the
operations, the operands' formats and fills, and the shapes."""
import re

import numpy as np

from . import _capi, _compile, _dispatch, _ops
from ._array import Array, ArrayOperators, asarray, _dtype_of
from ._format import make_format, type_text
from ._trace import set_recorder, Traced

_PARAM = re.compile(r"%(\w+):")
_VALUE = re.compile(r"%([A-Za-z_][\w$.]*|\d+)")
_FUNC = re.compile(r"^sparse_array\.func @([\w.$]+)", re.M)


class Lazy(ArrayOperators, Traced):
    """An array not computed yet: the result of recorded operations on
    Arrays. It has the result's shape, dtype, format and fill_value; any
    numpy-style operation on it records another node; compute() runs the
    whole expression as one compiled function (once: the value is kept)."""

    def __init__(self, shape, dtype, fmt, fill_value, kernel=None, args=(), array=None):
        self.shape = tuple(int(n) for n in shape)
        self.dtype = np.dtype(dtype)
        self.format = fmt
        self.fill_value = self.dtype.type(fill_value)
        self._kernel, self._args, self._array = kernel, tuple(args), array
        self._value = None

    @staticmethod
    def node(kernel, args, shape):
        """The traced result of `kernel` on `args` (Arrays or Lazy)."""
        if shape is None:
            raise TypeError("sparse_array: %s cannot be traced" % kernel.name)
        args = tuple(lazy(a) if isinstance(a, Array) else a for a in args)
        for a in args:
            if not isinstance(a, Lazy):
                raise TypeError("sparse_array: a traced operation on %r" % (a,))
        return Lazy(shape, kernel.dtype, kernel.fmt, kernel.fill, kernel, args)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def signature(self):
        """What a traced kernel depends on (its types are static)."""
        return ("lazy", self.dtype.char, self.format.key(), self.fill_value.tobytes(),
                self.shape)

    def __repr__(self):
        what = "input" if self._array is not None else "expression"
        return "sparse_array.lazy(%s, shape=%s, dtype=%s, fill_value=%r)" % (
            what, self.shape, self.dtype, self.fill_value)

    def compute(self):
        """The value: an Array (a numpy scalar for a rank-0 result)."""
        if self._array is not None:
            return self._array
        if self._value is None:
            self._value = _run(self)
        return self._value

    def todense(self):
        value = self.compute()
        return value.todense() if isinstance(value, Array) else np.asarray(value)

    def __array__(self, dtype=None, copy=None):
        dense = self.todense()
        return dense if dtype is None else dense.astype(dtype)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _dispatch.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        impl = _dispatch.NUMPY_FUNCTIONS.get(func)
        if impl is None or not all(issubclass(t, (Array, Lazy, np.ndarray)) for t in types):
            return NotImplemented
        return impl(*args, **kwargs)


def lazy(x, **kwargs):
    """A Lazy input: `x` (an Array, or anything sa.asarray takes, with its
    format=/fill_value=/dtype= options). Operations on it are recorded
    until compute()."""
    if isinstance(x, Lazy):
        if not kwargs:
            return x
        # Another dtype, format or fill of an expression: recorded too.
        unknown = set(kwargs) - {"dtype", "format", "fill_value"}
        if unknown:
            raise TypeError("sparse_array.lazy: unexpected keyword %s" % ", ".join(sorted(unknown)))
        if kwargs.get("dtype") is not None:
            x = _ops.astype(x, _dtype_of(kwargs["dtype"]))
        fmt = kwargs.get("format")
        fill = kwargs.get("fill_value")
        if fmt is not None or fill is not None:
            fmt = x.format if fmt is None else make_format(fmt, x.ndim)
            x = _ops.convert(x, fmt, x.fill_value if fill is None else fill)
        return x
    a = asarray(x, **kwargs)
    return Lazy(a.shape, a.dtype, a.format, a.fill_value, array=a)


def compute(*exprs):
    """The value of each expression (one compiled function each); a single
    expression gives its value, several a tuple. Arrays and scalars pass
    through."""
    values = tuple(e.compute() if isinstance(e, Lazy) else e for e in exprs)
    return values[0] if len(values) == 1 else values


def compose(root):
    """(text, inputs): one function @kernel over the distinct input Arrays
    of `root`'s expression, computing it, and those Arrays in parameter
    order."""
    order, seen = [], set()

    def visit(node):  # post-order; the graph is a DAG of small depth
        stack = [(node, False)]
        while stack:
            n, done = stack.pop()
            if id(n) in seen and not done:
                continue
            if done:
                order.append(n)
                continue
            seen.add(id(n))
            stack.append((n, True))
            for a in reversed(n._args):
                if id(a) not in seen:
                    stack.append((a, False))
    visit(root)
    names, inputs, params = {}, [], []
    defs, body = {}, []
    for n in order:
        if n._array is not None:
            names[id(n)] = "%%in%d" % len(inputs)
            params.append("%s: %s" % (names[id(n)], _type(n)))
            inputs.append(n._array)
            continue
        text = n._kernel.text
        at = text.index("func.func @kernel(")
        for m in list(_FUNC.finditer(text[:at])):
            name = m.group(1)
            if name not in defs:
                rest = text[m.start():at]
                nxt = _FUNC.search(rest, 1)
                defs[name] = rest[:nxt.start()] if nxt else rest
        header, _, rest = text[at:].partition("\n")
        lines = rest.rstrip().split("\n")
        assert lines[-1] == "}" and lines[-2].lstrip().startswith("return "), text
        formals = _PARAM.findall(header[:header.rindex("->")])
        if len(formals) != len(n._args):
            raise TypeError("sparse_array: a traced kernel with %d parameters has %d operands"
                            % (len(formals), len(n._args)))
        prefix = "%%n%d_" % len(body)
        bind = {f: names[id(a)] for f, a in zip(formals, n._args)}

        def rename(m, bind=bind, prefix=prefix):
            return bind.get(m.group(1)) or prefix + m.group(1)
        result = _VALUE.sub(rename, lines[-2].split()[1])
        body.append("\n".join(_VALUE.sub(rename, line) for line in lines[:-2]))
        names[id(n)] = result
    text = "\n".join(list(defs.values()) + [
        "func.func @kernel(%s) -> %s {" % (", ".join(params), _type(root)),
        "\n".join(body),
        "  return %s : %s" % (names[id(root)], _type(root)),
        "}"])
    return text, inputs


def _type(x):
    return type_text(x.shape, x.dtype, x.format, x.fill_value, static=True)


def _run(root):
    text, inputs = compose(root)
    kernel = _compile.composed_kernel(text, root)
    result = kernel(inputs)
    return result.todense()[()] if not root.shape else result


def explain(operation, *args, **kwargs):
    """What the compiler planned for `operation(*args, **kwargs)` (run
    once), or for a lazy expression (not run): the kernels after
    sparse-array-fuse, -derive-algebra and -build-lattices — their
    iteration algebras, result fills, per-loop lattices and reduction
    strategies (seed 000 §5-7) — as MLIR text."""
    if isinstance(operation, Lazy):
        if operation._array is not None:
            raise ValueError("sparse_array.explain: a lazy input has no kernel")
        source = compose(operation)[0]
    else:
        _compile.forget_last()
        operation(*args, **kwargs)
        last = _compile.last_kernel()
        if last is None:
            raise ValueError("sparse_array.explain: %r ran no kernel" % (operation,))
        source = last.text
    text = _capi.run_passes(_compile.library_prelude(source) + "\n" + source,
                            "sparse-array-fuse,sparse-array-derive-algebra,"
                            "sparse-array-build-lattices")
    start = text.find("func.func @kernel")
    return text[start:text.rfind("}")].rstrip() if start >= 0 else text


# A traced kernel call (_compile.py) records a Lazy node.
set_recorder(Lazy.node)
