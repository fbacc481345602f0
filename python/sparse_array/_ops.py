"""Operations: each builds a small sparse_array program (the standard
library's exact functions), compiles it once per process (keyed by its
text: element types, formats, fills and which extents are 1) and calls it
on the arrays' buffers."""
import ctypes
import hashlib
import math
import os
import re

import numpy as np

from . import _capi, _promotion
from ._array import Array, asarray
from ._errors import SparseArrayError
from ._format import ELEMENT, Format, make_format, scalar_text, type_text
from ._trace import Traced, static_types, traced

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


# (ufunc name, dtype kind) -> standard library function; numpy semantics.
_UFUNCS = {
    "add": {"f": "add_f64", "i": "add_i64", "b": "or_i1"},
    "subtract": {"f": "sub_f64", "i": "sub_i64"},
    "multiply": {"f": "mul_f64", "i": "mul_i64", "b": "and_i1"},
    "divide": {"f": "div_f64"},
    "power": {"f": "pow_f64"},
    # NumPy's float minimum/maximum differ from IEEE's on signed zeros.
    "minimum": {"f": "np_minimum_f64", "i": "min_i64", "b": "and_i1"},
    "maximum": {"f": "np_maximum_f64", "i": "max_i64", "b": "or_i1"},
    "fmin": {"f": "np_fmin_f64", "i": "min_i64", "b": "and_i1"},
    "fmax": {"f": "np_fmax_f64", "i": "max_i64", "b": "or_i1"},
    "logical_and": {"b": "and_i1"},
    "logical_or": {"b": "or_i1"},
    "logical_xor": {"b": "xor_i1"},
    "bitwise_and": {"i": "and_i64", "b": "and_i1"},
    "bitwise_or": {"i": "or_i64", "b": "or_i1"},
    "bitwise_xor": {"i": "xor_i64", "b": "xor_i1"},
    "left_shift": {"i": "left_shift_i64"},
    "right_shift": {"i": "right_shift_i64"},
    "gcd": {"i": "np_gcd_i64"},
}
# Reductions: numpy's name -> the ufunc whose function combines.
_REDUCTIONS = {"sum": "add", "prod": "multiply", "min": "minimum", "max": "maximum",
               "any": "logical_or", "all": "logical_and"}


def _kind(dtype):
    return {"f": "f", "i": "i", "u": "i", "b": "b"}[np.dtype(dtype).kind]


_FUNCTIONS = {}  # (ufunc name, dtype) -> library function (per call: a lookup)


def _function(ufunc_name, dtype):
    key = (ufunc_name, dtype)
    fn = _FUNCTIONS.get(key)
    if fn is None:
        fn = _FUNCTIONS[key] = _find_function(ufunc_name, dtype)
    return fn


def _find_function(ufunc_name, dtype):
    fn = _UFUNCS.get(ufunc_name, {}).get(_kind(dtype))
    if fn is None or _narrow(fn, dtype) not in _library():
        raise TypeError("sparse_array: %s is not supported for %s arrays" % (ufunc_name, np.dtype(dtype)))
    return _narrow(fn, dtype)


def _narrow(fn, dtype):
    """The 32-bit form of a 64-bit library function for f32/i32 arrays."""
    width = {np.dtype(np.float32): "32", np.dtype(np.int32): "32"}.get(np.dtype(dtype))
    return re.sub(r"_([fiu])64$", r"_\g<1>" + width, fn) if width else fn


def _static_type(a):
    """The array's type with its size-1 extents static (NumPy broadcasting
    repeats them) and every other extent dynamic (all static while
    tracing)."""
    if static_types():
        return type_text(a.shape, a.dtype, a.format, a.fill_value)
    dims = "".join(("1" if n == 1 else "?") + "x" for n in a.shape)
    return type_text(a.shape, a.dtype, a.format, a.fill_value).replace(
        "array<" + "".join("?x" for _ in a.shape), "array<" + dims, 1)


def _result_type(shape, dtype, fmt, fill):
    if static_types():
        return type_text(shape, dtype, fmt, fill)
    dims = "".join(("1" if n == 1 else "?") + "x" for n in shape)
    return type_text(shape, dtype, fmt, fill).replace(
        "array<" + "".join("?x" for _ in shape), "array<" + dims, 1)


# --- calling compiled functions --------------------------------------------

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
            from ._lazy import Lazy
            return Lazy.node(self, args, shape)
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


# --- element-wise ------------------------------------------------------------

def _broadcast_shape(shapes):
    return np.broadcast_shapes(*shapes)


def _is_array(x):
    """An Array or a traced value (_lazy.Lazy)."""
    return isinstance(x, (Array, Traced))


def _converts_exactly(source, dtype):
    """Whether every value of `source` survives a round trip through dtype
    (asked only when NumPy would promote: it copies the operand twice)."""
    with np.errstate(all="ignore"):
        return np.array_equal(source.astype(dtype).astype(source.dtype), source,
                              equal_nan=source.dtype.kind == "f")


def _scalar_operands(inputs, ops):
    """(positions of the scalar inputs, the other operands): scalars are
    constants of the mapped function (_bind_scalars), not dense 0-d
    operands, which would make a function without an annihilator iterate
    every point of the result (850 ms for a * 2.0 on a 20000^2 CSR with
    400k entries, against 3 ms). All scalars: nothing to bind."""
    scalars = [k for k, x in enumerate(inputs) if not _is_array(x) and np.ndim(x) == 0]
    if len(scalars) == len(ops):
        return [], ops
    return scalars, [a for k, a in enumerate(ops) if k not in scalars]


def _operand(x, dtype, compare=False):
    if _is_array(x):
        return x
    if dtype is not None:
        # NumPy's promotion decides (value-based for scalars: int32 + 5 is
        # int32, int64 + 1.5 float64): an operand it would not cast to
        # `dtype` is an error, never silently truncated. A comparison only
        # needs the values: one that converts exactly compares alike
        # (bools >= 1).
        source = x if isinstance(x, np.ndarray) else np.asarray(x)
        promoted = np.result_type(x if np.ndim(x) == 0 else source, np.dtype(dtype))
        if promoted != np.dtype(dtype) and not (compare and _converts_exactly(source, dtype)):
            raise TypeError("sparse_array: an operand of dtype %s with %s arrays (NumPy's result "
                            "would be %s): convert one first" % (source.dtype, np.dtype(dtype),
                                                                 promoted))
    x = np.asarray(x, dtype=dtype)
    # A scalar's fill is its value: the result's fill is then the function
    # of the other operand's fill and it (b = a * 2 + 1 keeps a's pattern).
    return asarray(x, fill_value=x[()] if x.ndim == 0 else None)


def _result_format(operands, rank):
    """The first sparse operand's format at the result's rank (its level
    kinds), else dense."""
    for a in operands:
        if not a.format.is_dense() and a.ndim == rank:
            f = a.format.unblocked()
            return Format(f.levels, f.order)
    for a in operands:
        if not a.format.is_dense():
            return make_format("csr" if rank > 1 else "compressed", rank) if rank else Format([])
    return make_format("dense", rank)


_KERNELS = {}
_LAST = None  # the kernel called last (sa.explain)


def composed_kernel(text, root):
    """The kernel of a traced expression's composed function (_lazy.py)
    with result `root` (its dtype, format and fill)."""
    key = ("composed", text)
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = _KERNELS[key] = _Kernel(text, "kernel", root.ndim, root.dtype, root.format,
                                         root.fill_value)
    return kernel


def explain(operation, *args, **kwargs):
    """What the compiler planned for `operation(*args, **kwargs)` (run
    once), or for a lazy expression (not run): the kernels after
    sparse-array-fuse, -derive-algebra and -build-lattices — their
    iteration algebras, result fills, per-loop lattices and reduction
    strategies (seed 000 §5-7) — as MLIR text."""
    from ._lazy import Lazy, compose
    global _LAST
    if isinstance(operation, Lazy):
        if operation._array is not None:
            raise ValueError("sparse_array.explain: a lazy input has no kernel")
        source = compose(operation)[0]
    else:
        _LAST = None
        operation(*args, **kwargs)
        if _LAST is None:
            raise ValueError("sparse_array.explain: %r ran no kernel" % (operation,))
        source = _LAST.text
    text = _capi.run_passes(library_prelude(source) + "\n" + source,
                            "sparse-array-fuse,sparse-array-derive-algebra,"
                            "sparse-array-build-lattices")
    start = text.find("func.func @kernel")
    return text[start:text.rfind("}")].rstrip() if start >= 0 else text


# Ufuncs whose operands have different dtypes: name -> (operand dtypes,
# function, result dtype).
_MIXED = {"ldexp": ((np.dtype(np.float64), np.dtype(np.int64)), "np_ldexp_f64",
                    np.dtype(np.float64))}


# Comparisons (numpy: bool results; NaN compares unequal to everything):
# ufunc name -> (cmpf predicate, signed cmpi predicate, unsigned for bool).
_COMPARISONS = {"less": ("olt", "slt", "ult"), "less_equal": ("ole", "sle", "ule"),
                "greater": ("ogt", "sgt", "ugt"), "greater_equal": ("oge", "sge", "uge"),
                "equal": ("oeq", "eq", "eq"), "not_equal": ("une", "ne", "ne")}
# Unary arithmetic: ufunc name -> body per dtype kind ("%x": the operand).
_UNARY = {"negative": {"f": "arith.negf %x : {t}",
                       "i": "arith.subi %zero, %x : {t}"},
          "absolute": {"f": "math.absf %x : {t}", "i": "math.absi %x : {t}"},
          "sqrt": {"f": "math.sqrt %x : {t}"}}


# NumPy's element-wise functions written out in MLIR, each exactly what
# NumPy 1.24 computes (its C loops): name -> {dtype kind: (result dtype,
# or None for the operand's; lines)}. In the lines, %x and %y are the
# operands, %r the result, {t} the element type, {min} its smallest
# integer; constants are declared where used.
_FLOAT_DIVMOD = [
    # npy_divmod: fmod, then the quotient (a - mod) / b snapped to an
    # integer and the remainder given the divisor's sign (Python's
    # convention); b == 0 gives a / b and fmod's NaN.
    "%zero = arith.constant 0.0 : {t}",
    "%one = arith.constant 1.0 : {t}",
    "%mod = arith.remf %x, %y : {t}",
    "%q = arith.divf %x, %y : {t}",
    "%bz = arith.cmpf oeq, %y, %zero : {t}",
    "%modnz = arith.cmpf une, %mod, %zero : {t}",
    "%blt = arith.cmpf olt, %y, %zero : {t}",
    "%mlt = arith.cmpf olt, %mod, %zero : {t}",
    "%signs = arith.xori %blt, %mlt : i1",
    "%adjust = arith.andi %modnz, %signs : i1",
]
_FLOOR_DIVIDE_F = _FLOAT_DIVMOD + [
    "%half = arith.constant 0.5 : {t}",
    "%diff = arith.subf %x, %mod : {t}",
    "%div0 = arith.divf %diff, %y : {t}",
    "%div1 = arith.subf %div0, %one : {t}",
    "%div = arith.select %adjust, %div1, %div0 : {t}",
    "%divnz = arith.cmpf une, %div, %zero : {t}",
    "%fl = math.floor %div : {t}",
    "%frac = arith.subf %div, %fl : {t}",
    "%up = arith.cmpf ogt, %frac, %half : {t}",
    "%fl1 = arith.addf %fl, %one : {t}",
    "%snapped = arith.select %up, %fl1, %fl : {t}",
    "%signed0 = math.copysign %zero, %q : {t}",
    "%fd = arith.select %divnz, %snapped, %signed0 : {t}",
    "%r = arith.select %bz, %q, %fd : {t}",
]
_REMAINDER_F = _FLOAT_DIVMOD + [
    "%m1 = arith.addf %mod, %y : {t}",
    "%madj = arith.select %adjust, %m1, %mod : {t}",
    "%signed0 = math.copysign %zero, %y : {t}",
    "%m = arith.select %modnz, %madj, %signed0 : {t}",
    "%r = arith.select %bz, %mod, %m : {t}",
]
# Integers: x // 0 and x % 0 are 0, MIN // -1 is MIN (NumPy warns, never
# traps); the division runs on a divisor that cannot trap.
_SAFE_DIVISOR = [
    "%zero = arith.constant 0 : {t}",
    "%one = arith.constant 1 : {t}",
    "%minus1 = arith.constant -1 : {t}",
    "%min = arith.constant {min} : {t}",
    "%bz = arith.cmpi eq, %y, %zero : {t}",
    "%xmin = arith.cmpi eq, %x, %min : {t}",
    "%bm1 = arith.cmpi eq, %y, %minus1 : {t}",
    "%overflow = arith.andi %xmin, %bm1 : i1",
    "%unsafe = arith.ori %bz, %overflow : i1",
    "%d = arith.select %unsafe, %one, %y : {t}",
]
_FLOOR_DIVIDE_I = _SAFE_DIVISOR + [
    "%fq = arith.floordivsi %x, %d : {t}",
    "%r = arith.select %bz, %zero, %fq : {t}",
]
_REMAINDER_I = _SAFE_DIVISOR + [
    "%rem = arith.remsi %x, %d : {t}",
    "%remnz = arith.cmpi ne, %rem, %zero : {t}",
    "%rlt = arith.cmpi slt, %rem, %zero : {t}",
    "%blt = arith.cmpi slt, %y, %zero : {t}",
    "%signs = arith.xori %rlt, %blt : i1",
    "%adjust = arith.andi %remnz, %signs : i1",
    "%radj = arith.addi %rem, %y : {t}",
    "%r = arith.select %adjust, %radj, %rem : {t}",
]
_FMOD_I = _SAFE_DIVISOR + ["%r = arith.remsi %x, %d : {t}"]
_F64 = np.dtype(np.float64)
_BOOL = np.dtype(np.bool_)
# NumPy's integer power: x^n by squaring (wrapping, as any order of the
# multiplications does); n < 0, where NumPy raises (checked before the call
# where the exponent is known), gives the integer 1 / x^-n.
_POWER_I = [
    "%zero = arith.constant 0 : {t}",
    "%one = arith.constant 1 : {t}",
    "%minus1 = arith.constant -1 : {t}",
    "%w:3 = scf.while (%b = %x, %e = %y, %acc = %one) : ({t}, {t}, {t}) -> ({t}, {t}, {t}) {{",
    "  %more = arith.cmpi sgt, %e, %zero : {t}",
    "  scf.condition(%more) %b, %e, %acc : {t}, {t}, {t}",
    "}} do {{",
    "^bb0(%b: {t}, %e: {t}, %acc: {t}):",
    "  %odd = arith.andi %e, %one : {t}",
    "  %isodd = arith.cmpi ne, %odd, %zero : {t}",
    "  %m = arith.muli %acc, %b : {t}",
    "  %acc2 = arith.select %isodd, %m, %acc : {t}",
    "  %b2 = arith.muli %b, %b : {t}",
    "  %e2 = arith.shrsi %e, %one : {t}",
    "  scf.yield %b2, %e2, %acc2 : {t}, {t}, {t}",
    "}}",
    "%neg = arith.cmpi slt, %y, %zero : {t}",
    "%isone = arith.cmpi eq, %x, %one : {t}",
    "%ism1 = arith.cmpi eq, %x, %minus1 : {t}",
    "%yodd = arith.andi %y, %one : {t}",
    "%yisodd = arith.cmpi ne, %yodd, %zero : {t}",
    "%m1pow = arith.select %yisodd, %minus1, %one : {t}",
    "%negm1 = arith.select %ism1, %m1pow, %zero : {t}",
    "%negv = arith.select %isone, %one, %negm1 : {t}",
    "%r = arith.select %neg, %negv, %w#2 : {t}",
]


def _logical(op):
    """NumPy's logical_and/or/xor of numbers: each operand's truth (!= 0,
    NaN is true), combined."""
    return {"f": (_BOOL, ["%zero = arith.constant 0.0 : {t}",
                          "%a = arith.cmpf une, %x, %zero : {t}",
                          "%b = arith.cmpf une, %y, %zero : {t}",
                          "%%r = arith.%s %%a, %%b : i1" % op]),
            "i": (_BOOL, ["%zero = arith.constant 0 : {t}",
                          "%a = arith.cmpi ne, %x, %zero : {t}",
                          "%b = arith.cmpi ne, %y, %zero : {t}",
                          "%%r = arith.%s %%a, %%b : i1" % op])}


_WRITTEN = {
    "power": {"i": (None, _POWER_I)},
    "logical_and": _logical("andi"),
    "logical_or": _logical("ori"),
    "logical_xor": _logical("xori"),
    "floor": {"f": (None, ["%r = math.floor %x : {t}"])},
    "ceil": {"f": (None, ["%r = math.ceil %x : {t}"])},
    "trunc": {"f": (None, ["%r = math.trunc %x : {t}"])},
    "rint": {"f": (None, ["%r = math.roundeven %x : {t}"])},
    "square": {"f": (None, ["%r = arith.mulf %x, %x : {t}"]),
               "i": (None, ["%r = arith.muli %x, %x : {t}"])},
    "reciprocal": {"f": (None, ["%one = arith.constant 1.0 : {t}",
                                "%r = arith.divf %one, %x : {t}"])},
    # x > 0 ? 1 : x < 0 ? -1 : x == 0 ? 0 : x (a NaN as it is).
    "sign": {"f": (None, ["%zero = arith.constant 0.0 : {t}",
                          "%one = arith.constant 1.0 : {t}",
                          "%minus1 = arith.constant -1.0 : {t}",
                          "%pos = arith.cmpf ogt, %x, %zero : {t}",
                          "%neg = arith.cmpf olt, %x, %zero : {t}",
                          "%eq = arith.cmpf oeq, %x, %zero : {t}",
                          "%z = arith.select %eq, %zero, %x : {t}",
                          "%n = arith.select %neg, %minus1, %z : {t}",
                          "%r = arith.select %pos, %one, %n : {t}"]),
             "i": (None, ["%zero = arith.constant 0 : {t}",
                          "%one = arith.constant 1 : {t}",
                          "%minus1 = arith.constant -1 : {t}",
                          "%pos = arith.cmpi sgt, %x, %zero : {t}",
                          "%neg = arith.cmpi slt, %x, %zero : {t}",
                          "%n = arith.select %neg, %minus1, %zero : {t}",
                          "%r = arith.select %pos, %one, %n : {t}"])},
    "isnan": {"f": (_BOOL, ["%r = arith.cmpf uno, %x, %x : {t}"]),
              "i": (_BOOL, ["%r = arith.constant false"])},
    "isinf": {"f": (_BOOL, ["%a = math.absf %x : {t}",
                            "%inf = arith.constant {inf} : {t}",
                            "%r = arith.cmpf oeq, %a, %inf : {t}"]),
              "i": (_BOOL, ["%r = arith.constant false"])},
    "isfinite": {"f": (_BOOL, ["%a = math.absf %x : {t}",
                               "%inf = arith.constant {inf} : {t}",
                               "%r = arith.cmpf olt, %a, %inf : {t}"]),
                 "i": (_BOOL, ["%r = arith.constant true"])},
    "signbit": {"f": (_BOOL, ["%bits = arith.bitcast %x : {t} to {i}",
                              "%zero = arith.constant 0 : {i}",
                              "%r = arith.cmpi slt, %bits, %zero : {i}"]),
                "i": (_BOOL, ["%zero = arith.constant 0 : {t}",
                              "%r = arith.cmpi slt, %x, %zero : {t}"])},
    "logical_not": {"f": (_BOOL, ["%zero = arith.constant 0.0 : {t}",
                                  "%r = arith.cmpf oeq, %x, %zero : {t}"]),
                    "i": (_BOOL, ["%zero = arith.constant 0 : {t}",
                                  "%r = arith.cmpi eq, %x, %zero : {t}"]),
                    "b": (_BOOL, ["%true = arith.constant true",
                                  "%r = arith.xori %x, %true : i1"])},
    "invert": {"i": (None, ["%ones = arith.constant -1 : {t}",
                            "%r = arith.xori %x, %ones : {t}"]),
               "b": (None, ["%true = arith.constant true",
                            "%r = arith.xori %x, %true : i1"])},
    "floor_divide": {"f": (None, _FLOOR_DIVIDE_F), "i": (None, _FLOOR_DIVIDE_I)},
    "remainder": {"f": (None, _REMAINDER_F), "i": (None, _REMAINDER_I)},
    "fmod": {"f": (None, ["%r = arith.remf %x, %y : {t}"]), "i": (None, _FMOD_I)},
    # Integers divide as float64 (NumPy's true division).
    "divide": {"i": (_F64, ["%a = arith.sitofp %x : {t} to f64",
                            "%b = arith.sitofp %y : {t} to f64",
                            "%r = arith.divf %a, %b : f64"])},
}


def _written_function(ufunc, dtype):
    """(name, result dtype) of the _WRITTEN function of `ufunc` on dtype."""
    dtype = np.dtype(dtype)
    entry = _WRITTEN[ufunc.__name__].get(_kind(dtype))
    if entry is None:
        raise TypeError("sparse_array: %s is not supported for %s arrays" % (ufunc.__name__, dtype))
    rdtype, lines = entry
    rdtype = rdtype or dtype
    elt, relt = ELEMENT[dtype], ELEMENT[rdtype]
    name = "np_%s_%s" % (ufunc.__name__, elt)
    fields = {"t": elt, "i": "i%d" % (dtype.itemsize * 8),
              "min": np.iinfo(dtype).min if dtype.kind == "i" else 0,
              "inf": "0x7FF0000000000000" if dtype.itemsize == 8 else "0x7F800000"}
    params = ", ".join("%%%s: %s" % (v, elt) for v in "xy"[:ufunc.nin])
    text = "\n".join(["sparse_array.func @%s(%s) -> %s {" % (name, params, relt)] +
                     ["  " + line.format(**fields) for line in lines] +
                     ["  sparse_array.yield %%r : %s" % relt, "}"])
    return _generated(name, text), rdtype


def _generated(name, text):
    """Registers a function the package writes (comparisons, unary ops)
    in the library (so _module finds it by name)."""
    library = _library()
    if name not in library:
        library[name] = text
    return name


def _comparison_function(ufunc_name, dtype):
    elt = ELEMENT[np.dtype(dtype)]
    kind = np.dtype(dtype).kind
    pred = _COMPARISONS[ufunc_name][0 if kind == "f" else 2 if kind == "b" else 1]
    op = "arith.cmpf" if kind == "f" else "arith.cmpi"
    name = "np_%s_%s" % (ufunc_name, elt)
    return _generated(name, "\n".join([
        "sparse_array.func @%s(%%x: %s, %%y: %s) -> i1 {" % (name, elt, elt),
        "  %%r = %s %s, %%x, %%y : %s" % (op, pred, elt),
        "  sparse_array.yield %r : i1",
        "}"]))


def _unary_function(ufunc_name, dtype):
    elt = ELEMENT[np.dtype(dtype)]
    kind = np.dtype(dtype).kind
    body = _UNARY[ufunc_name].get(kind)
    if body is None:
        raise TypeError("sparse_array: %s is not supported for %s arrays" % (ufunc_name, np.dtype(dtype)))
    name = "np_%s_%s" % (ufunc_name, elt)
    lines = ["sparse_array.func @%s(%%x: %s) -> %s {" % (name, elt, elt)]
    if "%zero" in body:
        lines.append("  %%zero = arith.constant 0 : %s" % elt)
    lines += ["  %%r = %s" % body.format(t=elt), "  sparse_array.yield %%r : %s" % elt, "}"]
    return _generated(name, "\n".join(lines))


def elementwise(ufunc, inputs):
    if ufunc.__name__ in _MIXED:
        return _mixed(ufunc, inputs)
    # NumPy's type resolution: each operand converted where NumPy converts
    # it (value-based promotion, 0-d operands as scalars, its loop's dtype).
    inputs = _promotion.promoted(ufunc, inputs)
    arrays = [x for x in inputs if _is_array(x)]
    dtype = arrays[0].dtype
    if ufunc.__name__ == "positive" or (ufunc.__name__ == "absolute" and dtype == np.bool_):
        return arrays[0]  # the values as they are (arrays are immutable)
    if ufunc.__name__ == "power" and dtype.kind in "iu" and \
            math.prod(_broadcast_shape([np.shape(x) for x in inputs])):
        _check_integer_exponent(inputs[1])
    for x in inputs:
        if _is_array(x):
            if x.dtype != dtype:
                raise TypeError("sparse_array: %s of %s arrays: convert them to one dtype first" % (
                    ufunc.__name__, ", ".join(str(a.dtype) for a in arrays)))
    ops = [_operand(x, dtype, compare=ufunc.__name__ in _COMPARISONS) for x in inputs]
    shape = _broadcast_shape([a.shape for a in ops])
    scalars, arrays = _scalar_operands(inputs, ops)
    key = ("map", ufunc.__name__, tuple(a.signature() for a in ops), tuple(scalars))
    kernel = _KERNELS.get(key)
    if kernel is None:
        name = ufunc.__name__
        if name in _COMPARISONS:
            fn, rdtype = _comparison_function(name, dtype), np.dtype(np.bool_)
        elif name in _UNARY:
            fn, rdtype = _unary_function(name, dtype), dtype
        elif name in _WRITTEN and _kind(dtype) in _WRITTEN[name]:
            fn, rdtype = _written_function(ufunc, dtype)
        else:
            fn, rdtype = _function(name, dtype), dtype
        if scalars:
            fn = _generated(*_bind_scalars(fn, ops, scalars, [dtype] * len(ops), rdtype))
        kernel = _map_kernel(ufunc, ops, rdtype, len(shape), fn, operands=arrays)
        if name in ("maximum", "minimum", "fmax", "fmin"):
            # Each result entry is one of its operands' (a constant's too).
            kernel.selects = [ops[k].fill_value for k in scalars]
        _KERNELS[key] = kernel
    return kernel(arrays, shape)


def _check_integer_exponent(e):
    """NumPy refuses negative integer exponents: so does the package where
    it knows them (a scalar, an eager array's stored values and fill)."""
    if _is_array(e) and not isinstance(e, Array):
        return  # known only when the expression runs (docs/python.md)
    if isinstance(e, Array):
        values = e._buffers[-1]
        negative = bool((values < 0).any()) or (e.fill_value < 0 and e.nnz < e.size)
    else:
        negative = bool(np.any(np.asarray(e) < 0))
    if negative:
        raise ValueError("Integers to negative integer powers are not allowed.")


def _bind_scalars(fn, ops, scalars, dtypes, rdtype):
    """(name, text) of fn with the scalar operands at `scalars` (0-d
    arrays whose fill is their value) as constants: a function of the
    other operands. `dtypes`: fn's operand types."""
    elts, relt = [ELEMENT[np.dtype(d)] for d in dtypes], ELEMENT[np.dtype(rdtype)]
    consts = tuple(scalar_text(ops[k].fill_value, dtypes[k]) for k in scalars)
    name = "%s_with_%s" % (fn, hashlib.sha1(repr((tuple(scalars), consts)).encode()).hexdigest()[:12])
    params, args, lines = [], [], []
    for k in range(len(ops)):
        if k in scalars:
            lines.append("  %%c%d = arith.constant %s" % (k, consts[scalars.index(k)]))
            args.append("%%c%d" % k)
        else:
            params.append("%%x%d: %s" % (k, elts[k]))
            args.append("%%x%d" % k)
    return name, "\n".join(
        ["sparse_array.func @%s(%s) -> %s {" % (name, ", ".join(params), relt)] + lines + [
            "  %%r = sparse_array.apply @%s(%s) : (%s) -> %s" % (
                fn, ", ".join(args), ", ".join(elts), relt),
            "  sparse_array.yield %r : " + relt,
            "}"])


def _mixed(ufunc, inputs):
    types, fn, dtype = _MIXED[ufunc.__name__]
    if len(inputs) != len(types):
        raise TypeError("%s takes %d operands" % (ufunc.__name__, len(types)))
    if ufunc is np.ldexp and _promotion.loop_dtypes(ufunc, inputs)[0] == np.float32:
        # NumPy's float32 loop (for a NumPy float32 operand too): x * 2^e in
        # float64 is exact for every float32 x (its exponent range is
        # wider), then rounded once.
        x = inputs[0]
        x = astype(x, np.float64) if _is_array(x) else np.asarray(x).astype(np.float64)
        return astype(_mixed(ufunc, [x, inputs[1]]), np.float32)
    ops = []
    for x, dt in zip(inputs, types):
        if _is_array(x) and x.dtype == np.int32 and dt == np.int64:
            # NumPy's own exponent type (ldexp's int): sign-extended, a map
            # that fuses into the kernel.
            x = widen(x)
        if _is_array(x) and x.dtype != dt:
            raise TypeError("sparse_array: %s wants %s operands, got %s" % (
                ufunc.__name__, ", ".join(map(str, types)), x.dtype))
        ops.append(_operand(x, dt))
    shape = _broadcast_shape([a.shape for a in ops])
    scalars, arrays = _scalar_operands(inputs, ops)
    key = ("map", ufunc.__name__, tuple(a.signature() for a in ops), tuple(scalars))
    kernel = _KERNELS.get(key)
    if kernel is None:
        if scalars:
            fn = _generated(*_bind_scalars(fn, ops, scalars, types, dtype))
        kernel = _KERNELS[key] = _map_kernel(ufunc, ops, dtype, len(shape), fn, operands=arrays)
    return kernel(arrays, shape)


class _Where:
    """np.where(c, x, y) as _map_kernel's ufunc (it folds the fills)."""
    __name__ = "where"

    def __call__(self, c, x, y):
        return np.where(c, x, y)


_WHERE = _Where()


def _where_function(dtype):
    elt = ELEMENT[np.dtype(dtype)]
    name = "np_where_%s" % elt
    return _generated(name, "\n".join([
        "sparse_array.func @%s(%%c: i1, %%x: %s, %%y: %s) -> %s {" % (name, elt, elt, elt),
        "  %%r = arith.select %%c, %%x, %%y : %s" % elt,
        "  sparse_array.yield %%r : %s" % elt,
        "}"]))


@traced
def where(condition, x=None, y=None):
    """np.where(condition, x, y): x where condition holds, else y,
    broadcast together; a value of x or y as it is (NaN payloads, -0.0).
    x and y take one dtype, as every element-wise operation (scalars by
    NumPy's promotion); a condition that is not bool is `!= 0`."""
    if x is None or y is None:
        if x is None and y is None:
            raise TypeError("sparse_array: np.where(condition) alone (the coordinates of "
                            "nonzero entries) is not supported; give x and y")
        raise ValueError("either both or neither of x and y should be given")
    if _is_array(condition):
        if condition.dtype != np.bool_:
            condition = np.not_equal(condition, condition.dtype.type(0))
    else:
        condition = np.asarray(condition).astype(bool)
    arrays = [v for v in (x, y) if _is_array(v)]
    if arrays:
        dtype = arrays[0].dtype
        if any(a.dtype != dtype for a in arrays):
            raise TypeError("sparse_array: where of %s arrays: convert them to one dtype first" % (
                ", ".join(str(a.dtype) for a in arrays)))
    else:
        dtype = np.result_type(x, y)
        if dtype not in ELEMENT:
            raise TypeError("dtype %s is not supported (float64, float32, int64, int32, bool)" % dtype)
    inputs = [condition, x, y]
    ops = [_operand(condition, np.bool_), _operand(x, dtype), _operand(y, dtype)]
    shape = _broadcast_shape([a.shape for a in ops])
    scalars, operands = _scalar_operands(inputs, ops)
    key = ("map", "where", tuple(a.signature() for a in ops), tuple(scalars))
    kernel = _KERNELS.get(key)
    if kernel is None:
        fn = _where_function(dtype)
        if scalars:
            fn = _generated(*_bind_scalars(fn, ops, scalars, [np.bool_, dtype, dtype], dtype))
        kernel = _map_kernel(_WHERE, ops, dtype, len(shape), fn, operands=operands)
        # Each entry is x's or y's (or a bound constant's): zero signs kept.
        kernel.selects = [ops[k].fill_value for k in scalars if k > 0]
        _KERNELS[key] = kernel
    return kernel(operands, shape)


class _AsType:
    """x.astype(dtype) as _map_kernel's ufunc (it converts the fill)."""
    __name__ = "astype"

    def __init__(self, dtype):
        self.dtype = dtype

    def __call__(self, x):
        return np.asarray(x).astype(self.dtype)


def _cast_lines(source, target):
    """MLIR lines converting %x of `source` to %r of `target` as NumPy's C
    casts do on x86: floats round to nearest, integers wrap, a float out of
    an integer's range (NaN and inf too) is its smallest value (cvttsd2si's
    "integer indefinite"; LLVM's fptosi would be poison there), anything to
    bool is `!= 0` (NaN is True)."""
    s, t = ELEMENT[source], ELEMENT[target]
    sk, tk = source.kind, target.kind
    if tk == "b":
        if sk == "f":
            return ["%zero = arith.constant 0.0 : " + s, "%r = arith.cmpf une, %x, %zero : " + s]
        return ["%zero = arith.constant 0 : " + s, "%r = arith.cmpi ne, %x, %zero : " + s]
    if sk == "b":
        op = "arith.uitofp" if tk == "f" else "arith.extui"
        return ["%%r = %s %%x : i1 to %s" % (op, t)]
    if sk == "f" and tk == "f":
        op = "arith.extf" if target.itemsize > source.itemsize else "arith.truncf"
        return ["%%r = %s %%x : %s to %s" % (op, s, t)]
    if sk == "i" and tk == "f":
        return ["%%r = arith.sitofp %%x : %s to %s" % (s, t)]
    if sk == "i":
        op = "arith.extsi" if target.itemsize > source.itemsize else "arith.trunci"
        return ["%%r = %s %%x : %s to %s" % (op, s, t)]
    low = np.iinfo(target).min
    bound = scalar_text(source.type(low), source)
    return ["%%low = arith.constant %s" % bound,
            "%%high = arith.negf %%low : %s" % s,
            "%%above = arith.cmpf ogt, %%x, %%low : %s" % s,
            "%%below = arith.cmpf olt, %%x, %%high : %s" % s,
            "%in = arith.andi %above, %below : i1",
            "%%zero = arith.constant 0.0 : %s" % s,
            "%%safe = arith.select %%in, %%x, %%zero : %s" % s,
            "%%c = arith.fptosi %%safe : %s to %s" % (s, t),
            "%%min = arith.constant %d : %s" % (low, t),
            "%%r = arith.select %%in, %%c, %%min : %s" % t]


@traced
def astype(a, dtype):
    """a.astype(dtype): each value (and the fill) converted as NumPy does."""
    a = a if _is_array(a) else asarray(a)
    dtype = np.dtype(dtype)
    if dtype not in ELEMENT:
        raise TypeError("dtype %s is not supported (float64, float32, int64, int32, bool)" % dtype)
    if dtype == a.dtype:
        return a  # arrays are immutable: the same values
    key = ("map", "astype", a.signature(), dtype.str)
    kernel = _KERNELS.get(key)
    if kernel is None:
        name = "np_cast_%s_%s" % (ELEMENT[a.dtype], ELEMENT[dtype])
        fn = _generated(name, "\n".join(
            ["sparse_array.func @%s(%%x: %s) -> %s {" % (name, ELEMENT[a.dtype], ELEMENT[dtype])] +
            ["  " + line for line in _cast_lines(a.dtype, dtype)] +
            ["  sparse_array.yield %%r : %s" % ELEMENT[dtype], "}"]))
        kernel = _KERNELS[key] = _map_kernel(_AsType(dtype), [a], dtype, a.ndim, fn)
    return kernel([a], a.shape)


@traced
def convert(a, fmt, fill):
    """`a` stored in format `fmt` with fill `fill`: a copying map whose
    result type says so (entries that differ from the new fill, bitwise,
    are stored). Traced like any kernel (sa.lazy(x, format=...) of an
    expression)."""
    fill = a.dtype.type(fill)
    if fmt == a.format and not _storage_differs(fill, a.fill_value):
        return a
    key = ("convert", a.signature(), fmt.key(), fill.tobytes())
    kernel = _KERNELS.get(key)
    if kernel is None:
        elt = ELEMENT[a.dtype]
        name = "np_copy_%s" % elt
        fn = _generated(name, "sparse_array.func @%s(%%x: %s) -> %s {\n"
                              "  sparse_array.yield %%x : %s\n}" % (name, elt, elt, elt))
        rtype = _result_type(a.shape, a.dtype, fmt, fill)
        t = _static_type(a)
        text = "\n".join([
            "func.func @kernel(%%a0: %s) -> %s {" % (t, rtype),
            "  %%r = sparse_array.map @%s(%%a0) : (%s) -> %s" % (fn, t, rtype),
            "  return %r : " + rtype,
            "}"])
        kernel = _KERNELS[key] = _Kernel(text, "kernel", a.ndim, a.dtype, fmt, fill)
    return kernel([a], a.shape)


def restore(a, fmt):
    """`a`'s stored entries, explicit fills included, in format `fmt` (the
    runtime's conversion, which knows every level format)."""
    if fmt == a.format:
        return a
    key = ("restore", a.signature(), fmt.key())
    kernel = _KERNELS.get(key)
    if kernel is None:
        rtype = _result_type(a.shape, a.dtype, fmt, a.fill_value)
        t = _static_type(a)
        text = "\n".join([
            "func.func @kernel(%%a0: %s) -> %s {" % (t, rtype),
            "  %%r = sparse_array.convert %%a0 : %s to %s" % (t, rtype),
            "  return %r : " + rtype,
            "}"])
        kernel = _KERNELS[key] = _Kernel(text, "kernel", a.ndim, a.dtype, fmt, a.fill_value)
    return kernel([a], a.shape)


def _storage_differs(x, y):
    from . import _storage
    return bool(_storage.differs(np.array([x]), y)[0])


def _clip_values(x, lo, hi):
    """NumPy 1.24's clip loop on values (`lo`/`hi` None: no bound): a NaN x
    stays, else max by `>` (the bound on a tie: clip(0.0, -0.0, 1) is
    -0.0), then min by `<`."""
    with np.errstate(all="ignore"):
        m = x if lo is None else np.where(np.isnan(x) if x.dtype.kind == "f" else False, x,
                                          np.where(x > lo, x, lo))
        if hi is None:
            return m
        return np.where(np.isnan(m) if m.dtype.kind == "f" else False, m, np.where(m < hi, m, hi))


class _Clip:
    """clip as _map_kernel's ufunc (the fill of the fills)."""
    __name__ = "clip"

    def __init__(self, dtype, has_lo, has_hi, nan_free=(False, False)):
        self.dtype, self.has_lo, self.has_hi = dtype, has_lo, has_hi
        self.nan_free = nan_free

    def __call__(self, x, *bounds):
        bounds = list(bounds)
        lo = bounds.pop(0).astype(self.dtype) if self.has_lo else None
        hi = bounds.pop(0).astype(self.dtype) if self.has_hi else None
        # A 0-d bound holding NaN is no bound (as a NumPy scalar's).
        if self.nan_free[0] and lo is not None and np.isnan(lo):
            lo = None
        if self.nan_free[1] and hi is not None and np.isnan(hi):
            hi = None
        return _clip_values(np.asarray(x, dtype=self.dtype), lo, hi)


def _clip_function(dtype, has_lo, has_hi, nan_free=(False, False)):
    """NumPy 1.24's clip loop; a bound in `nan_free` (a 0-d array's, known
    only when the kernel runs) is no bound when it is NaN."""
    elt = ELEMENT[np.dtype(dtype)]
    floating = np.dtype(dtype).kind == "f"
    nan_free = nan_free if floating else (False, False)
    name = "np_clip%s%s%s_%s" % ("_lo" if has_lo else "", "_hi" if has_hi else "",
                                 "_nanfree%d%d" % nan_free if any(nan_free) else "", elt)
    params = ["%%x: %s" % elt] + (["%%lo: %s" % elt] if has_lo else []) + (
        ["%%hi: %s" % elt] if has_hi else [])
    gt, lt = ("arith.cmpf ogt", "arith.cmpf olt") if floating else (
        ("arith.cmpi ugt", "arith.cmpi ult") if np.dtype(dtype) == np.bool_ else
        ("arith.cmpi sgt", "arith.cmpi slt"))
    lines, v = [], "%x"
    # max by `>` then min by `<`, each keeping a NaN it is given.
    for bound, cmp, tag, free in (("%lo", gt, "m", nan_free[0]), ("%hi", lt, "r", nan_free[1])):
        if (bound == "%lo" and not has_lo) or (bound == "%hi" and not has_hi):
            continue
        lines += ["%%%s_keep = %s, %s, %s : %s" % (tag, cmp, v, bound, elt),
                  "%%%s = arith.select %%%s_keep, %s, %s : %s" % (tag, tag, v, bound, elt)]
        if floating:
            lines += ["%%%s_nan = arith.cmpf uno, %s, %s : %s" % (tag, v, v, elt)]
            if free:
                lines += ["%%%s_bnan = arith.cmpf uno, %s, %s : %s" % (tag, bound, bound, elt),
                          "%%%s_nan2 = arith.ori %%%s_nan, %%%s_bnan : i1" % (tag, tag, tag)]
            lines += ["%%%s_kept = arith.select %%%s_nan%s, %s, %%%s : %s" % (
                tag, tag, "2" if free else "", v, tag, elt)]
            v = "%%%s_kept" % tag
        else:
            v = "%%%s" % tag
    return _generated(name, "\n".join(
        ["sparse_array.func @%s(%s) -> %s {" % (name, ", ".join(params), elt)] +
        ["  " + line for line in lines] + ["  sparse_array.yield %s : %s" % (v, elt), "}"]))


@traced
def clip(a, a_min=None, a_max=None, out=None, **kwargs):
    """np.clip(a, a_min, a_max): NumPy 1.24's (a NaN of `a` stays, a scalar
    NaN bound means no bound, an array bound's NaN gives NaN; on a tie the
    bound's value, so -0.0 and 0.0 follow it)."""
    if out is not None or kwargs:
        raise TypeError("sparse_array: clip takes no out= or other keywords")
    a = a if _is_array(a) else asarray(a)
    if a_min is None and a_max is None:
        raise ValueError("One of max or min must be given")

    def zero_d(b):
        # A 0-d Array's value is a scalar's (NumPy treats 0-d arrays so).
        return b.todense()[()] if isinstance(b, Array) and b.ndim == 0 else b

    def scalar_nan(b):
        return b is not None and not _is_array(b) and np.ndim(b) == 0 and np.isnan(b)
    a_min, a_max = zero_d(a_min), zero_d(a_max)
    # NumPy 1.24 clips by -inf/inf (Python floats) for a scalar NaN bound.
    a_min = -float("inf") if scalar_nan(a_min) else a_min
    a_max = float("inf") if scalar_nan(a_max) else a_max
    # Its type resolution: um.clip with both bounds, else maximum/minimum.
    from numpy.core import umath
    ufunc = umath.clip if a_min is not None and a_max is not None else (
        np.minimum if a_min is None else np.maximum)
    bounds = [b for b in (a_min, a_max) if b is not None]
    dtypes = _promotion.loop_dtypes(ufunc, [a] + bounds)
    if a.dtype != dtypes[0]:
        a = astype(a, dtypes[0])
    dtype = a.dtype

    def infinite(b, sign):
        return (b is not None and not _is_array(b) and np.ndim(b) == 0 and
                np.asarray(b).dtype.kind == "f" and np.isinf(b) and (b > 0) == (sign > 0))
    # An infinite scalar bound clips nothing (NaN and -0.0 stay).
    if dtype.kind == "f":
        a_min = None if infinite(a_min, -1) else a_min
        a_max = None if infinite(a_max, 1) else a_max
    a_min = astype(a_min, dtype) if _is_array(a_min) and a_min.dtype != dtype else a_min
    a_max = astype(a_max, dtype) if _is_array(a_max) and a_max.dtype != dtype else a_max
    if a_min is None and a_max is None:
        return a
    # A lazy 0-d bound's value is known only when it runs: NaN is no bound.
    nan_free = tuple(b is not None and _is_array(b) and b.ndim == 0 for b in (a_min, a_max))
    inputs = [a] + [b for b in (a_min, a_max) if b is not None]
    for b in inputs[1:]:
        if _is_array(b) and b.dtype != dtype:
            raise TypeError("sparse_array: clip of a %s array by %s bounds: convert one first" % (
                dtype, b.dtype))
    ops = [_operand(x, dtype) for x in inputs]
    shape = _broadcast_shape([x.shape for x in ops])
    if shape != a.shape:
        raise ValueError("sparse_array: clip's bounds of shapes %s do not broadcast to %s" % (
            [x.shape for x in ops[1:]], a.shape))
    scalars, operands = _scalar_operands(inputs, ops)
    has = (a_min is not None, a_max is not None)
    key = ("map", "clip", has, nan_free, tuple(x.signature() for x in ops), tuple(scalars))
    kernel = _KERNELS.get(key)
    if kernel is None:
        fn = _clip_function(dtype, *has, nan_free=nan_free)
        if scalars:
            fn = _generated(*_bind_scalars(fn, ops, scalars, [dtype] * len(ops), dtype))
        kernel = _map_kernel(_Clip(dtype, *has, nan_free=nan_free), ops, dtype, a.ndim, fn,
                             operands=operands)
        kernel.selects = [ops[k].fill_value for k in scalars]
        _KERNELS[key] = kernel
    return kernel(operands, shape)


def _map_kernel(ufunc, ops, dtype, rank, fn=None, operands=None):
    """The map of fn over `operands` (default: ops); the fill is ufunc's
    on the fills of `ops` (every operand, scalars bound into fn too)."""
    fn = fn or _function(ufunc.__name__, dtype)
    shape = _broadcast_shape([a.shape for a in ops])
    # The result's fill: the function of the operands' fills (NumPy's own
    # semantics; any fill is exact, this one stores the fewest entries).
    with np.errstate(all="ignore"):
        try:
            fill = ufunc(*[np.array(a.fill_value, dtype=a.dtype) for a in ops])
        except ValueError:
            # An integer exponent's negative fill: for eager operands
            # _check_integer_exponent let it through only when no entry
            # holds it (an empty array, every entry stored), so no result
            # entry is the fills' power. A lazy one may hold it: refused,
            # as NumPy refuses.
            if (getattr(ufunc, "__name__", "") != "power" or
                    not all(isinstance(a, Array) for a in ops)):
                raise
            fill = 0
    fill = np.array(fill).astype(dtype)
    ops = ops if operands is None else operands
    fmt = _result_format(ops, rank)
    rtype = _result_type(shape, dtype, fmt, fill)
    types = [_static_type(a) for a in ops]
    params = ", ".join("%%a%d: %s" % (k, t) for k, t in enumerate(types))
    text = "\n".join([
        "func.func @kernel(%s) -> %s {" % (params, rtype),
        "  %%r = sparse_array.map @%s(%s) : (%s) -> %s" % (
            fn, ", ".join("%%a%d" % k for k in range(len(ops))), ", ".join(types), rtype),
        "  return %r : " + rtype,
        "}"])
    return _Kernel(text, "kernel", rank, dtype, fmt, fill)


@traced
def map_function(f, inputs):
    """A user function (sa.function) applied element-wise with
    broadcasting."""
    types = [np.dtype(_DT[t]) for t in f.arg_types]
    if len(inputs) != len(types):
        raise TypeError("%s takes %d arrays, %d given" % (f.__name__, len(types), len(inputs)))
    ops = []
    for x, dt in zip(inputs, types):
        if _is_array(x) and x.dtype != dt:
            raise TypeError("%s: an operand of dtype %s where %s is declared" % (f.__name__, x.dtype, dt))
        ops.append(_operand(x, dt))
    shape = _broadcast_shape([a.shape for a in ops])
    scalars, arrays = _scalar_operands(inputs, ops)
    key = ("map", f.text, tuple(a.signature() for a in ops), tuple(scalars))
    kernel = _KERNELS.get(key)
    if kernel is None:
        dtype = f.dtype
        fill = f.evaluate(*[a.fill_value for a in ops])
        fill = np.array(0 if fill is None else fill).astype(dtype)
        rank = len(shape)
        fmt = _result_format(arrays, rank)
        rtype = _result_type(shape, dtype, fmt, fill)
        tys = [_static_type(a) for a in arrays]
        params = ", ".join("%%a%d: %s" % (k, t) for k, t in enumerate(tys))
        fn, texts = f.__name__, [f.text]
        if scalars:
            fn, bound = _bind_scalars(f.__name__, ops, scalars, types, dtype)
            texts.append(bound)
        text = "\n".join(texts + [
            "func.func @kernel(%s) -> %s {" % (params, rtype),
            "  %%r = sparse_array.map @%s(%s) : (%s) -> %s" % (
                fn, ", ".join("%%a%d" % k for k in range(len(arrays))), ", ".join(tys), rtype),
            "  return %r : " + rtype,
            "}"])
        kernel = _KERNELS[key] = _Kernel(text, "kernel", rank, dtype, fmt, fill)
    return kernel(arrays, shape)


_DT = {"f64": np.float64, "i64": np.int64, "i1": np.bool_}


# ufunc.reduce of the ufuncs a reduction folds with: name of the reduction.
_UFUNC_REDUCTIONS = {name: reduction for reduction, name in _REDUCTIONS.items()}


@traced
def array_ufunc(ufunc, method, inputs, kwargs):
    if kwargs.get("out") is not None:
        return NotImplemented
    if method == "reduce" and ufunc.__name__ in _UFUNC_REDUCTIONS and len(inputs) == 1:
        # np.add.reduce(a, axis=0, keepdims=False): NumPy's default axis is 0.
        extra = set(kwargs) - {"axis", "keepdims", "out"}
        if extra or kwargs.get("dtype") is not None:
            raise TypeError("sparse_array: %s.reduce takes axis and keepdims only, not %s" % (
                ufunc.__name__, ", ".join(sorted(extra))))
        return reduce(_UFUNC_REDUCTIONS[ufunc.__name__], inputs[0], kwargs.get("axis", 0),
                      kwargs.get("keepdims", False))
    if method != "__call__":
        return NotImplemented
    if ufunc is np.matmul:
        if kwargs:
            raise TypeError("sparse_array: np.matmul takes no keywords")
        return matmul(*inputs)
    return elementwise(ufunc, inputs)


# --- reductions ----------------------------------------------------------------

_WIDEN_I32 = """sparse_array.func @np_extsi_i32_i64(%x: i32) -> i64 {
  %r = arith.extsi %x : i32 to i64
  sparse_array.yield %r : i64
}"""


def widen(a):
    """An int32 array as int64 (sign-extended; its fill too): a map that
    fuses into the kernel reading it."""
    key = ("widen", a.signature())
    kernel = _KERNELS.get(key)
    if kernel is None:
        fill = np.int64(a.fill_value)
        fmt = a.format.unblocked()
        fmt = Format(fmt.levels, fmt.order) if not fmt.is_dense() else fmt
        t, rtype = _static_type(a), _result_type(a.shape, np.int64, fmt, fill)
        text = "\n".join([
            _WIDEN_I32,
            "func.func @kernel(%%a0: %s) -> %s {" % (t, rtype),
            "  %%r = sparse_array.map @np_extsi_i32_i64(%%a0) : (%s) -> %s" % (t, rtype),
            "  return %r : " + rtype,
            "}"])
        kernel = _KERNELS[key] = _Kernel(text, "kernel", a.ndim, np.int64, fmt, fill)
    return kernel([a], a.shape)


def _zero_signs(a):
    """The signs (signbit) of the zeros `a` may hold, stored or fill; None
    when not known. A traced value is known when it is an input, or when a
    map that yields one of its operands (np.maximum, np.minimum, fmax,
    fmin: `selects`, with its bound constants) made it from known ones."""
    if a.dtype.kind != "f":
        return set()
    signs = {bool(np.signbit(a.fill_value))} if a.fill_value == 0 else set()
    if isinstance(a, Array):
        values = a._buffers[-1]
        zero = values == 0
        if zero.any():
            negative = np.signbit(values[zero])
            signs.update({True} if negative.all() else {False} if not negative.any() else {True, False})
        return signs
    if getattr(a, "_array", None) is not None:
        return _zero_signs(a._array)
    constants = getattr(getattr(a, "_kernel", None), "selects", None)
    if constants is None:
        return None
    signs.update(bool(np.signbit(c)) for c in constants if c == 0)
    for arg in a._args:
        more = _zero_signs(arg)
        if more is None:
            return None
        signs |= more
    return signs


def _zeros_of_one_sign(*arrays):
    """Whether every zero the arrays hold, stored or fill, has one sign
    (no when not known)."""
    signs = set()
    for a in arrays:
        more = _zero_signs(a)
        if more is None:
            return False
        signs |= more
    return len(signs) <= 1


# NumPy's float minimum/maximum differ from IEEE's only on a tie of +0.0
# and -0.0; without such ties the standard library's commutative min/max
# (whose reductions skip the fills) give the same values.
_IEEE_WITHOUT_SIGNED_ZERO_TIES = {"minimum": "min_f64", "maximum": "max_f64"}  # _narrow()ed


_COMBINERS = {}  # (ufunc name, dtype, one_sign_zeros) -> _combiner's result


def _combiner(op, dtype, one_sign_zeros=False):
    """(function name, its text or "", fold(value, count) -> the fold of
    `count` copies) for a ufunc name or a user Function."""
    if isinstance(op, str):
        key = (op, dtype, one_sign_zeros)
        found = _COMBINERS.get(key)
        if found is None:
            found = _COMBINERS[key] = _make_combiner(op, dtype, one_sign_zeros)
        return found
    return _make_combiner(op, dtype, one_sign_zeros)


def _make_combiner(op, dtype, one_sign_zeros):
    from ._function import Function
    if isinstance(op, Function):
        if [np.dtype(_DT[t]) for t in op.arg_types] != [dtype, dtype] or op.dtype != dtype:
            raise TypeError("%s does not combine two %s values into one" % (op.__name__, dtype))

        def fold(value, count):
            # Any fill is exact; past a few thousand terms the fold of
            # copies has settled for every function of interest.
            acc = value if count else None
            for _ in range(min(count, 4096) - 1):
                acc = op.evaluate(acc, value)
                if acc is None:
                    return None
            return acc
        return op.__name__, op.text, fold
    ufunc = getattr(np, op)

    def fold(value, count):
        with np.errstate(all="ignore"):
            if count:
                # A left fold, as the kernels fold (not NumPy's pairwise sum).
                return ufunc.accumulate(np.full(count, value, dtype=dtype))[-1]
            return ufunc.reduce(np.zeros(0, dtype=dtype)) if ufunc.identity is not None else value
    if one_sign_zeros and dtype.kind == "f" and op in _IEEE_WITHOUT_SIGNED_ZERO_TIES:
        return _narrow(_IEEE_WITHOUT_SIGNED_ZERO_TIES[op], dtype), "", fold
    return _function(ufunc.__name__, dtype), "", fold


@traced
def reduce(name, a, axis=None, keepdims=False):
    """Reduction of `a` over `axis` by a numpy name (sum, prod, min, max,
    any, all) or a user function (sa.function)."""
    dtype = a.dtype
    if isinstance(name, str):
        if name in ("any", "all") and dtype != np.bool_:
            # NumPy's truth of a value: != 0 (NaN is true).
            a, dtype = np.not_equal(a, dtype.type(0)), np.dtype(np.bool_)
        if name in ("sum", "prod") and dtype == np.int32:
            # numpy sums and multiplies int32 in int64 (the platform int).
            a, dtype = widen(a), np.dtype(np.int64)
        if name in ("sum", "prod") and dtype == np.bool_:
            # ... and bools too (True + True is 2).
            a, dtype = astype(a, np.int64), np.dtype(np.int64)
        op = _REDUCTIONS[name]
    else:
        op = name
    # The zero-sign check is a pass over the values: only for min/max.
    fn, extra, fold = _combiner(op, dtype, one_sign_zeros=(
        op in _IEEE_WITHOUT_SIGNED_ZERO_TIES and _zeros_of_one_sign(a)))
    given = (axis if isinstance(axis, tuple) else (axis,)) if axis is not None else ()
    if a.ndim == 0 and given in ((0,), (-1,)):
        given = ()  # NumPy reduces a 0-d array over axis 0 too (over nothing)
    for d in given:
        if not -a.ndim <= d < a.ndim:
            raise np.exceptions.AxisError(d, a.ndim) if hasattr(np, "exceptions") else \
                np.AxisError(d, a.ndim)
    axes = tuple(range(a.ndim)) if axis is None else tuple(d % a.ndim for d in given)
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate axis in %r" % (axis,))
    # The fold is over the reduced entries in C order whatever order the
    # axes are named in (NumPy's a.sum(axis=(2, 0)) is a.sum(axis=(0, 2))).
    axes = tuple(sorted(axes))
    if not axes:
        # Nothing reduced (axis=(), or a 0-d array): NumPy folds each entry
        # alone, into the ufunc's identity where it has one (0.0 + -0.0 is
        # 0.0), else the entry itself.
        r = a
        if isinstance(op, str) and getattr(np, op).identity is not None:
            r = getattr(np, op)(dtype.type(getattr(np, op).identity), a)
        if a.ndim == 0 and not static_types():
            return np.array(r.todense()[()], dtype=dtype)[()]
        return r
    kept = [d for d in range(a.ndim) if d not in axes]
    shape = tuple(a.shape[d] for d in kept)
    count = math.prod(a.shape[d] for d in axes)
    if count == 0 and isinstance(op, str):
        # NumPy's empty reductions: the ufunc's identity (+0.0 for sum,
        # where the exact add_f64's identity is -0.0), or an error.
        ufunc = getattr(np, op)
        if ufunc.identity is None:
            raise ValueError("zero-size array to reduction operation %s which has no identity" % op)
        empty = np.full(shape if not keepdims else
                        [1 if d in axes else a.shape[d] for d in range(a.ndim)],
                        ufunc.identity, dtype=dtype)
        return empty[()] if not empty.ndim else asarray(empty)
    # The result's fill depends on how many fills are folded.
    idempotent = op in ("minimum", "maximum", "logical_or", "logical_and")
    key = ("reduce", fn, extra, a.signature(), axes, count > 0 if idempotent else count)
    kernel = _KERNELS.get(key)
    if kernel is None:
        fill = fold(a.fill_value, count)
        fill = np.array(0 if fill is None else fill).astype(dtype)
        kernel = _KERNELS[key] = _reduce_kernel(fn, extra, a, axes, shape, fill)
    r = kernel([a], shape)
    if isinstance(op, str) and op == "add" and dtype.kind == "f":
        # NumPy's sums start from +0.0 (the identity it initializes them
        # with), so a sum of -0.0s is +0.0; the kernel's left fold starts
        # from the first entry. Adding +0.0 changes exactly that case.
        r = _plus_zero(r)
    if static_types():  # traced: a scalar stays a rank-0 Lazy
        if keepdims:
            from . import _shape
            return _shape.expand_dims(r, axes)
        return r
    if not shape:
        value = r.todense()[()]
        return np.array(value, dtype=dtype)[()] if not keepdims else np.full((1,) * a.ndim, value)
    if keepdims:
        from . import _shape
        return _shape.expand_dims(r, axes)
    return r


def _plus_zero(r):
    """r + 0.0: in place on an eager kernel's fresh values (a -0.0 becomes
    +0.0, nothing else changes), else a map (fused when traced)."""
    zero = r.dtype.type(0.0)
    if isinstance(r, Array) and r._buffers[-1].flags.writeable:
        values = r._buffers[-1]
        np.add(values, zero, out=values)
        r.fill_value = r.fill_value + zero
        r._signature = None
        return r
    return r + zero


def _reduce_kernel(fn, extra, a, axes, shape, fill):
    dtype = a.dtype
    if a.format.is_dense() or not shape:
        fmt = make_format("dense", len(shape))
    else:
        fmt = make_format("csr" if len(shape) > 1 else "compressed", len(shape))
    rtype = _result_type(shape, dtype, fmt, fill)
    itype = _static_type(a)
    text = "\n".join([
        extra,
        "func.func @kernel(%%a: %s) -> %s {" % (itype, rtype),
        "  %%r = sparse_array.reduce @%s %%a dims [%s] : %s -> %s" % (
            fn, ", ".join(map(str, axes)), itype, rtype),
        "  return %r : " + rtype,
        "}"])
    return _Kernel(text, "kernel", len(shape), dtype, fmt, fill)


# --- matrix products over semirings ---------------------------------------------

def _multiplier(op, dtype):
    """(function name, its text, product of two fills) for a ufunc name or
    a user Function."""
    from ._function import Function
    if isinstance(op, Function):
        if [np.dtype(_DT[t]) for t in op.arg_types] != [dtype, dtype] or op.dtype != dtype:
            raise TypeError("%s does not combine two %s values into one" % (op.__name__, dtype))
        return op.__name__, op.text, op.evaluate
    ufunc = getattr(np, op)

    def product(x, y):
        with np.errstate(all="ignore"):
            return ufunc(np.array(x, dtype=dtype), np.array(y, dtype=dtype))
    return _function(ufunc.__name__, dtype), "", product


@traced
def matmul(a, b, semiring=None, format=None, mask=None, complement=False):
    """a @ b (matrix or vector operands) over `semiring` = (add, multiply):
    ufunc names (default ("add", "multiply")), e.g. ("minimum", "add"), or
    user functions (sa.function). With a boolean `mask` of the result's
    shape, entries where the mask is False (True with `complement`) are the
    result's fill and not computed (GraphBLAS's C<M> and C<¬M>; a value
    mask: a stored False does not select)."""
    a = a if _is_array(a) else asarray(a)
    b = b if _is_array(b) else asarray(b)
    if mask is not None:
        mask = mask if _is_array(mask) else asarray(np.asarray(mask, dtype=bool), format="csr" if np.ndim(mask) == 2 else "dcsr")
        if mask.dtype != np.bool_:
            raise TypeError("sparse_array: a mask is a bool array, not %s" % mask.dtype)
    if a.dtype != b.dtype:
        raise TypeError("sparse_array: matmul of %s and %s arrays: convert one first" % (
            a.dtype, b.dtype))
    add, mul = semiring or ("add", "multiply")
    dtype = a.dtype
    # Products x + y are -0.0 only for -0.0 + -0.0: without -0.0 in the
    # operands every zero product is +0.0, and min/max may be IEEE's.
    plus = mul in ("add", np.add) and add in _IEEE_WITHOUT_SIGNED_ZERO_TIES
    fadd, add_text, fold = _combiner(add, dtype, one_sign_zeros=plus and not any(
        not isinstance(x, Array) or
        (np.signbit(x._buffers[-1]) & (x._buffers[-1] == 0)).any() or
        (x.fill_value == 0 and np.signbit(x.fill_value)) for x in (a, b) if x.dtype.kind == "f"))
    fmul, mul_text, product = _multiplier(mul, dtype)
    if a.ndim not in (1, 2) or b.ndim not in (1, 2):
        raise ValueError("matmul of arrays of rank %d and %d" % (a.ndim, b.ndim))
    k = a.shape[-1]
    if b.shape[0] != k:
        raise ValueError("matmul: inner extents %d and %d differ" % (k, b.shape[0]))
    shape = tuple(([a.shape[0]] if a.ndim == 2 else []) + ([b.shape[1]] if b.ndim == 2 else []))
    if mask is not None and mask.shape != shape:
        raise ValueError("matmul: a mask of shape %s for a result of shape %s" % (mask.shape, shape))
    key = ("matmul", fadd, add_text, fmul, mul_text, a.signature(), b.signature(), k, format,
           None if mask is None else (mask.signature(), bool(complement)))
    kernel = _KERNELS.get(key)
    if kernel is None:
        p = product(a.fill_value, b.fill_value)
        fill = None if p is None else fold(np.array(p).astype(dtype)[()], k)
        fill = np.array(0 if fill is None else fill).astype(dtype)
        if k == 0 and dtype.kind == "f" and add in ("add", np.add):
            # NumPy's a @ b over an empty inner extent is +0.0 (its sums
            # start there), not add's identity -0.0: every entry the fill.
            kernel = _KERNELS[key] = _EmptyProduct(dtype, fill, format, a, b)
        else:
            kernel = _KERNELS[key] = _matmul_kernel(a, b, fadd, fmul,
                                                    add_text + "\n" + mul_text, fill, format,
                                                    mask, complement)
    r = kernel([a, b] if mask is None else [a, b, mask], shape)
    if k and dtype.kind == "f" and add in ("add", np.add) and mul in ("multiply", np.multiply):
        # NumPy's sums of products start from +0.0 (BLAS and its own
        # loops), so a sum of -0.0 products is +0.0; the kernel's exact sum
        # starts from add's identity -0.0. Adding +0.0 changes exactly
        # that case. A map of its own: inside the kernel it would cost
        # SpGEMM its row-wise strategy.
        r = _plus_zero(r)
    return r


def _keep_function(dtype, fill, complement):
    """keep(m, x): x where the mask selects, else the fill; its algebra
    says the kernel may skip the rest (seed 000 §7.3)."""
    elt = ELEMENT[dtype]
    name = "keep_%s_%s" % ("unless" if complement else "if", elt)
    selected = "intersect(complement(0), 1)" if complement else "intersect(0, 1)"
    then, other = ("%f", "%x") if complement else ("%x", "%f")
    return name, "\n".join([
        "sparse_array.func @%s(%%m: i1, %%x: %s) -> %s" % (name, elt, elt),
        "    attributes {algebra = #sparse_array.algebra<%s, fills = [false, %s]>} {" % (
            selected, scalar_text(fill, dtype)),
        "  %%f = arith.constant %s" % scalar_text(fill, dtype),
        "  %%r = arith.select %%m, %s, %s : %s" % (then, other, elt),
        "  sparse_array.yield %r : " + elt,
        "}"])


class _EmptyProduct:
    """a @ b with an inner extent of 0 under + and *: every entry +0.0
    (NumPy's), stored nowhere."""

    def __init__(self, dtype, fill, format, a, b):
        sparse = not a.format.is_dense() and not b.format.is_dense()
        self.dtype, self.format, self.sparse = dtype, format, sparse
        self.fill = np.zeros((), dtype=dtype) + fill

    def __call__(self, operands, shape):
        default = ("csr" if len(shape) == 2 else "compressed") if self.sparse and shape else "dense"
        return asarray(np.full(shape, self.fill, dtype=self.dtype),
                       format=self.format or default, fill_value=self.fill[()])


def _matmul_kernel(a, b, fadd, fmul, extra, fill, format, mask=None, complement=False):
    dtype = a.dtype
    # Index variables: i (rows of a), j (columns of b), then k.
    ai = (["%i"] if a.ndim == 2 else []) + ["%k"]
    bi = ["%k"] + (["%j"] if b.ndim == 2 else [])
    out_idx = (["%i"] if a.ndim == 2 else []) + (["%j"] if b.ndim == 2 else [])
    shape = tuple(([a.shape[0]] if a.ndim == 2 else []) + ([b.shape[1]] if b.ndim == 2 else []))
    # Sparse results for products of two sparse operands; a dense operand
    # (SpMV's x) makes most entries computed anyway.
    sparse = not a.format.is_dense() and not b.format.is_dense()
    default = ("csr" if len(shape) == 2 else "compressed") if sparse and shape else "dense"
    fmt = make_format(format or default, len(shape))
    ta, tb = _static_type(a), _static_type(b)
    rtype = _result_type(shape, dtype, fmt, fill)
    names = out_idx + ["%k"]
    elt = ELEMENT[dtype]
    ins, types, blocks = ["%a", "%b"], [ta, tb], ["%A", "%B"]
    masking = []
    if mask is not None:
        tm = _static_type(mask)
        keep, keep_text = _keep_function(dtype, fill, complement)
        extra += "\n" + keep_text
        ins.append("%m")
        types.append(tm)
        blocks.append("%M")
        masking = ["    %%mv = sparse_array.access %%M[%s] : %s" % (", ".join(out_idx), tm),
                   "    %%o = sparse_array.apply @%s(%%mv, %%s) : (i1, %s) -> %s" % (keep, elt, elt)]
    result = "%o" if mask is not None else "%s"
    text = "\n".join([
        extra,
        "func.func @kernel(%s) -> %s {" % (", ".join("%s: %s" % p for p in zip(ins, types)), rtype),
        "  %%r = sparse_array.kernel ins(%s : %s) -> %s {" % (", ".join(ins), ", ".join(types), rtype),
        "  ^bb0(%s, %s):" % (", ".join(n + ": index" for n in names),
                            ", ".join("%s: %s" % p for p in zip(blocks, types))),
        "    %%x = sparse_array.access %%A[%s] : %s" % (", ".join(ai), ta),
        "    %%y = sparse_array.access %%B[%s] : %s" % (", ".join(bi), tb),
        "    %%p = sparse_array.apply @%s(%%x, %%y) : (%s, %s) -> %s" % (fmul, elt, elt, elt),
        "    %%s = sparse_array.reduce_over [%%k] %%p with @%s : %s" % (fadd, elt)]
        + masking + [
        "    sparse_array.yield %s : %s" % (result, elt),
        "  }",
        "  return %r : " + rtype,
        "}"])
    return _Kernel(text, "kernel", len(shape), dtype, fmt, fill)


# --- files -------------------------------------------------------------------

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
