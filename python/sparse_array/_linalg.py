"""Matrix products over semirings (`matmul`, masks, the exact (min, +)
guard): kernels whose reduction folds products with the semiring's
addition."""
import numpy as np

from ._array import Array, asarray
from ._compile import _Kernel, _KERNELS
from ._format import ELEMENT, make_format, scalar_text
from ._function import Function
from ._ops import _is_array, _result_type, _static_type
from ._reductions import _combiner, _IEEE_WITHOUT_SIGNED_ZERO_TIES, _plus_zero
from ._trace import traced
from ._ufuncs import _DT, _function


def _multiplier(op, dtype):
    """(function name, its text, product of two fills) for a ufunc name or
    a user Function."""
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
