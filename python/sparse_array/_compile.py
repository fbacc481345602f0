"""Compiling and calling programs: the standard library prelude, the
module cache (in process, keyed by program text and options, and on disk),
and kernels called on arrays' buffers (`_Kernel`)."""
import ctypes
import os
import re

import numpy as np

from . import _capi
from ._array import Array
from ._trace import record, static_types

_HERE = os.path.dirname(os.path.abspath(__file__))


def _stdlib_text():
    """The standard library and the package's NumPy-semantics functions."""
    for path in (os.path.join(_HERE, "std.mlir"),
                 os.path.join(_HERE, "..", "..", "stdlib", "std.mlir")):
        if os.path.exists(path):
            with open(path) as f, open(os.path.join(_HERE, "numpy.mlir")) as g:
                return f.read() + "\n" + g.read()
    raise ImportError("sparse_array: the standard library std.mlir is missing")


_STDLIB = None
_CACHE = {}
OPTIONS = os.environ.get("SPARSE_ARRAY_OPTIONS", "")


def cache_dir():
    """The on-disk kernel cache: $SPARSE_ARRAY_CACHE_DIR (empty: none),
    else $XDG_CACHE_HOME/sparse_array or ~/.cache/sparse_array. A second
    process loads the kernels the first compiled (a dlopen, not a
    compilation)."""
    env = os.environ.get("SPARSE_ARRAY_CACHE_DIR")
    if env is not None:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "sparse_array")


def _options():
    directory = cache_dir()
    if not directory or ";" in directory:
        return OPTIONS
    return OPTIONS + (";" if OPTIONS else "") + "cache_dir=" + directory
_FUNC = re.compile(r"^sparse_array\.func @([\w.$]+)", re.M)
_REF = re.compile(r"@([\w.$]+)")


def _library():
    """name -> text of each function of the standard library and
    numpy.mlir (each from its `sparse_array.func` line to the next)."""
    global _STDLIB
    if _STDLIB is None:
        text = _stdlib_text()
        starts = [(m.start(), m.group(1)) for m in _FUNC.finditer(text)]
        _STDLIB = {name: text[at:(starts[k + 1][0] if k + 1 < len(starts) else len(text))]
                   for k, (at, name) in enumerate(starts)}
        for name, body in list(_STDLIB.items()):
            narrow = _narrow_text(name, body)
            if narrow:
                _STDLIB[narrow[0]] = narrow[1]
    return _STDLIB


# Per-width constants of the 64-bit library functions: the extremes of
# i64 (min/max identities and annihilators) and the shift widths.
_NARROW_CONSTANTS = [(r"\b9223372036854775807 : i32", "2147483647 : i32"),
                     (r"-9223372036854775808 : i32", "-2147483648 : i32"),
                     (r"arith\.constant 64 : i32", "arith.constant 32 : i32"),
                     (r"arith\.constant 63 : i32", "arith.constant 31 : i32")]


def _narrow_text(name, text):
    """(name, text) of the f32/i32 form of a 64-bit library function, or
    None where the function depends on the f64 layout (ldexp). The forms'
    declared properties are checked by sparse-array-check-properties in
    the tests (python/tests/test_widths.py)."""
    if not re.search(r"_[fiu]64$", name) or "ldexp" in name:
        return None
    narrow = re.sub(r"_([fiu])64$", r"_\g<1>32", name)
    out = re.sub(r"@(\w+)_([fiu])64\b", r"@\1_\g<2>32", text)
    out = re.sub(r"\bf64\b", "f32", out)
    out = re.sub(r"\bi64\b", "i32", out)
    for pattern, replacement in _NARROW_CONSTANTS:
        out = re.sub(pattern, replacement, out)
    return narrow, out


# Inputs with fewer stored entries than this run a kernel compiled without
# OpenMP: two threads save at most tens of microseconds on them, and
# leaving OpenMP out makes the first call's compilation about three times
# faster (no parallel variant of the loops, no outlined regions). Larger
# inputs get the parallel build, compiled once.
PARALLEL_MIN_ENTRIES = int(os.environ.get("SPARSE_ARRAY_PARALLEL_MIN_ENTRIES", 1 << 15))


def library_prelude(text):
    """The library functions `text` names, with those they name."""
    library = _library()
    needed, work = [], [text]
    while work:
        for name in _REF.findall(work.pop()):
            if name in library and name not in needed:
                needed.append(name)
                work.append(library[name])
    return "\n".join(library[name] for name in needed)


def _module(text, parallel=True):
    """The compiled module of `text` with the library functions it names
    (only those: parsing and lowering the whole library cost a third of a
    compile), cached per process; `parallel`: with OpenMP (unless the
    options turn it off)."""
    key = (text, parallel)
    mod = _CACHE.get(key)
    if mod is None:
        prelude = library_prelude(text)
        options = _options()
        if not parallel:
            options += (";" if options else "") + "openmp=0"
        mod = _capi.Module(prelude + "\n" + text, options)
        _CACHE[key] = mod
    return mod


class _Malloced:
    """Owns buffers a kernel returned (freed with the last array or view
    using them), and keeps the arguments of the call alive."""
    __slots__ = ("addresses", "args")

    def __init__(self, addresses, args=()):
        self.addresses = addresses
        self.args = args

    def __del__(self):
        for address in self.addresses:
            _capi.free(address)

    def __reduce__(self):
        # A copy would free the same memory twice; arrays pickle their
        # buffers' contents instead (Array.__reduce__).
        raise TypeError("sparse_array: kernel-owned memory does not pickle")


_CTYPE = {np.dtype(np.float64): ctypes.c_double, np.dtype(np.int64): ctypes.c_int64,
          np.dtype(np.float32): ctypes.c_float,
          np.dtype(np.int32): ctypes.c_int32, np.dtype(np.bool_): ctypes.c_uint8}


def _buffer_dtypes(fmt, dtype):
    out = []
    for level in fmt.levels:
        for width in level.buffer_widths:
            bits = fmt.pos_width if width == "pos" else fmt.crd_width
            out.append(np.dtype(np.int32 if bits == 32 else np.int64))
    out.append(np.dtype(dtype))
    return out


class _Kernel:
    """A compiled function and what its result is: called with arrays (and
    int index arguments), packs their buffers as the packed interface wants
    (docs/storage.md, SparseArrayCAPI.h) without a ctypes object per word."""

    def __init__(self, text, name, rank, dtype, fmt, fill, returns=True):
        self.text, self.name = text, name
        # Compiled on the first call (a traced kernel, _lazy.py, is text for
        # a larger one and never compiled alone): [sequential, parallel].
        self.fns = [None, None]
        self.rank, self.dtype, self.fmt = rank, np.dtype(dtype), fmt
        self.fill = self.dtype.type(fill)
        self.returns = returns
        self.dtypes = _buffer_dtypes(fmt, dtype) if returns else []
        self.nout = 5 * len(self.dtypes) + rank

    def __call__(self, args, shape=None):
        """The result of the kernel on `args`; while tracing, a Lazy node of
        result shape `shape` instead."""
        if static_types():
            return record(self, args, shape)
        global _LAST
        _LAST = self
        words = []
        inputs = set()
        entries = 0
        for a in args:
            if isinstance(a, int):  # an index argument
                words.append(a)
                continue
            words += a._words()
            inputs.update(a._allocations())
            entries += len(a._buffers[-1])
        parallel = entries >= PARALLEL_MIN_ENTRIES
        fn = self.fns[parallel]
        if fn is None:
            fn = self.fns[parallel] = _module(self.text, parallel).lookup(self.name)
        n = len(words)
        # Each argument word, then the results' storage, addressed by the
        # pointer array (one numpy buffer for all).
        block = np.empty(2 * n + 1 + self.nout, dtype=np.int64)
        block[:n] = words
        base = block.ctypes.data
        block[n:2 * n] = base + 8 * np.arange(n, dtype=np.int64)
        out_at = 2 * n + 1
        block[2 * n] = base + 8 * out_at
        _capi.call(fn, base + 8 * n)
        if not self.returns:
            return None
        out = block[out_at:].tolist()
        buffers, owned = [], []
        for k, dt in enumerate(self.dtypes):
            allocated, aligned, offset, size = out[5 * k:5 * k + 4]
            if allocated and allocated not in inputs and allocated not in owned:
                owned.append(allocated)
            buffers.append((aligned + offset * dt.itemsize, size, dt))
        # The views keep the owner of the malloc()ed buffers (and the
        # arguments, whose buffers a result may share) alive.
        owner = _Malloced(owned, args)
        views = [np.asarray(_View(address, size, dt, owner)) if size else np.zeros(0, dt)
                 for address, size, dt in buffers]
        shape = out[5 * len(self.dtypes):]
        return Array(shape, self.dtype, self.fmt, self.fill, views, owner=owner)


class _View:
    """A buffer at an address, seen by numpy through the array interface
    (no copy); numpy keeps this object, hence the owner, alive."""
    __slots__ = ("__array_interface__", "owner")

    def __init__(self, address, size, dtype, owner):
        self.__array_interface__ = {"data": (address, False), "shape": (size,),
                                    "typestr": dtype.str, "version": 3}
        self.owner = owner


def _call(text, name, args, result_shape, result_dtype, result_fmt, result_fill):
    return _Kernel(text, name, len(result_shape), result_dtype, result_fmt, result_fill)(args)


_KERNELS = {}
_LAST = None  # the kernel called last (sa.explain)


def forget_last():
    global _LAST
    _LAST = None


def last_kernel():
    """The kernel called last since forget_last() (sa.explain)."""
    return _LAST


def composed_kernel(text, root):
    """The kernel of a traced expression's composed function (_lazy.py)
    with result `root` (its dtype, format and fill)."""
    key = ("composed", text)
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = _KERNELS[key] = _Kernel(text, "kernel", root.ndim, root.dtype, root.format,
                                         root.fill_value)
    return kernel
