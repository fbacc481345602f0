"""NumPy's element-wise functions as standard-library or generated
sparse_array functions: which function a ufunc and dtype call, and the
functions written out in MLIR exactly as NumPy computes them."""
import re

import numpy as np

from ._compile import _library
from ._format import ELEMENT

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


_DT = {"f64": np.float64, "i64": np.int64, "i1": np.bool_}


# ufunc.reduce of the ufuncs a reduction folds with: name of the reduction.
_UFUNC_REDUCTIONS = {name: reduction for reduction, name in _REDUCTIONS.items()}
