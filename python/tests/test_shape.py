"""Shape operations against numpy: basic indexing, reshape, transpose,
expand_dims, squeeze and joining, over formats, fills (explicitly stored
fills included) and dtypes; shape operations of computed arrays."""
import numpy as np
import pytest

import sparse_array as sa
from conftest import random_dense, same

FILLS = [0.0, 1.0, np.nan, np.inf, -0.0, 42.0]


def _arrays(rng, shape, formats, dtype=np.float64, fills=FILLS):
    """(dense, Array) pairs rotating through formats and fills; the dense
    values include stored entries equal to the fill (-0.0/0.0, NaN)."""
    for k, fill in enumerate(fills):
        fmt = formats[k % len(formats)]
        d = random_dense(rng, shape, dtype, fill)
        yield d, sa.asarray(d, format=fmt, fill_value=fill)


@pytest.mark.parametrize("key", [
    (slice(1, 4), slice(None, None, -2)),
    (2,),
    (slice(None), -1),
    (Ellipsis, slice(4, 0, -3)),
    (slice(5, 1), slice(None)),          # an empty slice
    (-3, slice(1, None, 2)),
])
def test_getitem(rng, key):
    for d, a in _arrays(rng, (5, 6), ["csr", "dcsr", "csc", "coo", "dense", "csr"]):
        same(a[key].todense(), d[key])


def test_getitem_scalar_and_errors(rng):
    d = random_dense(rng, (3, 4), np.int64, 7)
    a = sa.asarray(d, format="csr", fill_value=7)
    assert a[2, -1] == d[2, -1]
    with pytest.raises(IndexError):
        a[3]
    with pytest.raises(IndexError):
        a[0, 0, 0]
    with pytest.raises(IndexError):
        a[[0, 1]]


@pytest.mark.parametrize("key", [
    (None,),
    (slice(None), None),
    (None, 1, None, slice(None, None, -2)),
    (Ellipsis, None),
    (None, Ellipsis, 2),
    (2, 3, None),
])
def test_getitem_newaxis(rng, key):
    for d, a in _arrays(rng, (5, 6), ["csr", "coo", "dense"]):
        got = a[key]
        assert got.shape == d[key].shape
        same(got.todense(), d[key])


def test_getitem_3d(rng):
    for d, a in _arrays(rng, (4, 3, 5), ["csf", "coo", "dense"], fills=[0.0, np.nan, 3.0]):
        same(a[1:, 0, ::2].todense(), d[1:, 0, ::2])
        same(a[..., -1].todense(), d[..., -1])


@pytest.mark.parametrize("shape,new,order", [
    ((4, 6), (3, 8), "C"),
    ((4, 6), (-1,), "C"),
    ((4, 6), (2, 3, 4), "F"),
    ((24,), (6, -1), "C"),
    ((2, 3, 4), (4, 6), "C"),
    ((1, 5), (5, 1), "C"),
])
def test_reshape(rng, shape, new, order):
    formats = ["csr", "coo", "dense"] if len(shape) == 2 else (
        ["compressed", "dense"] if len(shape) == 1 else ["csf", "coo"])
    for d, a in _arrays(rng, shape, formats, fills=[0.0, np.nan, -0.0, 42.0]):
        same(a.reshape(new, order=order).todense(), d.reshape(new, order=order))
        same(np.reshape(a, new, order=order).todense(), np.reshape(d, new, order=order))


def test_reshape_errors(rng):
    a = sa.asarray(np.zeros((4, 6)), format="csr")
    with pytest.raises(ValueError):
        a.reshape(5, 5)
    with pytest.raises(ValueError):
        a.reshape(-1, -1)


@pytest.mark.parametrize("axes", [None, (1, 0)])
def test_transpose_2d(rng, axes):
    for d, a in _arrays(rng, (3, 5), ["csr", "csc", "dcsr", "coo", "dense", "csr"]):
        same(a.transpose(axes).todense() if axes else a.T.todense(), d.transpose(axes))
        same(np.transpose(a, axes).todense(), np.transpose(d, axes))


def test_transpose_3d(rng):
    for d, a in _arrays(rng, (2, 3, 4), ["csf", "coo", "dense"], fills=[0.0, np.inf, 1.0]):
        for axes in [(2, 0, 1), (1, 0, 2), (0, 2, 1)]:
            same(a.transpose(axes).todense(), d.transpose(axes))


def test_expand_squeeze(rng):
    for d, a in _arrays(rng, (3, 4), ["csr", "dense", "coo"], fills=[0.0, np.nan, -1.0]):
        for axis in [0, 1, -1, (0, 3)]:
            e = sa.expand_dims(a, axis)
            want = np.expand_dims(d, axis)
            same(e.todense(), want)
            same(np.squeeze(e).todense(), np.squeeze(want))
        same(sa.squeeze(sa.expand_dims(a, 1), 1).todense(), d)
    with pytest.raises(ValueError):
        sa.squeeze(sa.asarray(np.ones((2, 3))), 0)


def test_size_zero_and_one(rng):
    for shape in [(0, 4), (3, 0), (1, 1), (1, 5)]:
        d = random_dense(rng, shape, np.float64, 2.0)
        a = sa.asarray(d, format="csr", fill_value=2.0)
        same(a.T.todense(), d.T)
        same(a.reshape(-1).todense(), d.reshape(-1))
        same(a[:, ::-1].todense(), d[:, ::-1])
        same(np.concatenate([a, a], axis=0).todense(), np.concatenate([d, d], axis=0))


@pytest.mark.parametrize("axis", [0, 1])
def test_concatenate(rng, axis):
    # Parts with different fills and formats: the result has the first
    # part's fill, the others' implicit entries become values.
    parts = [(random_dense(rng, (3, 4), np.float64, f), f, fmt)
             for f, fmt in [(0.0, "csr"), (np.nan, "dense"), (1.0, "coo"), (-0.0, "csc")]]
    arrays = [sa.asarray(d, format=fmt, fill_value=f) for d, f, fmt in parts]
    dense = [d for d, _, _ in parts]
    got = np.concatenate(arrays, axis=axis)
    same(got.todense(), np.concatenate(dense, axis=axis))
    assert got.fill_value == 0.0
    same(sa.stack(arrays[:2], axis=axis).todense(), np.stack(dense[:2], axis=axis))
    same(np.hstack(arrays[:3]).todense(), np.hstack(dense[:3]))
    same(np.vstack(arrays[1:]).todense(), np.vstack(dense[1:]))
    v = [sa.asarray(d[0], format="compressed", fill_value=f) for d, f, _ in parts[:2]]
    same(np.hstack(v).todense(), np.hstack([d[0] for d, _, _ in parts[:2]]))
    same(np.vstack(v).todense(), np.vstack([d[0] for d, _, _ in parts[:2]]))


def test_concatenate_errors(rng):
    a = sa.asarray(np.ones((2, 3)), format="csr")
    with pytest.raises(ValueError):
        sa.concatenate([a, sa.asarray(np.ones((3, 2)), format="csr")], axis=0)
    with pytest.raises(TypeError):
        sa.concatenate([a, sa.asarray(np.ones((2, 3), dtype=np.int64), format="csr")])


def test_integer_and_bool(rng):
    d = random_dense(rng, (4, 5), np.int64, 3)
    a = sa.asarray(d, format="dcsr", fill_value=3)
    same(a[::-1, 1:4].todense(), d[::-1, 1:4])
    same(a.T.reshape(2, 10).todense(), d.T.reshape(2, 10))
    b = random_dense(rng, (4, 5), np.bool_, True)
    ab = sa.asarray(b, format="csr", fill_value=True)
    same(np.concatenate([ab, ab[1:]], axis=0).todense(), np.concatenate([b, b[1:]], axis=0))


def test_shape_of_computed(rng):
    # Shape operations of computed arrays and computations of shape
    # operations (with a user function).
    da = random_dense(rng, (4, 6), np.float64, 0.0, specials=False)
    db = random_dense(rng, (6, 4), np.float64, 1.0, specials=False)
    a = sa.asarray(da, format="csr")
    b = sa.asarray(db, format="csc", fill_value=1.0)
    same((a + b.T)[1:3].todense(), (da + db.T)[1:3])
    same(np.maximum(a.reshape(6, 4), b).todense(), np.maximum(da.reshape(6, 4), db))

    @sa.function(commutative=True)
    def hyp(x, y):
        return (x * x + y * y) ** 0.5

    x, y = da[:, ::2], db.T[:, 1::2]
    with np.errstate(all="ignore"):
        want = (x * x + y * y) ** 0.5
    same(hyp(a[:, ::2], b.T[:, 1::2]).todense(), want)
    same(np.concatenate([a, b.T], axis=1).sum(axis=1).todense(),
         np.concatenate([da, db.T], axis=1).sum(axis=1))


def test_shape_functions_take_numpy_arrays(rng):
    # Like numpy's, the sa. functions take any array-like: a whole
    # reduction with keepdims is a numpy array (found by fuzz_programs.py:
    # sa.expand_dims of one raised AttributeError).
    d = random_dense(rng, (3, 4), np.float64, 0.0)
    r = sa.asarray(d, format="csr").sum(keepdims=True)
    same(sa.squeeze(sa.expand_dims(r, 0)).todense(), np.squeeze(np.expand_dims(d.sum(keepdims=True), 0)))
    same(sa.reshape(d, (4, 3)).todense(), d.reshape(4, 3))
    same(sa.transpose(d).todense(), d.T)
    same(sa.vstack([d, d[:1]]).todense(), np.vstack([d, d[:1]]))
    same(sa.hstack([d, d]).todense(), np.hstack([d, d]))
    same(sa.stack([d, d], axis=1).todense(), np.stack([d, d], axis=1))
    assert np.ndim(sa.asarray(d)) == 2 and np.shape(sa.asarray(d)) == (3, 4) and np.size(sa.asarray(d)) == 12
