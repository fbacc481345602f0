"""Lazy expressions (sa.lazy / sa.compute) against numpy: each whole
expression is one compiled function, fused by the compiler."""
import numpy as np
import pytest

import sparse_array as sa
from sparse_array import _compile
from sparse_array._lazy import compose
from conftest import random_dense, same

FILLS = [0.0, np.nan, np.inf, -0.0, 1.0]


def _pair(rng, shape, fill, formats=("csr", "csr")):
    da = random_dense(rng, shape, np.float64, fill)
    db = random_dense(rng, shape, np.float64, fill)
    return da, db, sa.lazy(da, format=formats[0], fill_value=fill), \
        sa.lazy(db, format=formats[1], fill_value=fill)


@pytest.mark.parametrize("fill", FILLS)
def test_elementwise_chain(rng, fill):
    da, db, a, b = _pair(rng, (5, 7), fill, ("csr", "dcsr"))
    e = np.maximum(a * 2.0 - b, a / 3.0) + 1.0
    assert isinstance(e, sa.Lazy)
    with np.errstate(all="ignore"):
        want = np.maximum(da * 2.0 - db, da / 3.0) + 1.0
    got = sa.compute(e)
    assert isinstance(got, sa.Array)
    same(got.todense(), want)
    # The fill is numpy's on the operands' fills, as eagerly.
    with np.errstate(all="ignore"):
        same(np.array(got.fill_value), np.array(np.maximum(fill * 2.0 - fill, fill / 3.0) + 1.0))


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("fill", [0.0, np.nan, -0.0])
def test_reduction_of_expression(rng, axis, fill):
    da, db, a, b = _pair(rng, (6, 4), fill, ("csr", "coo"))
    with np.errstate(all="ignore"):
        want = (da * db + da).sum(axis=axis)
        got = sa.compute((a * b + a).sum(axis=axis))
    same(got if np.ndim(want) == 0 else got.todense(), want)


def test_min_max_prod_keepdims(rng):
    da, db, a, b = _pair(rng, (4, 5), 0.0)
    for name in ("min", "max", "prod"):
        with np.errstate(all="ignore"):
            want = getattr(da - db, name)(axis=1, keepdims=True)
        got = sa.compute(getattr(a - b, name)(axis=1, keepdims=True))
        same(got.todense(), want)


def test_integers_wrap(rng):
    da = random_dense(rng, (6, 6), np.int64, 0)
    db = random_dense(rng, (6, 6), np.int64, 0)
    a, b = sa.lazy(da, format="csr"), sa.lazy(db, format="csc")
    got = sa.compute(((a * b) ^ a).sum(axis=0))
    same(got.todense(), ((da * db) ^ da).sum(axis=0))


def test_matmul_of_expressions(rng):
    da, db, a, b = _pair(rng, (5, 5), 0.0)
    x = np.arange(5.0)
    with np.errstate(all="ignore"):
        same(sa.compute((a + b) @ x).todense(), (da + db) @ x)
        same(sa.compute(a @ (b * 2.0)).todense(), da @ (db * 2.0))
    # A semiring and a mask, on expressions.
    fa = np.where(rng.random((5, 5)) < 0.5, rng.random((5, 5)), np.inf)
    fb = np.where(rng.random((5, 5)) < 0.5, rng.random((5, 5)), np.inf)
    la, lb = sa.lazy(fa, format="csr", fill_value=np.inf), sa.lazy(fb, format="csr", fill_value=np.inf)
    m = rng.random((5, 5)) < 0.5
    got = sa.compute(sa.matmul(np.minimum(la, lb), lb, semiring=("minimum", "add"), mask=m))
    want = np.where(m, np.min(np.minimum(fa, fb)[:, :, None] + fb[None, :, :], axis=1), np.inf)
    same(got.todense(), want)


def test_shape_operations(rng):
    da, db, a, b = _pair(rng, (4, 6), 0.0)
    with np.errstate(all="ignore"):
        same(sa.compute((a + b)[1:3, ::-2]).todense(), (da + db)[1:3, ::-2])
        same(sa.compute((a * b).T.reshape(3, 8)).todense(), (da * db).T.reshape(3, 8))
        # Collapse and split of a sum in one kernel (the product read in
        # windows of the split), both orders.
        same(sa.compute((a + b).reshape(8, 3)).todense(), (da + db).reshape(8, 3))
        same(sa.compute((a - b).reshape(3, 8, order="F")).todense(),
             (da - db).reshape(3, 8, order="F"))
        same(sa.compute(np.concatenate([a + 1.0, b], axis=1)).todense(),
             np.concatenate([da + 1.0, db], axis=1))
        same(sa.compute(sa.vstack([a, b]).sum(axis=0)).todense(), np.vstack([da, db]).sum(axis=0))
        same(sa.compute(sa.expand_dims(a - b, 0).squeeze(0)).todense(), da - db)
        assert sa.compute((a + b)[2, 3]) == (da + db)[2, 3] or np.isnan((da + db)[2, 3])


def test_user_function(rng):
    @sa.function(commutative=True, identity=-0.0)
    def plus(x, y):
        return x + y

    da, db, a, b = _pair(rng, (5, 5), 0.0)
    with np.errstate(all="ignore"):
        same(sa.compute(plus(a * b, b).sum(axis=1)).todense(), (da * db + db).sum(axis=1))


def test_fused_into_one_kernel(rng):
    da, db, a, b = _pair(rng, (5, 5), 0.0)
    e = ((a + b) * (a - b)).sum(axis=1)
    planned = sa.explain(e)
    # Three maps and a reduction: one kernel, no temporary array.
    assert planned.count("sparse_array.kernel") == 1, planned
    assert "sparse_array.map" not in planned and "sparse_array.reduce " not in planned


def test_compiled_once_per_structure(rng):
    da, db, a, b = _pair(rng, (5, 5), 0.0)
    c, d = sa.lazy(db, format="csr"), sa.lazy(da, format="csr")
    e1, e2 = (a + b).sum(axis=0), (c + d).sum(axis=0)
    assert compose(e1)[0] == compose(e2)[0]
    with np.errstate(all="ignore"):
        sa.compute(e1)
    before = len(_compile._CACHE)
    got = sa.compute(e2)
    assert len(_compile._CACHE) == before
    with np.errstate(all="ignore"):
        same(got.todense(), (db + da).sum(axis=0))


def test_value_kept_and_numpy_protocol(rng):
    da, db, a, b = _pair(rng, (3, 4), 0.0)
    e = a + b
    first = e.compute()
    assert e.compute() is first
    same(np.asarray(e), da + db)
    # A lazy input computes to its array; sa.compute passes values through.
    assert sa.compute(a) is a.compute()
    assert sa.compute(3.0) == 3.0
    x, y = sa.compute(e, a - b)
    same(y.todense(), da - db)


def test_mixed_lazy_and_eager_operands(rng):
    da, db, a, b = _pair(rng, (4, 4), 0.0)
    eager = sa.asarray(db, format="csr")
    for e in (a + eager, eager + a, eager * a - b):
        assert isinstance(e, sa.Lazy)
    with np.errstate(all="ignore"):
        same(sa.compute(eager * a - b).todense(), db * da - db)


def test_errors_at_trace_time(rng):
    a = sa.lazy(np.ones((3, 4)), format="csr")
    b = sa.lazy(np.ones((4, 3)), format="csr")
    with pytest.raises(ValueError):
        a + b
    with pytest.raises(ValueError):
        a @ sa.lazy(np.ones((3, 3)))
    # Operands of different dtypes promote as in NumPy (float64 here).
    mixed = sa.compute(a + sa.lazy(np.ones((3, 4), dtype=np.int64)))
    same(mixed.todense(), np.full((3, 4), 2.0))


def test_empty_and_repeated_operands(rng):
    # 0-extent arrays, and one input read several times in one kernel.
    z = np.zeros((0, 4))
    e = sa.lazy(z, format="csr")
    same(sa.compute((e + e * 2.0).sum(axis=0)).todense(), (z + z * 2.0).sum(axis=0))
    d = random_dense(rng, (4, 5), np.float64, np.nan)
    a = sa.lazy(d, format="csr", fill_value=np.nan)
    with np.errstate(all="ignore"):
        same(sa.compute(a * a - a).todense(), d * d - d)
        same(sa.compute((a == a)).todense(), d == d)


def test_reduction_of_maximum_knows_its_zeros(rng):
    # np.maximum yields one of its operands: when the inputs' zeros have one
    # sign, so do its results, and a lazy max over them may use IEEE's
    # commutative max (a scatter) instead of NumPy's tie-breaking one over
    # every point (485 ms against 2.2 ms on a 20000^2 CSR).
    da = np.abs(random_dense(rng, (6, 5), np.float64, 0.0, specials=False))
    db = np.abs(random_dense(rng, (6, 5), np.float64, 0.0, specials=False))
    a, b = sa.lazy(da, format="csr"), sa.lazy(db, format="csr")
    planned = sa.explain(np.maximum(a, b).max(axis=0))
    assert "with @max_f64" in planned and "universe" not in planned, planned
    same(sa.compute(np.maximum(a, b).max(axis=0)).todense(), np.maximum(da, db).max(axis=0))
    # A -0.0 among +0.0s: NumPy's maximum, exactly.
    dc = db.copy()
    dc[0, :] = -0.0
    c = sa.lazy(dc, format="csr")
    assert "with @np_maximum_f64" in sa.explain(np.maximum(a, c).max(axis=0))
    same(sa.compute(np.maximum(a, c).max(axis=0)).todense(), np.maximum(da, dc).max(axis=0))
    same(sa.compute(np.maximum(a, -0.0).max(axis=1)).todense(), np.maximum(da, -0.0).max(axis=1))


def test_reduction_over_a_stack_then_a_reshape_fuses():
    # A stack reduced over its new axis, then given a unit axis: fusing the
    # reshape into the reduction kernel asked about the stack's range of
    # the reduction's own variable at a dimension the reshape does not have
    # (read past its indices: a crash in the compiler, fuzz_idioms.py seed
    # 9502 #94).
    rng = np.random.default_rng(9502)
    x = rng.random((4, 4)) < 0.3
    y = rng.random((4, 4)) < 0.3
    a, b = sa.lazy(x, format="csr"), sa.lazy(y, format="coo")
    got = sa.compute(np.stack([a, ~(a | b)], axis=-2).max(axis=1, keepdims=True))
    same(got.todense(), np.stack([x, ~(x | y)], axis=-2).max(axis=1, keepdims=True))
