"""Operations against numpy: element-wise ufuncs, reductions, products."""
import math
import warnings

import numpy as np
import pytest

import sparse_array as sa
from sparse_array import _compile
from conftest import random_dense, same

F64 = ["add", "subtract", "multiply", "true_divide", "power", "minimum", "maximum", "fmin",
       "fmax"]
I64 = ["add", "subtract", "multiply", "minimum", "maximum", "fmin", "fmax", "bitwise_and", "bitwise_or",
       "bitwise_xor", "left_shift", "right_shift", "gcd"]
B1 = ["logical_and", "logical_or", "logical_xor", "add", "multiply"]


def _cases(rng, dtype, fills):
    """Every ordered pair of fills, each with one pair of formats (rotating
    through sparse-sparse, sparse-dense, DCSR-COO and CSC-CSR): each case
    compiles a kernel, so not every combination."""
    formats = (("csr", "csr"), ("csr", "dense"), ("dcsr", "coo"), ("csc", "csr"))
    k = 0
    for fa in fills:
        for fb in fills:
            yield (fa, fb) + formats[k % len(formats)]
            k += 1


@pytest.mark.parametrize("name", F64)
def test_f64_ufuncs(rng, name):
    ufunc = getattr(np, name)
    for fa, fb, fmt_a, fmt_b in _cases(rng, np.float64, [0.0, np.nan, -0.0]):
        da = random_dense(rng, (5, 6), np.float64, fa)
        db = random_dense(rng, (5, 6), np.float64, fb)
        a = sa.asarray(da, format=fmt_a, fill_value=fa)
        b = sa.asarray(db, format=fmt_b, fill_value=fb)
        with np.errstate(all="ignore"):
            want = ufunc(da, db)
        got = ufunc(a, b)
        assert isinstance(got, sa.Array)
        same(got.todense(), want)


@pytest.mark.parametrize("name", I64)
def test_i64_ufuncs(rng, name):
    ufunc = getattr(np, name)
    for fa, fb, fmt_a, fmt_b in _cases(rng, np.int64, [0, 1]):
        da = random_dense(rng, (4, 7), np.int64, fa)
        db = random_dense(rng, (4, 7), np.int64, fb)
        if name in ("left_shift", "right_shift"):
            db = np.abs(db) % 70  # numpy's shifts by 64 or more
        with np.errstate(all="ignore"):
            want = ufunc(da, db)
        got = ufunc(sa.asarray(da, format=fmt_a, fill_value=fa),
                    sa.asarray(db, format=fmt_b, fill_value=db.flat[0] if fb else fb))
        same(got.todense(), want)


@pytest.mark.parametrize("name", B1)
def test_bool_ufuncs(rng, name):
    ufunc = getattr(np, name)
    da = random_dense(rng, (6, 5), np.bool_, False)
    db = random_dense(rng, (6, 5), np.bool_, True)
    same(ufunc(sa.asarray(da, format="csr"), sa.asarray(db, format="coo", fill_value=True)).todense(),
         ufunc(da, db))


def test_operators_and_broadcasting(rng):
    da = random_dense(rng, (5, 6), np.float64, 0.0)
    a = sa.asarray(da, format="csr")
    row = np.arange(6.0) - 2.0
    same((a + row).todense(), da + row)
    same((a * 2.0).todense(), da * 2.0)
    same((3.0 - a).todense(), 3.0 - da)
    same((a / 4.0).todense(), da / 4.0)
    col = sa.asarray(np.arange(5.0).reshape(5, 1))
    same((a * col).todense(), da * np.arange(5.0).reshape(5, 1))
    with pytest.raises(ValueError):
        a + sa.asarray(np.ones((5, 5)))


@pytest.mark.parametrize("name", ["multiply", "add", "minimum", "true_divide"])
@pytest.mark.parametrize("fmts", [("csc", "csr"), ("csr", "csr"), ("coo", "csc")])
def test_sparse_outer_broadcast(name, fmts):
    """x[:, None] op y[None, :] of two sparse vectors (stored as n x 1 and
    1 x m matrices): the column loop reads one of them to its last level,
    so where it holds nothing the inner loop visits the other's entries
    only (build-lattices.mlir, @outer_exact) -- with values whose product
    with the fill 0 is -0.0, NaN or inf, stored."""
    ufunc = getattr(np, name)
    xd = np.zeros((7, 1))
    xd[[0, 2, 3, 5], 0] = [1.5, -2.0, np.inf, np.nan]
    yd = np.zeros((1, 9))
    yd[0, [1, 4, 6, 8]] = [-0.0, 3.0, -np.inf, 0.5]
    x = sa.asarray(xd, format=fmts[0])
    y = sa.asarray(yd, format=fmts[1])
    with np.errstate(all="ignore"):
        want = ufunc(xd, yd)
        want_t = ufunc(yd.T, xd.T)
    same(ufunc(x, y).todense(), want)
    same(ufunc(y.T, x.T).todense(), want_t)


def _left_fold(ufunc, d, axes):
    """The dense program's fold: reduced dimensions moved last, flattened in
    C order, combined from the first entry on (numpy's accumulate)."""
    kept = [x for x in range(d.ndim) if x not in axes]
    moved = np.transpose(d, kept + list(axes)).reshape([d.shape[x] for x in kept] + [-1])
    with np.errstate(all="ignore"):
        return ufunc.accumulate(moved, axis=-1)[..., -1]


@pytest.mark.parametrize("name,ufunc", [("sum", np.add), ("prod", np.multiply),
                                        ("min", np.minimum), ("max", np.maximum)])
@pytest.mark.parametrize("fmt", ["csr", "csc", "dense", "coo"])
def test_reductions(rng, name, ufunc, fmt):
    for fill in (0.0, np.nan, -0.0, 2.0):
        d = random_dense(rng, (5, 7), np.float64, fill)
        a = sa.asarray(d, format=fmt, fill_value=fill)
        for axis in (0, 1, None, (0, 1)):
            axes = (0, 1) if axis is None else axis if isinstance(axis, tuple) else (axis,)
            want = _left_fold(ufunc, d, axes)
            got = getattr(a, name)(axis=axis)
            got = got.todense() if isinstance(got, sa.Array) else np.asarray(got)
            same(got, want)


def test_reductions_3d_and_keepdims(rng):
    d = random_dense(rng, (3, 4, 5), np.int64, 1)
    a = sa.asarray(d, format="csf", fill_value=1)
    for axis in (0, 1, 2, (0, 2)):
        axes = axis if isinstance(axis, tuple) else (axis,)
        same(a.sum(axis=axis).todense(), _left_fold(np.add, d, axes))
    same(np.asarray(a.sum(axis=1, keepdims=True).todense()), d.sum(axis=1, keepdims=True))
    b = sa.asarray(d > 2, format="csf")
    same(b.any(axis=1).todense(), (d > 2).any(axis=1))
    same(b.all(axis=2).todense(), (d > 2).all(axis=2))


def test_matmul(rng):
    da = random_dense(rng, (6, 5), np.float64, 0.0, specials=False)
    db = random_dense(rng, (5, 4), np.float64, 0.0, specials=False)
    a, b = sa.asarray(da, format="csr"), sa.asarray(db, format="csr")
    np.testing.assert_allclose((a @ b).todense(), da @ db, rtol=1e-12)
    x = rng.random(5)
    np.testing.assert_allclose((a @ x).todense(), da @ x, rtol=1e-12)
    # Exact with infinities: 0 * inf is NaN, as in the dense program.
    di = da.copy()
    di[0, 0] = np.inf
    got = (sa.asarray(di, format="csr") @ x).todense()
    assert np.isinf(got[0]) or np.isnan(got[0])
    with np.errstate(invalid="ignore"):
        assert np.array_equal(np.isnan(got), np.isnan(di @ x))


def test_min_plus(rng):
    dist = random_dense(rng, (6, 6), np.float64, np.inf, specials=False)
    a = sa.asarray(dist, format="csr", fill_value=np.inf)
    x = rng.random(6)
    want = np.min(dist + x[None, :], axis=1)
    same(sa.matmul(a, x, semiring=("minimum", "add")).todense(), want)
    same(sa.matmul(a, a, semiring=("minimum", "add")).todense(),
         np.min(dist[:, :, None] + dist[None, :, :], axis=1))


def test_kernels_are_cached(rng):
    a = sa.asarray(random_dense(rng, (4, 4), np.float64, 0.0), format="csr")
    a + a
    n = len(_compile._CACHE)
    b = sa.asarray(random_dense(rng, (9, 3), np.float64, 0.0), format="csr")
    b + b  # another shape, same kernel
    assert len(_compile._CACHE) == n


def test_runtime_error_is_an_exception(rng):
    # A kernel whose extents are only checked at run time, called with
    # mismatched operands: an exception, and the interpreter goes on.
    a = sa.asarray(np.ones((3, 4)), format="csr")
    b = sa.asarray(np.ones((3, 5)), format="csr")
    t = a.mlir_type()
    tb = b.mlir_type()
    text = "\n".join([
        "func.func @bad(%%a: %s, %%b: %s) -> %s {" % (t, tb, t),
        "  %%r = sparse_array.map @add_f64(%%a, %%b) : (%s, %s) -> %s" % (t, tb, t),
        "  return %r : " + t, "}"])
    with pytest.raises(sa.SparseArrayError, match="size"):
        _compile._call(text, "bad", [a, b], (3, 4), np.float64, a.format, 0.0)
    same((a + a).todense(), np.full((3, 4), 2.0))


def test_compile_error():
    with pytest.raises(sa.CompileError, match="error"):
        _compile._module("func.func @broken(")


def test_compile_options_verify_each_and_opt():
    # verify_each: the IR verified after every pass (sa-run --verify-each);
    # by default only after the last. opt: the JIT's level (default 3).
    from sparse_array import _capi
    text = "func.func @f(%x: f64) -> f64 {\n  return %x : f64\n}\n"
    for options in ("verify_each=0", "verify_each=1", "opt=2;verify_each=1", "opt=0"):
        _capi.Module(text, options).lookup("f")
    with pytest.raises(sa.CompileError, match="verify_each"):
        _capi.Module(text, "verify_each=2")


def test_numpy_functions_declare_true_properties():
    # numpy.mlir's declared properties hold (the property checker's
    # counterexample search over NaN, ±inf, ±0.0, INT64_MIN, ...).
    import os
    import subprocess
    here = os.path.dirname(os.path.abspath(sa.__file__))
    sa_opt = os.path.join(here, "..", "..", "bin", "sa-opt")
    if not os.path.exists(sa_opt):
        pytest.skip("sa-opt is not next to the package (installed copy)")
    r = subprocess.run([sa_opt, os.path.join(here, "numpy.mlir"),
                        "--sparse-array-check-properties", "-o", os.devnull],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("complement", [False, True])
def test_masked_products(rng, complement):
    da = random_dense(rng, (6, 5), np.float64, 0.0, specials=False)
    db = random_dense(rng, (5, 4), np.float64, 0.0, specials=False)
    m = rng.random((6, 4)) < 0.4
    a, b = sa.asarray(da, format="csr"), sa.asarray(db, format="csr")
    got = sa.matmul(a, b, mask=sa.asarray(m, format="csr"), complement=complement)
    keep = ~m if complement else m
    np.testing.assert_allclose(got.todense(), np.where(keep, da @ db, 0.0), rtol=1e-12)
    # Min-plus with a vector mask: C<¬seen> = D min.+ dist (a BFS/SSSP step).
    dist = random_dense(rng, (5, 5), np.float64, np.inf, specials=False)
    x = rng.random(5)
    seen = rng.random(5) < 0.5
    y = sa.matmul(sa.asarray(dist, format="csr", fill_value=np.inf), x,
                  semiring=("minimum", "add"), mask=seen, complement=complement)
    sel = ~seen if complement else seen
    same(y.todense(), np.where(sel, np.min(dist + x[None, :], axis=1), np.inf))


def test_empty_reductions_are_numpys():
    for fmt in ("csr", "dense"):
        a = sa.asarray(np.zeros((3, 0)), format=fmt)
        same(a.sum(axis=1).todense(), np.zeros((3, 0)).sum(axis=1))  # +0.0
        same(a.prod(axis=1).todense(), np.ones(3))
        assert a.sum() == 0.0 and not np.signbit(a.sum())
        with pytest.raises(ValueError, match="identity"):
            a.max(axis=1)
    b = sa.asarray(np.zeros((0, 4), dtype=bool), format="csr")
    same(b.any(axis=0).todense(), np.zeros(4, dtype=bool))
    same(b.all(axis=0).todense(), np.ones(4, dtype=bool))


def test_explain(rng):
    a = sa.asarray(random_dense(rng, (4, 5), np.float64, 0.0), format="csr")
    plan = sa.explain(np.multiply, a, a)
    # The product of two fill-0 operands under the exact mul_f64 (0 * inf
    # is NaN: no annihilator) iterates their union; lattices per loop.
    assert "sparse_array.kernel" in plan and "algebra = #sparse_array.algebra<" in plan
    assert "lattice<loop 1" in plan
    colsum = sa.explain(lambda x: x.sum(axis=0), a)
    assert "scatter_loops" in colsum  # column sums of CSR scatter, no conversion
    with pytest.raises(ValueError, match="no kernel"):
        sa.explain(lambda: None)


def test_min_max_skip_fills_without_signed_zero_ties(rng):
    # NumPy's minimum differs from IEEE's only on a +0.0/-0.0 tie: without
    # one the commutative min_f64 is used (its reduction skips the fills),
    # with one the exact np_minimum_f64 (every point visited).
    d = random_dense(rng, (6, 7), np.float64, 0.0, specials=False)
    d[d == 0] = 0.0  # no -0.0 anywhere
    d[0, 0] = np.nan
    a = sa.asarray(d, format="csr")
    assert "@min_f64" in sa.explain(lambda x: x.min(axis=1), a)
    same(a.min(axis=1).todense(), _left_fold(np.minimum, d, (1,)))
    same(a.max(axis=0).todense(), _left_fold(np.maximum, d, (0,)))
    d[1, 2] = -0.0
    b = sa.asarray(d, format="csr")
    assert "@np_minimum_f64" in sa.explain(lambda x: x.min(axis=1), b)
    same(b.min(axis=1).todense(), _left_fold(np.minimum, d, (1,)))
    same(b.max(axis=1).todense(), _left_fold(np.maximum, d, (1,)))
    dist = random_dense(rng, (5, 5), np.float64, np.inf, specials=False)
    dist[dist == 0] = 0.0
    g = sa.asarray(dist, format="csr", fill_value=np.inf)
    x = rng.random(5)
    assert "@min_f64" in sa.explain(sa.matmul, g, x, semiring=("minimum", "add"))
    same(sa.matmul(g, x, semiring=("minimum", "add")).todense(), np.min(dist + x[None, :], axis=1))


def test_ldexp_mixed_dtypes(rng):
    x = random_dense(rng, (5, 6), np.float64, 0.0)
    e = random_dense(rng, (5, 6), np.int64, 0)
    e[0, :3] = [2000, -3000, 1 << 40]  # saturating exponents
    with np.errstate(all="ignore"):
        want = np.ldexp(x, e)
    got = np.ldexp(sa.asarray(x, format="csr"), sa.asarray(e, format="dcsr"))
    same(got.todense(), want)
    with np.errstate(all="ignore"):
        same(np.ldexp(sa.asarray(x, format="csr"), 3).todense(), np.ldexp(x, 3))
    with pytest.raises(TypeError, match="ldexp"):
        np.ldexp(sa.asarray(x, format="csr"), sa.asarray(x, format="csr"))


def test_axis_out_of_range_is_numpys_error():
    a = sa.asarray(np.ones((2, 3)), format="csr")
    with pytest.raises(np.AxisError):
        a.sum(axis=2)
    with pytest.raises(np.AxisError):
        a.max(axis=(0, -3))
    same(a.sum(axis=-1).todense(), np.full(2, 3.0))


def test_large_inputs_use_the_parallel_build(rng):
    # Past PARALLEL_MIN_ENTRIES stored entries the kernel compiled with
    # OpenMP runs (its own module); its results are numpy's too.
    import scipy.sparse as sp
    n = 400
    A = sp.random(n, n, density=0.3, format="csr", random_state=5)
    B = sp.random(n, n, density=0.3, format="csr", random_state=6)
    assert A.nnz + B.nnz >= _compile.PARALLEL_MIN_ENTRIES
    a, b = sa.asarray(A), sa.asarray(B)
    before = len(_compile._CACHE)
    got = a + b
    assert any(key[1] for key in list(_compile._CACHE)[before:]), "no parallel module compiled"
    same(got.todense(), (A + B).toarray())
    same(a.sum(axis=1).todense(), np.add.accumulate(A.toarray(), axis=1)[:, -1])
    x = np.arange(n, dtype=np.float64)
    assert np.allclose((a @ x).todense(), A @ x)
    # The same kernel on a small input: the sequential build.
    small = sa.asarray(A[:4, :4])
    same((small + small).todense(), (A[:4, :4] + A[:4, :4]).toarray())


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.bool_])
def test_comparisons(rng, dtype):
    fills = [0, 1] if np.dtype(dtype).kind != "f" else [0.0, np.nan]
    for fa in fills:
        da = random_dense(rng, (5, 6), dtype, fa)
        db = random_dense(rng, (5, 6), dtype, fills[0])
        a = sa.asarray(da, format="csr", fill_value=fa)
        b = sa.asarray(db, format="coo", fill_value=fills[0])
        for name in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal"):
            with np.errstate(all="ignore"):
                got = getattr(np, name)(a, b)
                want = getattr(np, name)(da, db)
            assert got.dtype == np.bool_
            same(got.todense(), want)
    # Operators, and a comparison with a scalar (its fill: the scalar's).
    same((a < b).todense(), da < db)
    same((a != b).todense(), da != db)
    same((a >= 1).todense(), da >= 1)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32])
def test_negative_absolute(rng, dtype):
    fill = -0.0 if np.dtype(dtype).kind == "f" else 3
    d = random_dense(rng, (4, 6), dtype, fill)
    a = sa.asarray(d, format="dcsr", fill_value=fill)
    with np.errstate(all="ignore"):
        same((-a).todense(), -d)
        same(abs(a).todense(), np.abs(d))
        assert (-a).fill_value == -np.array(fill, dtype=dtype) or np.isnan(fill)


@pytest.mark.parametrize("fill", [0.0, -0.0, -np.inf, np.nan, 4.0])
def test_power_one_half_is_numpys_sqrt(rng, fill):
    # NumPy computes `x ** 0.5` as sqrt (-0.0 stays -0.0, -inf is NaN) but
    # np.power(x, 0.5) as pow (0.0 and inf there): found by fuzz_programs.py.
    d = random_dense(rng, (4, 5), np.float64, fill)
    d[0, :3] = [-0.0, -np.inf, -4.0]
    a = sa.asarray(d, format="csr", fill_value=fill)
    with np.errstate(all="ignore"):
        for half in (0.5, np.float64(0.5), np.array(0.5)):
            same((a ** half).todense(), d ** half)
        # A 0-d sparse_array exponent is a 0-d ndarray to NumPy (found by
        # fuzz_idioms.py seed 9804: -0.0 ** asarray(0.5) gave 0.0).
        same((a ** sa.asarray(np.array(0.5))).todense(), d ** np.array(0.5))
        same((a ** sa.asarray(np.array(2))).todense(), d ** np.array(2))
        same(np.sqrt(a).todense(), np.sqrt(d))
        same(np.power(a, 0.5).todense(), np.power(d, 0.5))
        same(sa.compute(sa.lazy(d, format="csr", fill_value=fill) ** 0.5).todense(), d ** 0.5)
        same((2.0 ** a).todense(), 2.0 ** d)


def test_numpy_promotion():
    # Operands NumPy promotes are converted as NumPy converts them (its own
    # type resolution decides, value-based for scalars): int + 1.5 is
    # float64, never truncated (int + 1.5 once gave [2, 3, 4]: found by
    # fuzz_programs.py); what NumPy keeps in the array's dtype stays so.
    i = np.array([1, 2, 3])
    i32 = np.array([1, 2, 3], dtype=np.int32)
    f32 = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    si, si32, sf32 = (sa.asarray(x, format="compressed") for x in (i, i32, f32))
    with np.errstate(all="ignore"):
        for got, want in [(si + 1.5, i + 1.5), (si < 1.5, i < 1.5),
                          (si32 + np.array([2**40, 1, 1]), i32 + np.array([2**40, 1, 1])),
                          (si32 + np.int64(2**40), i32 + np.int64(2**40)),
                          (sf32 + 1e300, f32 + 1e300), (sf32 + np.ones(3), f32 + np.ones(3)),
                          (si32 + 5, i32 + 5), (si32 * np.array([1, 2, 3], dtype=np.int16),
                                                i32 * np.array([1, 2, 3], dtype=np.int16)),
                          (sf32 + 0.1, f32 + 0.1), (si32 + si, i32 + i), (sf32 * si32, f32 * i32),
                          (4 >> si32, 4 >> i32), (2.0 ** si32, 2.0 ** i32)]:
            same(got.todense(), want)
    # A 0-d array is a scalar to NumPy: a 0-d int32 + 1 is int64.
    zero_d = np.array(7, dtype=np.int32)
    same((sa.asarray(zero_d) + 1).todense(), zero_d + 1)
    # A product of different dtypes is still refused.
    with pytest.raises(TypeError, match="convert one first"):
        si32 @ np.ones(3, dtype=np.int64)


@pytest.mark.parametrize("fmt", ["csr", "dense"])
def test_matmul_over_empty_inner_extent_is_numpys(fmt):
    # NumPy's sums start at +0.0: an empty one is +0.0, not add's identity
    # -0.0 (found by fuzz_programs.py); eagerly and lazily.
    a = sa.asarray(np.zeros((2, 0)), format=fmt, fill_value=np.nan)
    same((a @ np.zeros(0)).todense(), np.zeros((2, 0)) @ np.zeros(0))
    same((a @ np.zeros((0, 3))).todense(), np.zeros((2, 3)))
    lazy = sa.lazy(np.zeros((2, 0)), format=fmt)
    same(sa.compute(lazy @ np.zeros(0)).todense(), np.zeros(2))


def test_scalar_operands_are_constants(rng):
    # a * 2.0 iterates a's entries, not every point: the scalar is a
    # constant of the function, not a dense 0-d operand (whose union with
    # a is the universe: 850 ms against 3 ms on a 20000^2 CSR).
    d = random_dense(rng, (5, 6), np.float64, 0.0)
    a = sa.asarray(d, format="csr")
    planned = sa.explain(np.multiply, a, 2.0)
    assert "algebra = #sparse_array.algebra<0>" in planned, planned
    with np.errstate(all="ignore"):
        for f in (lambda x: x * 2.0, lambda x: 2.0 - x, lambda x: x + np.nan, lambda x: x * -0.0,
                  lambda x: np.maximum(x, 0.5), lambda x: x > 0.5, lambda x: x ** 0.5,
                  lambda x: np.power(x, 3.0), lambda x: x * np.inf):
            same(f(a).todense(), f(d))
            same(sa.compute(f(sa.lazy(d, format="csr"))).todense(), f(d))
        i = sa.asarray(random_dense(rng, (4, 4), np.int64, 0), format="dcsr")
        same((i << 3).todense(), i.todense() << 3)
        same((7 - i).todense(), 7 - i.todense())
        b = sa.asarray(random_dense(rng, (4, 4), np.bool_, False), format="csr")
        same((b & True).todense(), b.todense() & True)
        same((b == False).todense(), b.todense() == False)  # noqa: E712

    # A user function's scalar argument too (sa.function).
    @sa.function()
    def soft(x: float, t: float) -> float:
        if abs(x) <= t:
            return 0.0
        return x - math.copysign(t, x)

    assert "algebra = #sparse_array.algebra<0>" in sa.explain(soft, a, 0.3)
    want = np.where(np.abs(d) <= 0.3, 0.0, d - np.copysign(0.3, d))
    same(soft(a, 0.3).todense(), want)
    same(sa.compute(soft(sa.lazy(d, format="csr"), 0.3)).todense(), want)


@pytest.mark.parametrize("fill", [0.0, -0.0])
@pytest.mark.parametrize("fmt", ["csr", "dense"])
def test_matmul_of_negative_zero_products_is_numpys(fmt, fill):
    # A sum whose products are all -0.0 is +0.0 in NumPy (its sums start
    # there); the kernel's exact sum alone gives -0.0. Also the fill (the
    # fills' products summed) and sparse-by-sparse products.
    a = np.array([[-0.0, 1.0, 0.0], [0.0, -2.0, 0.0], [fill, fill, fill]])
    x = np.array([1.0, -0.0, -3.0])
    A = sa.asarray(a, format=fmt, fill_value=fill)
    same((A @ x).todense(), a @ x)
    same(sa.compute(sa.lazy(A) @ x).todense(), a @ x)
    b = np.array([[1.0, 0.0], [-0.0, 2.0], [0.0, 0.0]])
    B = sa.asarray(b, format=fmt, fill_value=fill)
    same((A @ B).todense(), a @ b)
    same(sa.compute(sa.lazy(A) @ B).todense(), a @ b)
    assert not np.signbit((A @ B).fill_value)


def test_where_is_numpys():
    # Values taken as they are (-0.0, NaN, inf), any operand a scalar,
    # conditions sparse, dense or NumPy, eagerly and lazily.
    x = np.array([[1.0, -0.0, 0.0, np.nan], [0.0, 2.0, -3.0, np.inf]])
    y = np.array([[0.0, 5.0, -0.0, 1.0], [7.0, 0.0, 0.0, -np.inf]])
    X = sa.asarray(x, format="csr")
    Y = sa.asarray(y, format="csr", fill_value=-0.0)
    C = sa.asarray(x > 0, format="csr")
    cases = [((C, X, Y), (x > 0, x, y)), ((x > 0, X, Y), (x > 0, x, y)),
             ((C, X, 0.0), (x > 0, x, 0.0)), ((C, -0.0, Y), (x > 0, -0.0, y)),
             ((X, X, Y), (x, x, y)), ((C[0], X, Y), ((x > 0)[0], x, y))]
    for args, ref in cases:
        r = np.where(*args)
        same(r.todense(), np.where(*ref))
        assert sa.where(*args).fill_value.tobytes() == r.fill_value.tobytes()
    lazy = sa.compute(np.where(sa.lazy(X) > 0, sa.lazy(X) * 2, Y))
    same(lazy.todense(), np.where(x > 0, x * 2, y))
    i = sa.asarray(np.array([3, 0, -2]), format="compressed")
    same(np.where(i, i, 7).todense(), np.where([3, 0, -2], [3, 0, -2], 7))
    with pytest.raises(TypeError, match="convert"):
        np.where(C, X, sa.asarray(np.ones((2, 4), dtype=np.int64)))
    with pytest.raises(TypeError, match="condition"):
        np.where(C)
    with pytest.raises(TypeError, match="convert"):
        np.where(i > 0, i, 1.5)


_SPECIAL_F = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 3.5, 0.5, -0.5, 7.0, -7.0, 1e300,
              -1e-300, np.inf, -np.inf, np.nan, 5.75, -5.75, 2.0, -3.0]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.bool_])
def test_written_ufuncs_are_numpys(dtype):
    # Every pair of special values (x in rows, y in columns): floor, ceil,
    # trunc, rint, square, reciprocal, sign, the predicates, invert, //, %
    # and fmod (NumPy's npy_divmod for floats; x // 0, x % 0 and
    # MIN // -1 without a trap for integers), true division of integers;
    # eagerly and lazily, NaN as one value (docs/README.md).
    if dtype == np.bool_:
        pool = np.array([True, False])
    elif np.dtype(dtype).kind == "i":
        info = np.iinfo(dtype)
        pool = np.array([0, 1, -1, 2, -2, 7, -7, 3, -3, info.min, info.max], dtype=dtype)
    else:
        with np.errstate(over="ignore"):  # 1e300 is inf in float32
            pool = np.array(_SPECIAL_F, dtype=dtype)
    n = len(pool)
    x = np.repeat(pool, n).reshape(n, n)
    y = np.tile(pool, n).reshape(n, n)
    X = sa.asarray(x, format="csr", fill_value=dtype(1))
    Y = sa.asarray(y, format="csr", fill_value=dtype(0))
    ufuncs = [np.floor, np.ceil, np.trunc, np.rint, np.square, np.reciprocal, np.sign,
              np.isnan, np.isinf, np.isfinite, np.signbit, np.logical_not, np.invert,
              np.floor_divide, np.remainder, np.fmod, np.true_divide]
    compared = 0
    for f in ufuncs:
        args, dense = ((X,), (x,)) if f.nin == 1 else ((X, Y), (x, y))
        try:
            got = f(*args)
        except TypeError:
            continue  # not for this dtype (floor of ints, / of bools, ...)
        with np.errstate(all="ignore"):
            want = f(*dense)
        lazy = sa.compute(f(*[sa.lazy(a) for a in args]))
        for r in (got, lazy):
            d = r.todense()
            assert d.dtype == want.dtype, f.__name__
            if d.dtype.kind == "f":
                nan = np.isnan(want)
                assert (np.isnan(d) == nan).all(), f.__name__
                same(np.where(nan, 0, d), np.where(nan, 0, want))
            else:
                assert (d == want).all(), f.__name__
        compared += 1
    assert compared >= {"f": 16, "i": 10, "b": 2}[np.dtype(dtype).kind]


def test_operators_reach_the_written_ufuncs():
    a = np.array([[7.0, -7.5, 0.0], [-0.0, 3.0, 1.0]])
    A = sa.asarray(a, format="csr")
    with np.errstate(all="ignore"):
        for got, want in [(A // 2.0, a // 2.0), (9.0 // A, 9.0 // a), (A % -2.0, a % -2.0),
                          (5.0 % A, 5.0 % a), (1.0 / A, 1.0 / a), (A / 4.0, a / 4.0)]:
            d, nan = got.todense(), np.isnan(want)
            assert (np.isnan(d) == nan).all()
            same(np.where(nan, 0, d), np.where(nan, 0, want))
    i = np.array([5, -5, 0, 9])
    I = sa.asarray(i, format="compressed")
    same((~I).todense(), ~i)
    same((I // 2).todense(), i // 2)
    same((I % 3).todense(), i % 3)
    same((I / 2).todense(), i / 2)
    same((3 & I).todense(), 3 & i)
    same((6 ^ I).todense(), 6 ^ i)


def test_astype_is_numpys():
    # Every pair of supported dtypes, on values that round, wrap, overflow
    # and are NaN/inf (NumPy on x86: the integer's smallest value), the
    # fill converted too; eagerly and lazily.
    f = np.array([0.0, -0.0, 2.7, -2.7, 3e9, -3e9, 1e19, -1e19, np.nan, np.inf, -np.inf,
                  2147483647.9, -2147483648.9, 16777217.0, 1e300, 0.1])
    i = np.array([0, 1, -1, 2**62 + 1, -(2**40) - 7, 2**53 + 1, 2**31, -(2**31) - 1])
    pools = {np.float64: f, np.int64: i, np.bool_: np.array([True, False])}
    dtypes = [np.float64, np.float32, np.int64, np.int32, np.bool_]
    for source in dtypes:
        with np.errstate(all="ignore"):
            values = pools.get(source, pools[np.float64] if np.dtype(source).kind == "f"
                               else pools[np.int64]).astype(source)
        for fill in values[:3]:
            a = sa.asarray(values, format="compressed", fill_value=fill)
            for target in dtypes:
                with np.errstate(all="ignore"):
                    want = values.astype(target)
                    want_fill = np.asarray(fill).astype(target)
                for r in (a.astype(target), sa.compute(sa.lazy(a).astype(target))):
                    d = r.todense()
                    assert d.dtype == np.dtype(target)
                    if d.dtype.kind == "f":
                        nan = np.isnan(want)
                        assert (np.isnan(d) == nan).all()
                        same(np.where(nan, 0, d), np.where(nan, 0, want))
                    else:
                        assert (d == want).all(), (source, target, d, want)
                    assert np.asarray(r.fill_value).tobytes() == want_fill.tobytes() or (
                        np.isnan(r.fill_value) and np.isnan(want_fill))


def test_clip_is_numpys():
    # NumPy 1.24's clip: a NaN of x stays; on a tie the bound's value (its
    # zero sign); a scalar NaN bound is no bound, an array bound's NaN is
    # NaN; None for one bound; bounds sparse, dense or scalars; lazily too.
    x = np.array([[0.0, -0.0, np.nan, 5.0, -5.0, 0.5], [2.0, -np.inf, np.inf, 1.0, -1.0, 0.0]])
    lo = np.array([[-0.0, 0.0, 1.0, np.nan, -1.0, 0.5], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]])
    X = sa.asarray(x, format="csr")
    LO = sa.asarray(lo, format="csr", fill_value=0.0)
    cases = [((X, -0.0, 1.0), (x, -0.0, 1.0)), ((X, 0.0, 1.0), (x, 0.0, 1.0)),
             ((X, np.nan, 1.0), (x, None, 1.0)), ((X, None, -0.0), (x, None, -0.0)),
             ((X, LO, 2.0), (x, lo, 2.0)), ((X, LO, None), (x, lo, None)),
             ((X, -1.0, LO[1]), (x, -1.0, lo[1]))]
    for args, ref in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            want = np.clip(*ref)
        for r in (np.clip(*args), args[0].clip(*args[1:]),
                  sa.compute(np.clip(sa.lazy(args[0]), *args[1:]))):
            d = r.todense()
            assert (np.isnan(d) == np.isnan(want)).all()
            same(np.where(np.isnan(want), 0, d), np.where(np.isnan(want), 0, want))
    i = np.array([-7, 0, 3, 9])
    same(np.clip(sa.asarray(i, format="compressed"), -2, 5).todense(), np.clip(i, -2, 5))
    with pytest.raises(ValueError):
        np.clip(X, None, None)


def test_numpy_functions_and_methods_reach_the_package():
    # np.sum/prod/max/min/any/all, ufunc.reduce (NumPy's default axis 0),
    # np.matmul, np.dot, x @ A, A.dot, np.count_nonzero, ravel/flatten,
    # len and copy: what NumPy code calls on arrays.
    a = np.array([[2.0, 0.0, -0.0], [np.nan, 1.5, 0.0], [0.0, 0.0, -3.0]])
    x = np.array([1.0, -2.0, 0.5])
    A = sa.asarray(a, format="csr")
    # Against NumPy's own results (three entries per fold: NumPy's sums
    # are the left folds the package computes).
    for got, want in [(np.sum(A, axis=0), np.sum(a, axis=0)),
                      (np.add.reduce(A), np.add.reduce(a)),
                      (np.maximum.reduce(A, axis=1), np.maximum.reduce(a, axis=1)),
                      (np.prod(A, axis=1, keepdims=True), np.prod(a, axis=1, keepdims=True))]:
        same(np.asarray(got.todense() if hasattr(got, "todense") else got), want)
    assert np.max(A) is not None and np.isnan(np.max(A)) and np.isnan(np.min(A))
    assert np.any(A) == np.any(a) and np.all(A) == np.all(a)
    same(np.all(A, axis=1).todense(), np.all(a, axis=1))
    for got in (np.matmul(A, x), np.dot(A, x), A.dot(x)):
        same(got.todense(), a @ x)
    same((x @ A).todense(), x @ a)
    same(np.dot(2.0, A).todense(), 2.0 * a)
    assert np.count_nonzero(A) == np.count_nonzero(a) == 4
    same(np.count_nonzero(A, axis=0).todense(), np.count_nonzero(a, axis=0).astype(np.int64))
    same(A.ravel().todense(), a.ravel())
    same(A.flatten(order="F").todense(), a.flatten(order="F"))
    same(np.ravel(A).todense(), np.ravel(a))
    assert len(A) == 3 and A.copy() is A and bool(A)
    # dtype= accumulates in that type, as NumPy does (dask.array passes it).
    same(np.sum(A, dtype=np.float32), np.sum(a, dtype=np.float32))
    same(A.sum(axis=0, dtype=np.float32).todense(), a.sum(axis=0, dtype=np.float32))
    with pytest.raises(TypeError):
        np.sum(A, out=np.zeros(()))
    lazy = sa.lazy(A)
    same(sa.compute(np.add.reduce(lazy, axis=1)).todense(), A.sum(axis=1).todense())


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_round_is_numpys(dtype):
    # NumPy's rint(a * 10**d) / 10**d, bit for bit (ties to even, 2.675,
    # 1.005, -0.0, inf, NaN), for positive, zero and negative decimals.
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.normal(size=200) * 1000,
                        [0.5, 1.5, 2.5, -0.5, -0.0, 0.125, np.inf, np.nan, 2.675, 1.005]])
    x = x.astype(dtype)
    X = sa.asarray(x, format="compressed")
    for d in [0, 1, 2, 3, -1, -2, 10, -3]:
        with np.errstate(all="ignore"):
            want = np.round(x, d)
        for r in (np.round(X, d), np.around(X, d), X.round(d),
                  sa.compute(np.round(sa.lazy(X), d))):
            got = r.todense()
            assert (np.isnan(got) == np.isnan(want)).all()
            same(np.where(np.isnan(want), 0, got), np.where(np.isnan(want), 0, want))
    i = sa.asarray(np.array([3, -4]), format="compressed")
    assert np.round(i, 2) is i


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_intersections_of_short_and_long_rows(dtype):
    # A short sparse row against a long one (SpMV with a sparse x, an
    # element-wise product): where they disagree the cursor behind gallops
    # to the other's coordinate (1, 2, 4, ... ahead, then bisection); every
    # common coordinate must still be met, at any gap, at either end.
    rng = np.random.default_rng(7)
    n = 6000
    a = np.zeros((6, n), dtype=dtype)
    a[0, [5, 999, 1002, 1003, 4998, 5999]] = [1, 2, 3, 4, 5, 6]
    a[1, ::2] = np.arange(1, n // 2 + 1)  # long row against a short x part
    a[2, [0, 1, 2, 3, 4, 5998]] = 7
    a[3, rng.choice(n, 40, replace=False)] = 9
    a[5, 3000] = 1
    x = np.zeros(n, dtype=dtype)
    x[::3] = np.arange(1, n // 3 + 1)
    x[[1, 999, 1003, 4997, 5999]] = [5, 6, 7, 8, 9]
    z = np.zeros(n, dtype=dtype)
    z[[2, 1002, 1003, 3001, 5998]] = [1, 2, 3, 4, 5]
    A = sa.asarray(a, format="csr")
    for v in (x, z):
        V = sa.asarray(v, format="compressed")
        same((A @ V).todense(), a @ v)
        same((A * sa.asarray(np.broadcast_to(v, a.shape).copy(), format="csr")).todense(),
             a * v)
