"""User functions written in Python (sa.function) against the Python
function itself evaluated per entry (the oracle: Python's semantics)."""
import math

import numpy as np
import pytest

import sparse_array as sa
from conftest import random_dense, same


def per_entry(f, *arrays, dtype=np.float64):
    """f applied to every entry of the broadcast dense arrays in Python."""
    arrays = np.broadcast_arrays(*arrays)
    out = np.empty(arrays[0].shape, dtype=dtype)
    for idx in np.ndindex(out.shape):
        out[idx] = f(*[a[idx].item() for a in arrays])
    return out


@sa.function(commutative=True, identity=-0.0)
def exact_add(x: float, y: float) -> float:
    return x + y


@sa.function()
def relu_diff(x: float, y: float) -> float:
    d = x - y
    if d > 0:
        return d
    elif d < -10:
        return -10.0
    return 0.0


@sa.function()
def horner(x: float) -> float:
    acc = 0.0
    for i in range(4):
        acc = acc * x + (i + 1)
    return acc


@sa.function()
def python_min_max(x: float, y: float) -> float:
    return max(min(x, y), -1.0) + abs(x) * 0.5


@sa.function()
def mathy(x: float) -> float:
    return math.copysign(math.sqrt(abs(x)), x) if not math.isnan(x) else -1.0


@sa.function()
def int_mix(x: int, y: int) -> int:
    return (x << 3) ^ (y >> 70) if x > y else x * y - 7


@sa.function(algebra=sa.intersect(0, 1), fills=(False, 0.0))
def keep_where(m: bool, x: float) -> float:
    return x if m else 0.0


@sa.function(commutative=True, associative=True, idempotent=True, identity=float("inf"))
def total_min(x: float, y: float) -> float:
    # -0.0 below +0.0, NaN absorbing: commutative bit for bit.
    neg_zero_first = x == y and math.copysign(1.0, x) < 0
    return x if x < y or math.isnan(x) or neg_zero_first else y


@pytest.mark.parametrize("fill", [0.0, np.nan, -0.0])
def test_binary_functions(rng, fill):
    for f in (exact_add, relu_diff, python_min_max):
        da = random_dense(rng, (5, 6), np.float64, fill)
        db = random_dense(rng, (5, 6), np.float64, 0.0)
        got = f(sa.asarray(da, format="csr", fill_value=fill), sa.asarray(db, format="dcsr"))
        same(got.todense(), per_entry(f.py, da, db))


def test_unary_functions_and_loops(rng):
    d = random_dense(rng, (4, 5), np.float64, 0.0)
    a = sa.asarray(d, format="csr")
    same(horner(a).todense(), per_entry(_float_horner, d))
    same(mathy(a).todense(), per_entry(mathy.py, d))


def _float_horner(x):
    # Python raises OverflowError where the compiled IEEE arithmetic gives
    # inf; numpy's float64 gives what the kernel does.
    acc = np.float64(0.0)
    with np.errstate(all="ignore"):
        for i in range(4):
            acc = acc * np.float64(x) + (i + 1)
    return float(acc)


def test_integer_function(rng):
    da = random_dense(rng, (4, 6), np.int64, 0)
    db = random_dense(rng, (4, 6), np.int64, 0)

    def oracle(x, y):  # Python ints wrapped to int64
        r = int_mix.py(x, y)
        return int(np.array(r & ((1 << 64) - 1), dtype=np.uint64).astype(np.int64))
    same(int_mix(sa.asarray(da, format="csr"), sa.asarray(db, format="csr")).todense(),
         per_entry(oracle, da, db, dtype=np.int64))


def test_explicit_algebra(rng):
    m = random_dense(rng, (5, 5), np.bool_, False)
    x = random_dense(rng, (5, 5), np.float64, 0.0, specials=False)
    got = keep_where(sa.asarray(m, format="csr"), sa.asarray(x, format="csr"))
    same(got.todense(), np.where(m, x, 0.0))
    assert got.nnz <= int((m & (x != 0)).sum())


def test_reduce_and_semiring_with_functions(rng):
    d = random_dense(rng, (6, 5), np.float64, np.inf, specials=False)
    a = sa.asarray(d, format="csr", fill_value=np.inf)
    same(sa.reduce(total_min, a, axis=1).todense(), np.min(d, axis=1))
    x = rng.random(5)

    @sa.function()
    def plus(x: float, y: float) -> float:
        return x + y
    same(sa.matmul(a, x, semiring=(total_min, plus)).todense(), np.min(d + x[None, :], axis=1))
    e = random_dense(rng, (6, 5), np.float64, 0.0)
    want = np.array([0.0 if False else _fold(exact_add.py, row) for row in e])
    same(sa.reduce(exact_add, sa.asarray(e, format="csr"), axis=1).todense(), want)


def _fold(f, values, start=-0.0):
    acc = start
    for v in values:
        acc = f(acc, float(v))
    return acc


def test_false_property_is_rejected():
    with pytest.raises(ValueError, match="commutative.*does not hold"):
        @sa.function(commutative=True)
        def sub(x: float, y: float) -> float:
            return x - y
    with pytest.raises(ValueError, match="identity"):
        @sa.function(identity=0.0)
        def add(x: float, y: float) -> float:
            return x + y  # 0.0 is not an identity: -0.0 + 0.0 = 0.0


def test_unsupported_constructs():
    with pytest.raises(SyntaxError, match="List"):
        @sa.function()
        def f(x: float) -> float:
            return [x]
    with pytest.raises(NameError, match="'z'"):
        @sa.function()
        def g(x: float) -> float:
            return x + z  # noqa: F821
    with pytest.raises(SyntaxError, match="while|While"):
        @sa.function()
        def h(x: float) -> float:
            while x > 1:
                x = x / 2
            return x
    with pytest.raises(SyntaxError, match="//"):
        @sa.function()
        def k(x: int, y: int) -> int:
            return x // y
