"""float32 and int32 arrays: their own kernels (the library's 32-bit forms),
compared with numpy's float32/int32 semantics; scipy's float32 CSR taken
without copying."""
import numpy as np
import pytest
import scipy.sparse as sp

import sparse_array as sa
from sparse_array import _capi, _compile
from conftest import random_dense, same

F32 = ["add", "subtract", "multiply", "true_divide", "power", "minimum", "maximum"]
I32 = ["add", "subtract", "multiply", "minimum", "maximum", "bitwise_and", "bitwise_or",
       "bitwise_xor", "left_shift", "right_shift", "gcd"]


@pytest.mark.parametrize("name", [n for n in _compile._library() if n.endswith(("_f32", "_i32", "_u32"))])
def test_narrow_library_properties(name):
    # Every declared identity, annihilator, algebra and law of the 32-bit
    # forms holds (sparse-array-check-properties, with counterexamples).
    _capi.check(_compile.library_prelude("@" + name))


@pytest.mark.parametrize("name", F32)
def test_f32_ufuncs(rng, name):
    ufunc = getattr(np, name)
    for fa, fb, fmts in ((0.0, 0.0, ("csr", "coo")), (np.nan, -0.0, ("csc", "dense")),
                         (1.0, np.inf, ("dcsr", "csr"))):
        da = random_dense(rng, (5, 6), np.float32, fa)
        db = random_dense(rng, (5, 6), np.float32, fb)
        a = sa.asarray(da, format=fmts[0], fill_value=fa)
        b = sa.asarray(db, format=fmts[1], fill_value=fb)
        with np.errstate(all="ignore"):
            want = ufunc(da, db)
            got = ufunc(a, b)
        assert got.dtype == np.float32
        same(got.todense(), want)


@pytest.mark.parametrize("name", I32)
def test_i32_ufuncs(rng, name):
    ufunc = getattr(np, name)
    for fa, fb, fmts in ((0, 0, ("csr", "coo")), (1, 0, ("csc", "dense"))):
        da = random_dense(rng, (4, 7), np.int32, fa)
        db = random_dense(rng, (4, 7), np.int32, fb)
        if name in ("left_shift", "right_shift"):
            db = (np.abs(db) % 40).astype(np.int32)  # numpy's shifts by 32 or more
        with np.errstate(all="ignore"):
            want = ufunc(da, db)
        got = ufunc(sa.asarray(da, format=fmts[0], fill_value=fa),
                    sa.asarray(db, format=fmts[1], fill_value=db.flat[0] if fb else fb))
        assert got.dtype == np.int32
        same(got.todense(), want)


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_reductions_and_products(rng, dtype):
    d = random_dense(rng, (6, 5), dtype, 0, specials=False)
    if dtype == np.float32:
        d = np.where(np.abs(d) > 1e30, 2.0, d).astype(np.float32)  # no overflow
    a = sa.asarray(d, format="csr")
    for name in ("sum", "min", "max"):
        with np.errstate(all="ignore"):
            same(getattr(a, name)(axis=1).todense(), getattr(d, name)(axis=1))
    x = np.arange(5, dtype=dtype)
    with np.errstate(all="ignore"):
        same((a @ x).todense(), d @ x)
        same(sa.matmul(a, a.T, semiring=("minimum", "add")).todense(),
             np.min(d[:, :, None] + d.T[None, :, :], axis=1))


def test_scipy_float32_zero_copy(rng):
    m = sp.random(8, 8, density=0.3, format="csr", random_state=3, dtype=np.float32)
    a = sa.asarray(m)
    assert a.dtype == np.float32 and a.format.crd_width == 32
    assert np.shares_memory(a._buffers[-1], m.data)
    back = (a * 2).to_scipy()
    assert back.dtype == np.float32
    same(back.toarray(), m.toarray() * 2)


def test_lazy_f32(rng):
    d = random_dense(rng, (4, 4), np.float32, 0.0)
    a = sa.lazy(d, format="csr")
    with np.errstate(all="ignore"):
        same(sa.compute((a * a + a).sum(axis=0)).todense(), (d * d + d).sum(axis=0))


def test_float32_ldexp_and_mixed_widths(rng):
    # NumPy's float32 ldexp loop (float32 results, int32 or int64
    # exponents) and its promotion of mixed widths (float32 + float64 is
    # float64), bit for bit.
    d = np.array([[1.5, -3.0e38], [2.0 ** -140, np.nan]], dtype=np.float32)
    a = sa.asarray(d, format="csr")
    for e in (np.array([[1, 1], [-12, 3]]), np.array([[1, 1], [-12, 3]], dtype=np.int32)):
        with np.errstate(all="ignore"):
            same(np.ldexp(a, sa.asarray(e)).todense(), np.ldexp(d, e))
    same((a + sa.asarray(np.ones((2, 2)))).todense(), d + np.ones((2, 2)))


def test_int32_sum_is_int64_and_fused(rng):
    d = np.array([[2**31 - 1, 5], [2**31 - 1, -7]], dtype=np.int32)
    a = sa.asarray(d, format="csr")
    got = a.sum(axis=0)
    assert got.dtype == np.int64  # numpy: no wrap-around at 32 bits
    same(got.todense(), d.sum(axis=0))
    assert sa.explain(lambda x: x.sum(axis=0), a).count("sparse_array.kernel") == 1
