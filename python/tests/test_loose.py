"""The loose_compressed level (upstream's; issue 58) through the package:
compressed segments that need not abut, (lo, hi) per parent position. The
package has no code for it: it learns the level from the library and the
runtime packs and unpacks it. Kernels read it as stored, against NumPy bit
for bit (NaN, -0.0, inf, fills 0, NaN and 1, integers, 32-bit widths)."""
import numpy as np
import pytest

import sparse_array as sa
from conftest import check_matrix_kernels, matrix_cases, check_round_trips, random_dense, same

LOOSE = sa.Format(["dense", "loose_compressed"])
FORMATS = ["dense", "csr", "csc", "coo", "dcsr", "dia", "ell", LOOSE]

CASES = matrix_cases()


@pytest.mark.parametrize("shape,dtype,fill", CASES)
def test_round_trips(rng, shape, dtype, fill):
    d = random_dense(rng, shape, dtype, fill)
    a = sa.asarray(d, format=LOOSE, fill_value=fill)
    assert a.format == LOOSE
    check_round_trips(a, d, LOOSE, FORMATS)


def test_packed_segments_abut(rng):
    # Packed by the runtime: rows end to end, bounds (lo, hi) per row.
    d = np.zeros((3, 5))
    d[0, [1, 4]] = [1.0, 2.0]
    d[2, [0, 2, 3]] = [3.0, -0.0, 5.0]
    a = sa.asarray(d, format=LOOSE)
    bounds, crd, values = a._buffers
    assert list(bounds) == [0, 2, 2, 2, 2, 5]
    assert list(crd) == [1, 4, 0, 2, 3]
    same(values, np.array([1.0, 2.0, 3.0, -0.0, 5.0]))


def gapped():
    """Row 0 at positions 6-7, row 1 empty, row 2 at 0-2, row 3 at 4; the
    gaps hold coordinates and values that are no entries."""
    bounds = np.array([6, 8, 3, 3, 0, 3, 4, 5], dtype=np.int64)
    crd = np.array([0, 2, 3, 99, 4, 77, 1, 4, 55, 66], dtype=np.int64)
    val = np.array([2.0, np.inf, -3.0, 1e300, 4.0, 1e300, 1.0, -0.0, 1e300, 1e300])
    dense = np.zeros((4, 5))
    dense[0, [1, 4]] = [1.0, -0.0]
    dense[2, [0, 2, 3]] = [2.0, np.inf, -3.0]
    dense[3, 4] = 4.0
    return sa.Array((4, 5), np.float64, LOOSE, 0.0, [bounds, crd, val]), dense


def test_segments_with_gaps():
    # Buffers assembled elsewhere, rows out of order with gaps between them.
    a, d = gapped()
    same(a.todense(), d)
    x = np.array([1.0, 10.0, 100.0, 1000.0, 0.5])
    with np.errstate(all="ignore"):
        same((a @ sa.asarray(x)).todense(), d @ x)
        same(a.max(axis=1).todense(), d.max(axis=1))
        same(a.sum(axis=0).todense(), np.add.reduce(d, axis=0))
        same((a + a).todense(), d + d)
        same((a * sa.asarray(d, format="csr")).todense(), d * d)
        same(a[1:, ::2].todense(), d[1:, ::2])
        same(a.T.todense(), d.T)
    same(sa.asarray(a, format="coo").todense(), d)


@pytest.mark.parametrize("shape,dtype,fill", CASES)
def test_kernels(rng, shape, dtype, fill):
    d = random_dense(rng, shape, dtype, fill)
    e = random_dense(rng, shape, dtype, fill)
    a = sa.asarray(d, format=LOOSE, fill_value=fill)
    # A loose result is computed compressed and converted by the runtime.
    check_matrix_kernels(a, d, e, LOOSE, fill)
    with np.errstate(all="ignore"):
        if shape[1]:
            x = random_dense(rng, shape[1:], dtype, 0, density=1.0, specials=False)
            same((a @ sa.asarray(x)).todense(),
                 (sa.asarray(d, format="csr", fill_value=fill) @ sa.asarray(x)).todense())


def test_blocks_of_coordinates(rng):
    # Upstream's BCOO: batches, a non-unique loose level, a singleton.
    fmt = sa.Format(["dense", sa._format.Level("loose_compressed", unique=False), "singleton"])
    d = random_dense(rng, (3, 6, 5), np.float64, 0.0)
    a = sa.asarray(d, format=fmt)
    assert a.format == fmt
    same(a.todense(), d)
    same(a.sum(axis=2).todense(), np.add.reduce(d, axis=2))
    same((a * a).todense(), d * d)
    same(sa.asarray(a, format="csf").todense(), d)


def test_widths(rng):
    d = random_dense(rng, (6, 8), np.float64, 0.0)
    a = sa.asarray(d, format=sa.Format(["dense", "loose_compressed"], pos_width=32,
                                       crd_width=32))
    assert all(b.dtype == np.int32 for b in a._buffers[:-1])
    same(sa.asarray(a, format="csr").todense(), d)
    same((a + a).todense(), d + d)
