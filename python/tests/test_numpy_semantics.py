"""Issue 55's NumPy-semantics classes, one test each, against NumPy on the
dense arrays (the classes were found by random NumPy programs written
independently of the package; fuzz_idioms.py draws them now)."""
import numpy as np
import pytest

import sparse_array as sa
from conftest import same


def bits(x):
    x = np.asarray(x)
    return x.view(np.uint64 if x.dtype.itemsize == 8 else np.uint32)


@pytest.fixture
def cube():
    d = np.arange(24.0).reshape(2, 3, 4)
    d[0, 1, 2] = -0.0
    d[1, 0, 0] = 0.0
    return d


@pytest.mark.parametrize("fmt", ["dense", "csf", "coo"])
def test_class3_axes_in_any_order(cube, fmt):
    a = sa.asarray(cube, format=fmt)
    for name in ("sum", "prod", "min", "max", "any", "all"):
        for axis in ((2, 0), (1, 0), (-1, 0), (2, 1, 0)):
            want = getattr(np, name)(cube, axis=axis)
            same(np.asarray(getattr(a, name)(axis=axis).todense() if np.ndim(want) else
                            getattr(a, name)(axis=axis)), want)
    same(np.count_nonzero(a, axis=(1, 0)).todense(), np.count_nonzero(cube, axis=(1, 0)))


@pytest.mark.parametrize("fmt", ["dense", "csf"])
def test_class4_empty_axes(cube, fmt):
    # Nothing reduced: each entry folded alone into the ufunc's identity
    # (NumPy: sum over () turns -0.0 into +0.0, min keeps it).
    a = sa.asarray(cube, format=fmt)
    for name in ("sum", "prod", "min", "max", "any", "all"):
        same(getattr(a, name)(axis=()).todense(), getattr(np, name)(cube, axis=()))
    same(np.count_nonzero(a, axis=()).todense(), np.count_nonzero(cube, axis=()))
    # A 0-d array reduces over axis 0 (over nothing) as in NumPy.
    zero_d = sa.asarray(np.array(-0.0))
    assert bits(np.add.reduce(zero_d)) == bits(np.add.reduce(np.array(-0.0)))


def test_class5_empty_slices():
    x = np.array([1.0, 2.0])
    a = sa.asarray(x)
    for key in (slice(-4, None, -1), slice(-3, -5, -1), slice(5, None, 1), slice(0, 0),
                slice(None, -3, -1)):
        same(a[key].todense(), x[key])


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # NumPy's, of NaN bounds
def test_class6_clip_with_nan_bounds():
    x = np.array([1.0, -0.0, np.nan, 3.0])
    a = sa.asarray(x, format="compressed")
    for lo, hi in ((np.nan, None), (None, np.nan), (np.array(np.nan), None), (np.nan, 2.0),
                   (np.nan, np.nan)):
        same(sa.clip(a, lo, hi).todense(), np.clip(x, lo, hi))
    # A 0-d float32 array clipped by a NaN: NumPy clips by a Python inf,
    # all scalars, so the result is float64.
    f = np.array(2.5, dtype=np.float32)
    same(np.clip(sa.asarray(f), np.float32(0.0), np.float32(np.nan)).todense(),
         np.clip(f, np.float32(0.0), np.float32(np.nan)))


def test_class7_asarray_of_a_lazy_expression():
    x = sa.asarray(sa.lazy(np.ones(2)) * 2, format="compressed")
    same(x.todense(), np.full(2, 2.0))
    same(sa.asarray(sa.lazy(np.eye(2)) + 1, format="csr").todense(), np.eye(2) + 1)


def test_class8_lazy_of_lazy_with_options():
    x = sa.lazy(np.arange(4))
    y = sa.lazy(x, dtype=np.float32)
    assert y.dtype == np.float32
    same(sa.compute(y).todense(), np.arange(4).astype(np.float32))
    z = sa.lazy(x * 2, format="compressed", fill_value=2)
    assert z.fill_value == 2 and [l.kind for l in z.format.levels] == ["compressed"]
    same(sa.compute(z).todense(), np.arange(4) * 2)


def test_class9_bool_sums_are_int64():
    b = np.array([[True, True, False], [True, False, False]])
    a = sa.asarray(b, format="csr")
    for got, want in ((a.sum(), b.sum()), (a.prod(), b.prod()), (np.add.reduce(a), np.add.reduce(b)),
                      (np.prod(a, axis=1), np.prod(b, axis=1)), (a.sum(axis=0), b.sum(axis=0))):
        same(got.todense() if hasattr(got, "todense") else got, want)
    assert type(a.sum()) is type(b.sum())


def test_class10_reflected_shifts():
    x = np.array([1, 2, 3, 63], dtype=np.int64)
    a = sa.asarray(x, format="compressed")
    same((4 >> a).todense(), 4 >> x)
    same((4 << a).todense(), 4 << x)
    same((np.int32(4) << sa.asarray(x.astype(np.int32))).todense(), np.int32(4) << x.astype(np.int32))


def test_class11_lazy_count_nonzero():
    x = np.array([1.0, 0.0, np.nan, -0.0])
    assert int(sa.compute(np.count_nonzero(sa.lazy(x)))) == np.count_nonzero(x)
    assert np.count_nonzero(sa.asarray(x)) == np.count_nonzero(x)


def test_class12_nan_signs_and_payloads_survive_moves():
    neg, payload = bits(np.array([np.nan])).copy(), bits(np.array([np.nan])).copy()
    neg |= np.uint64(1 << 63)
    payload |= np.uint64(0xBEEF)
    x = np.array([[1.0, neg.view(np.float64)[0]], [np.nan, payload.view(np.float64)[0]]])
    a = sa.asarray(x, format="csr", fill_value=np.nan)
    assert a.nnz == 3  # the -nan and the payload are values, the fill's NaN is not
    moves = [lambda v: v.T, lambda v: v[::-1, :], lambda v: v.reshape(4),
             lambda v: np.concatenate([v, v]), lambda v: np.stack([v, v]),
             lambda v: np.squeeze(np.expand_dims(v, 0)), lambda v: np.where(v > 1.5, 0.0, v),
             lambda v: np.negative(v), lambda v: np.abs(v), lambda v: v.astype(np.float32)]
    for move in moves:
        got = move(a).todense()
        want = move(x)
        assert np.array_equal(bits(got), bits(want)), (got, want)
        lazy = sa.compute(move(sa.lazy(x, format="csr", fill_value=np.nan))).todense()
        assert np.array_equal(bits(lazy), bits(want))


def test_class13_power_with_constant_base():
    e = np.linspace(-3, 3, 2001)
    a = sa.asarray(e)
    for base in (2.0 ** 53, 1024.0, 10.0, 2.0, 0.5):
        same(np.power(base, a).todense(), np.power(base, e))
        same((base ** a).todense(), base ** e)


def test_class14_zero_d_operands_are_numpys():
    x = np.array([-0.0, 4.0, -np.inf])
    a = sa.asarray(x, format="compressed")
    with np.errstate(all="ignore"):
        for e in (np.array(0.5), np.float64(0.5), 0.5, np.array(2.0), np.array(-1.0)):
            same((a ** e).todense(), x ** e)
        # NumPy's 0-d values are scalars: 0-d int32 + 1 is int64, a 0-d
        # float32 * 0.5 float64 (no array to keep the dtype).
        i = np.array(7, dtype=np.int32)
        same((sa.asarray(i) + 1).todense(), i + 1)
        f = np.array(1.5, dtype=np.float32)
        same((sa.asarray(f) * 0.5).todense(), f * 0.5)
        same((sa.lazy(f) * 0.5).todense(), f * 0.5)
        # A 0-d operand beside an array: value-based, as a scalar.
        same((sa.asarray(x.astype(np.float32)) * sa.asarray(np.array(0.5))).todense(),
             x.astype(np.float32) * np.array(0.5))


def test_class15_ldexp_with_int32_exponents():
    x = np.array([1.0, -2.5, 0.0, 3.0])
    a = sa.asarray(x, format="compressed")
    for e in (np.array([1, -2, 3, 1030], dtype=np.int32), np.array([1, -2, 3, 1030])):
        with np.errstate(all="ignore"):
            same(np.ldexp(a, sa.asarray(e)).todense(), np.ldexp(x, e))
            same(np.ldexp(a, e).todense(), np.ldexp(x, e))


def test_integer_power_and_bool_arithmetic():
    # Found by fuzz_idioms.py: NumPy's integer power (wrapping, negative
    # exponents refused), logical operations of numbers, +x, abs of bools.
    x = np.array([3, -2, 0, 7], dtype=np.int64)
    a = sa.asarray(x, format="compressed")
    same((a ** 5).todense(), x ** 5)
    same((a ** 41).todense(), x ** 41)  # wraps around
    with pytest.raises(ValueError):
        a ** -1
    # A negative fill exponent no entry holds (an empty array, every entry
    # stored) is no error, in NumPy nor here (fuzz_idioms seed 6912).
    for e in (np.zeros((0, 4), np.int32), np.array([[2, 3]], np.int32)):
        for fmt in ("dense", "csr", ["dense", "loose_compressed"]):
            got = 1 ** sa.asarray(e, format=fmt, fill_value=-1)
            same(got.todense(), 1 ** e)
    # A lazy exponent whose negative fill is an implicit entry: refused.
    with pytest.raises(ValueError):
        sa.compute(1 ** sa.lazy(np.array([2, -1], np.int32), format="csr", fill_value=-1))
    f = np.array([0.0, np.nan, -0.0, 2.0])
    same(np.logical_and(sa.asarray(f), sa.asarray(f[::-1].copy())).todense(),
         np.logical_and(f, f[::-1]))
    same((+a).todense(), +x)
    b = np.array([True, False])
    same(np.abs(sa.asarray(b)).todense(), np.abs(b))
    same((sa.asarray(b) / True).todense(), b / True)
    with pytest.raises(TypeError, match="convert first"):
        sa.asarray(b) % True  # NumPy computes it in int8
    # where with NumPy int8 scalars (NumPy's own False ** True) picked by a
    # sparse condition: int8 is refused as a loop in it is (fuzz_idioms
    # seed 12012), not with another message.
    eight = np.array(False) ** np.True_
    with pytest.raises(TypeError, match="convert first"):
        np.where(sa.asarray(np.array([[True], [False]]), format="dcsr"), eight, eight)



def test_zero_d_array_is_a_value():
    # An eager 0-d Array beside arrays is its value, as NumPy's 0-d arrays
    # are: -1 * x keeps x's pattern (fill -42, not 0 * 42 with every -42
    # stored), and 0 ** ~(-1 * x), whose fills' power was 0 ** -1, runs
    # (fuzz_idioms seed 12018, lazy).
    x = np.array([42, 3, 42, 42], np.int32)
    minus = sa.asarray(np.array(-1, np.int32))
    for make in (sa.asarray, sa.lazy):
        got = minus * make(x, format="compressed", fill_value=42)
        got = sa.compute(got) if isinstance(got, sa.Lazy) else got
        same(got.todense(), np.array(-1, np.int32) * x)
        assert got.fill_value == -42 and got.nnz == 1
        got = np.array(0, np.int32) ** np.invert(minus * make(x, format="compressed", fill_value=42))
        got = sa.compute(got) if isinstance(got, sa.Lazy) else got
        same(got.todense(), np.array(0, np.int32) ** np.invert(np.array(-1, np.int32) * x))


# --- The documented differences (docs/python.md's table) -----------------

def test_sum_is_the_left_fold_not_pairwise():
    x = np.array([1e16] + [1.0] * 7 + [-1e16] + [1.0] * 7)
    want = 0.0 + np.add.accumulate(x)[-1]
    got = sa.asarray(x, format="compressed").sum()
    assert bits(got) == bits(want)
    assert np.sum(x) != want  # NumPy's pairwise sum: another value here


def test_lazy_negative_integer_exponents():
    x = np.array([1, -1, 2, -1], dtype=np.int64)
    e = np.array([-3, -3, -1, -2], dtype=np.int64)
    with pytest.raises(ValueError):
        sa.asarray(x) ** sa.asarray(e)
    got = sa.compute(sa.lazy(x) ** sa.lazy(e)).todense()
    same(got, np.array([1, -1, 0, 1]))


def test_concatenate_of_different_dtypes_is_refused():
    with pytest.raises(TypeError, match="convert"):
        sa.concatenate([sa.asarray(np.ones(2)), sa.asarray(np.ones(2, dtype=np.int32))])


@pytest.mark.parametrize("poison", [None, "x -inf", "x nan", "A -inf", "A nan"])
def test_exact_min_plus_products_under_the_guard(poison):
    """(min, +) with IEEE add over a matrix whose missing entries are +inf:
    the guarded plan (no -inf/NaN anywhere: skip the +inf terms) and the
    exact one (inf + -inf is NaN) both give numpy's dense answer (issue 56)."""
    rng = np.random.default_rng(5)
    n = 40
    dense = np.where(rng.random((n, n)) < 0.1, rng.random((n, n)) * 10, np.inf)
    x = rng.random(n) * 5
    if poison == "x -inf":
        x[3] = -np.inf
    elif poison == "x nan":
        x[7] = np.nan
    elif poison == "A -inf":
        dense[2, 5] = -np.inf
    elif poison == "A nan":
        dense[4, 9] = np.nan
    a = sa.asarray(dense, format="csr", fill_value=np.inf)
    got = np.asarray(sa.matmul(a, x, semiring=("minimum", "add")).todense())
    with np.errstate(invalid="ignore"):
        want = np.minimum.reduce(dense + x[None, :], axis=1)
    assert np.array_equal(got, want, equal_nan=True), (got, want)
    # Matrix x matrix, both filled with +inf.
    got2 = np.asarray(sa.matmul(a, a, semiring=("minimum", "add")).todense())
    with np.errstate(invalid="ignore"):
        want2 = np.minimum.reduce(dense[:, :, None] + dense[None, :, :], axis=1)
    assert np.array_equal(got2, want2, equal_nan=True)


@pytest.mark.parametrize("poison", [None, "x inf", "x nan", "A -inf", "A nan", "x full"])
def test_exact_products_with_a_sparse_vector_under_the_guard(poison):
    """A @ x and x @ A, x a sparse vector, with the exact add and mul: the
    guarded plan (finite values, and every row has a k stored in neither,
    whose +0.0 term makes any -0.0 sum +0.0) over the stored products, the
    exact one (0 * inf is NaN) otherwise; both NumPy's dense answer."""
    rng = np.random.default_rng(20)
    m, n = 30, 40
    a = np.where(rng.random((m, n)) < 0.15, rng.choice([-2.0, -0.0, 1.5, 3.0], (m, n)), 0.0)
    x = np.where(rng.random(n) < 0.2, rng.choice([-1.0, -0.0, 2.0], n), 0.0)
    z = np.where(rng.random(m) < 0.2, rng.choice([-1.0, -0.0, 2.0], m), 0.0)
    a[4] = [-0.0 if k % 3 else 0.0 for k in range(n)]  # products all -0.0
    if poison == "x inf":
        x[5], z[3] = np.inf, -np.inf
    elif poison == "x nan":
        x[7], z[2] = np.nan, np.nan
    elif poison == "A -inf":
        a[2, 5] = -np.inf
    elif poison == "A nan":
        a[6, 9] = np.nan
    elif poison == "x full":  # no k stored in neither: the exact plan
        x[:] = rng.choice([-1.0, 2.0], n)
    A = sa.asarray(a, format="csr")
    with np.errstate(invalid="ignore"):
        same((A @ sa.asarray(x, format="compressed")).todense(), a @ x)
        same((sa.asarray(z, format="compressed") @ A).todense(), z @ a)


@pytest.mark.parametrize("lazy", [False, True])
def test_fast_scalar_power_is_numpys(lazy):
    """ndarray.__pow__ with a number or 0-d exponent runs another ufunc in
    NumPy 1.24 (square, sqrt, reciprocal, positive, ones_like), with its
    own dtype: a 0-d int32 ** 2 stays int32 (np.power gives int64), a 0-d
    float32 ** 0.0 stays float32 (found by fuzz_idioms.py seed 4081)."""
    cases = [(np.array(42, np.int32), 2), (np.array(42, np.int32), np.int64(2)),
             (np.array(42, np.int32), np.array(2)), (np.array([3, -2], np.int32), 2.0),
             (np.array(-0.0, np.float32), 0.0), (np.array(1.5, np.float32), 2),
             (np.array(1.5, np.float32), -1.0), (np.array(-0.0, np.float32), 1),
             (np.array([-0.0, -np.inf, 2.5], np.float64), 0.5), (np.array(7, np.int64), 3)]
    for base, exponent in cases:
        want = np.asarray(base ** exponent)
        a = (sa.lazy if lazy else sa.asarray)(base)
        got = a ** exponent
        got = sa.compute(got) if isinstance(got, sa.Lazy) else got
        got = np.asarray(got.todense() if hasattr(got, "todense") else got)
        assert got.dtype == want.dtype, (base, exponent, got.dtype, want.dtype)
        same(got, want)


def test_ldexp_of_a_numpy_float32_operand():
    """np.ldexp(numpy float32 array, sa int32 array) runs NumPy's float32
    loop (a keepdims reduction returns a NumPy array; found by
    fuzz_idioms.py seed 4083)."""
    x = np.array([1.5, -0.0, 3e38], np.float32)
    e = np.array([-3, 2, 1], np.int32)
    with np.errstate(over="ignore"):
        want = np.ldexp(x, e)
    got = np.ldexp(x, sa.asarray(e))
    same(np.asarray(got.todense()), want)
