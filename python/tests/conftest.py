import os
import sys
import tempfile

import numpy_reference  # noqa: F401,E402  (before NumPy: see its docstring)
import numpy as np  # noqa: E402
import pytest

# Kernels go to a fresh on-disk cache per test session (so every run
# compiles, and tests never write to the user's ~/.cache). Dask's worker
# processes import this module too (unpickling the tests' functions): they
# keep the session's directory.
if "SPARSE_ARRAY_TEST_SESSION_CACHE" not in os.environ:
    os.environ["SPARSE_ARRAY_TEST_SESSION_CACHE"] = tempfile.mkdtemp(prefix="sparse-array-kernels-")
os.environ["SPARSE_ARRAY_CACHE_DIR"] = os.environ["SPARSE_ARRAY_TEST_SESSION_CACHE"]

SHARED = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data", "matrices")


def same(got, want):
    """Bitwise equality of values, any NaN matching any NaN (numpy and the
    compiled code may produce different NaN payloads)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if got.dtype.kind == "f":
        bits = np.int64 if got.dtype == np.float64 else np.int32
        nan = np.isnan(want)
        assert np.array_equal(np.isnan(got), nan), (got, want)
        assert np.array_equal(got[~nan].view(bits), want[~nan].view(bits)), (got, want)
    else:
        assert np.array_equal(got, want), (got, want)


def same_or_raises_as_numpy(got, want):
    """Compares got() with want(), or checks both raise ValueError (a
    reduction without identity over zero entries)."""
    try:
        w = want()
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e).split(" which")[0]):
            got()
        return
    same(got(), w)


def random_dense(rng, shape, dtype, fill, density=0.4, specials=True):
    """An array of `fill` with random stored values (NaN, ±inf, -0.0 among
    the floats; large values so that integers wrap around)."""
    a = np.full(shape, fill, dtype=dtype)
    mask = rng.random(shape) < density
    n = int(mask.sum())
    if np.dtype(dtype).kind == "f":
        big = 1e300 if dtype == np.float64 else 3e38
        pool = np.array([1.5, -2.25, 3.0, 0.5, -7.0, big, -0.0, 0.0] +
                        ([np.nan, np.inf, -np.inf] if specials else []), dtype=dtype)
        a[mask] = pool[rng.integers(len(pool), size=n)]
    elif dtype == np.int64:
        pool = np.array([1, -3, 7, 2**62, -(2**63), 5, 0, 63, 64], dtype=np.int64)
        a[mask] = pool[rng.integers(len(pool), size=n)]
    elif dtype == np.int32:
        pool = np.array([1, -3, 7, 2**30, -(2**31), 5, 0, 31, 32], dtype=np.int32)
        a[mask] = pool[rng.integers(len(pool), size=n)]
    else:
        a[mask] = rng.random(n) < 0.5
    return a


@pytest.fixture
def rng():
    return np.random.default_rng(20261127)


def matrix_cases(block=1):
    """(shape, dtype, fill) of the level-format tests: NaN, -0.0 and 1
    fills, integers, float32, empty arrays; column counts rounded up to a
    multiple of `block` (a format storing columns in blocks)."""
    base = [((6, 7), np.float64, 0.0), ((5, 9), np.float64, np.nan),
            ((9, 4), np.float64, -0.0), ((7, 7), np.int64, 1),
            ((4, 4), np.float32, 0.0), ((5, 6), np.int32, 0),
            ((0, 5), np.float64, 0.0), ((3, 0), np.float64, 0.0)]
    return [((r, -(-c // block) * block), dtype, fill) for (r, c), dtype, fill in base]


def check_round_trips(a, d, fmt, formats):
    """`a` (d stored in `fmt`) holds d, and so does its conversion to each
    of `formats` and back to `fmt`."""
    import sparse_array as sa
    same(a.todense(), d)
    for other in formats:
        b = sa.asarray(a, format=other)
        same(b.todense(), d)
        same(sa.asarray(b, format=fmt).todense(), d)


def check_matrix_kernels(a, d, e, fmt, fill, result=None):
    """Element-wise kernels, reductions, views of matrix `a` (d stored in
    `fmt` with `fill`) with a CSR `e`, and a result in `fmt` (by default
    a * e; `result(a, b, d, e)` gives another kernel's result and its
    expected value where a format cannot hold any), against NumPy bit for
    bit (shared by the level-format and block tests)."""
    import sparse_array as sa
    b = sa.asarray(e, format="csr", fill_value=fill)
    with np.errstate(all="ignore"):
        same((a + b).todense(), d + e)
        same((a * a).todense(), d * d)
        same(np.maximum(a, b).todense(), np.maximum(d, e))
        got, want = result(a, b, d, e) if result else (a * b, d * e)
        r = sa.asarray(got, format=fmt)
        assert r.format == a.format
        same(r.todense(), want)
        same(np.negative(a).todense(), -d)
        if d.dtype != np.int64:
            same(a.sum(axis=0).todense(), np.add.reduce(d, axis=0))
        for axis in (0, 1):
            same_or_raises_as_numpy(lambda: a.max(axis=axis).todense(),
                                    lambda: d.max(axis=axis))
        same(a[1:, ::2].todense(), d[1:, ::2])
        same(a.T.todense(), d.T)
