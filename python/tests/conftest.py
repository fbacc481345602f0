import os
import sys
import tempfile

import numpy as np
import pytest

# Kernels go to a fresh on-disk cache per test session (so every run
# compiles, and tests never write to the user's ~/.cache).
os.environ["SPARSE_ARRAY_CACHE_DIR"] = tempfile.mkdtemp(prefix="sparse-array-kernels-")

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
