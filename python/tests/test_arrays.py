"""Arrays in and out: every format, fills, scipy zero-copy, files."""
import glob
import os

import numpy as np
import pytest
import scipy.sparse as sp

import sparse_array as sa
from conftest import SHARED, random_dense, same

FORMATS_2D = ["dense", "csr", "csc", "coo", "dcsr"]


@pytest.mark.parametrize("fmt", FORMATS_2D)
@pytest.mark.parametrize("fill", [0.0, np.nan, np.inf, -0.0, 1.5])
def test_roundtrip_2d(rng, fmt, fill):
    d = random_dense(rng, (6, 7), np.float64, fill)
    a = sa.asarray(d, format=fmt, fill_value=fill)
    assert a.shape == (6, 7) and a.dtype == np.float64
    same(a.todense(), d)
    same(np.asarray(a), d)
    if fmt != "dense":
        # Entries equal to the fill (bitwise) are not stored.
        bits = d.view(np.int64) != np.array(fill).view(np.int64)
        assert a.nnz == int(bits.sum())


@pytest.mark.parametrize("fmt", ["dense", "csf", "coo", "dcsr"])
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.bool_])
def test_roundtrip_3d(rng, fmt, dtype):
    d = random_dense(rng, (3, 4, 5), dtype, dtype(0))
    same(sa.asarray(d, format=fmt).todense(), d)


def test_empty_and_zero_extent(rng):
    same(sa.asarray(np.zeros((0, 4)), format="csr").todense(), np.zeros((0, 4)))
    same(sa.asarray(np.zeros((3, 4)), format="csr").todense(), np.zeros((3, 4)))


def test_scipy_zero_copy_and_back(rng):
    m = sp.random(50, 40, density=0.1, format="csr", random_state=3)
    a = sa.asarray(m)
    assert a.format.name() == "csr" and a.format.pos_width == 32
    assert a._buffers[2].ctypes.data == m.data.ctypes.data  # no copy
    back = a.to_scipy()
    assert back.format == "csr" and (back != m).nnz == 0
    c = sa.asarray(m.tocsc())
    assert c.format.name() == "csc"
    same(c.todense(), m.toarray())
    o = sa.asarray(m.tocoo())
    same(o.todense(), m.toarray())
    assert (o.to_scipy() != m).nnz == 0


def test_scipy_noncanonical():
    # Duplicates and unsorted columns: summed and sorted on the way in.
    m = sp.csr_matrix((np.array([1.0, 2.0, 3.0]), np.array([2, 0, 2]), np.array([0, 3])), shape=(1, 3))
    same(sa.asarray(m).todense(), np.array([[2.0, 0.0, 4.0]]))


def test_fill_must_be_zero_for_scipy(rng):
    a = sa.asarray(np.eye(3), format="csr", fill_value=np.inf)
    with pytest.raises(ValueError, match="fill value"):
        a.to_scipy()


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown format"):
        sa.asarray(np.eye(2), format="hyb")
    with pytest.raises(TypeError, match="not supported"):
        sa.asarray(np.array(["a"]))


@pytest.mark.skipif(not os.path.isdir(SHARED), reason="../shared/data not present")
def test_read_matrix_market():
    import scipy.io
    path = os.path.join(SHARED, "bcsstk13.mtx")
    a = sa.read(path)
    same(a.todense(), scipy.io.mmread(path).toarray())
    for bad in sorted(glob.glob(os.path.join(SHARED, "mangled*.mtx"))):
        with pytest.raises(sa.SparseArrayError, match="mangled"):
            sa.read(bad)
    # The interpreter is still alive and the library still works.
    assert sa.read(path).nnz == a.nnz


def test_read_missing_file(tmp_path):
    with pytest.raises(sa.SparseArrayError):
        sa.read(str(tmp_path / "absent.mtx"))
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n")
    with pytest.raises(sa.SparseArrayError, match="bad.mtx:3"):
        sa.read(str(bad))


@pytest.mark.parametrize("fill", [0.0, np.inf, np.nan, -0.0])
def test_write_and_read_back(rng, tmp_path, fill):
    d = random_dense(rng, (5, 4, 3), np.float64, fill)
    a = sa.asarray(d, format="csf", fill_value=fill)
    path = str(tmp_path / "a.txt")
    a.write(path)
    b = sa.read(path, ndim=3, format="coo", fill_value=fill)
    same(b.todense(), d)


def test_write_matrix_market(rng, tmp_path):
    import scipy.io
    d = random_dense(rng, (6, 5), np.float64, 0.0, specials=False)
    path = str(tmp_path / "m.mtx")
    sa.asarray(d, format="csr").write(path)
    # scipy's toarray() adds entries to +0.0 (a -0.0 entry reads as +0.0):
    # equal as numbers; the bits through sa.read.
    assert np.array_equal(scipy.io.mmread(path).toarray(), d)
    same(sa.read(path).todense(), d)
    with pytest.raises(sa.SparseArrayError):
        sa.asarray(d, format="csr", fill_value=1.0).write(str(tmp_path / "f.mtx"))


def test_pydata_round_trip(rng):
    sparse = pytest.importorskip("sparse")
    d = random_dense(rng, (4, 5, 3), np.float64, np.nan)
    a = sa.asarray(d, format="coo", fill_value=np.nan)
    p = a.to_pydata()
    assert np.isnan(p.fill_value)
    same(p.todense(), d)
    same(sa.asarray(p).todense(), d)
