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
    if got.dtype == np.float64:
        nan = np.isnan(want)
        assert np.array_equal(np.isnan(got), nan), (got, want)
        assert np.array_equal(got[~nan].view(np.int64), want[~nan].view(np.int64)), (got, want)
    else:
        assert np.array_equal(got, want), (got, want)


def random_dense(rng, shape, dtype, fill, density=0.4, specials=True):
    """An array of `fill` with random stored values (NaN, ±inf, -0.0 among
    the floats; large values so that integers wrap around)."""
    a = np.full(shape, fill, dtype=dtype)
    mask = rng.random(shape) < density
    n = int(mask.sum())
    if dtype == np.float64:
        pool = np.array([1.5, -2.25, 3.0, 0.5, -7.0, 1e300, -0.0, 0.0] +
                        ([np.nan, np.inf, -np.inf] if specials else []))
        a[mask] = pool[rng.integers(len(pool), size=n)]
    elif dtype == np.int64:
        pool = np.array([1, -3, 7, 2**62, -(2**63), 5, 0, 63, 64], dtype=np.int64)
        a[mask] = pool[rng.integers(len(pool), size=n)]
    else:
        a[mask] = rng.random(n) < 0.5
    return a


@pytest.fixture
def rng():
    return np.random.default_rng(20261127)
