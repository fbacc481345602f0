"""N:M structured sparsity (issue 58; upstream's `structured[n, m]`,
NVIDIA's 2:4) through the package: `sa.structured(n, m)` stores the last
dimension in blocks of m, each with n slots (entries first, coordinates
ascending, then padding). The package has no code for the level: it learns
it from the library, and the runtime packs, unpacks and validates it;
kernels read it as stored. Against NumPy bit for bit (NaN, -0.0, inf;
fills 0, NaN, -0.0 and 1; integers; 32-bit widths; empty arrays)."""
import numpy as np
import pytest

import sparse_array as sa
from conftest import check_matrix_kernels, matrix_cases, check_round_trips, random_dense, same

NM = sa.structured(2, 4)
FORMATS = ["dense", "csr", "csc", "coo", "dcsr", "ell", "hash", sa.bsr((1, 4))]

CASES = matrix_cases(4)


def structured_dense(rng, shape, dtype, fill, n, m, density=0.5):
    """random_dense with at most n stored values per block of m along the
    last dimension (the rest set to the fill)."""
    d = random_dense(rng, shape, dtype, fill, density=density)
    flat = d.reshape(-1, m) if d.size else d
    for row in flat:
        stored = np.flatnonzero(~same_as_fill(row, fill))
        if len(stored) > n:
            row[rng.choice(stored, size=len(stored) - n, replace=False)] = fill
    return d


def same_as_fill(v, fill):
    if isinstance(fill, float) and np.isnan(fill):
        return np.isnan(v)
    if isinstance(fill, float) and fill == 0.0:
        return (v == 0) & (np.signbit(v) == np.signbit(fill))
    return v == fill


def test_names():
    assert NM.name() == "structured2:4"
    assert NM.levels[-1].text() == "structured[2, 4]"
    assert NM.levels[-1] != sa.Level("structured", params=(1, 4))
    assert NM.generic() == sa.Format(["dense", "dense", "compressed"], [0, 1, 1],
                                     blocks=(1, 4))
    assert sa.structured(1, 2, rank=1).blocks == (2,)
    with pytest.raises(ValueError, match="takes 2"):
        sa.Level("structured")
    with pytest.raises(ValueError, match="1 <= n <= m"):
        sa.structured(5, 4)


def test_layout():
    # n slots per block: entries first, ascending, then padding (all-ones
    # coordinates, the fill as value); no positions, no width buffer.
    d = np.full((2, 8), 0.5)
    d[0, [3, 1]] = [1.0, -0.0]
    d[0, 6] = np.nan
    d[1, 4] = 2.0
    a = sa.asarray(d, format=NM, fill_value=0.5)
    crd, values = a._buffers
    assert list(crd) == [1, 3, 2, -1, -1, -1, 0, -1]
    same(values, np.array([-0.0, 1.0, np.nan, 0.5, 0.5, 0.5, 2.0, 0.5]))


@pytest.mark.parametrize("shape,dtype,fill", CASES)
def test_round_trips(rng, shape, dtype, fill):
    d = structured_dense(rng, shape, dtype, fill, 2, 4)
    a = sa.asarray(d, format=NM, fill_value=fill)
    assert a.format == NM
    check_round_trips(a, d, NM, FORMATS)


@pytest.mark.parametrize("shape,dtype,fill", CASES)
def test_kernels(rng, shape, dtype, fill):
    d = structured_dense(rng, shape, dtype, fill, 2, 4)
    e = random_dense(rng, shape, dtype, fill)
    a = sa.asarray(d, format=NM, fill_value=fill)
    # A structured result: a kernel's whose entries fit 2:4 (a * e may
    # not: fill * NaN, -0.0 * -0.0 are entries where a has none).
    check_matrix_kernels(a, d, e, NM, fill,
                         result=lambda a, b, d, e: (np.maximum(a, a), np.maximum(d, d)))
    with np.errstate(all="ignore"):
        if shape[1]:
            x = random_dense(rng, shape[1:], dtype, fill, density=0.5)
            want = (sa.asarray(d, format="csr", fill_value=fill)
                    @ sa.asarray(x, fill_value=fill)).todense()
            same((a @ sa.asarray(x, fill_value=fill)).todense(), want)


@pytest.mark.parametrize("n,m", [(1, 2), (1, 4), (2, 4), (3, 8), (4, 4)])
def test_ratios_and_ranks(rng, n, m):
    for shape in ((3 * m,), (4, 2 * m), (2, 3, m)):
        d = structured_dense(rng, shape, np.float64, 0.0, n, m, density=0.7)
        f = sa.structured(n, m, rank=len(shape))
        a = sa.asarray(d, format=f)
        crd = a._buffers[0]
        assert len(crd) == d.size // m * n
        same(a.todense(), d)
        with np.errstate(all="ignore"):
            same((a * a).todense(), d * d)
            s = a.sum(axis=-1)
            same(s.todense() if len(shape) > 1 else s, np.add.reduce(d, axis=-1))
            same(sa.asarray(a, format="coo").todense(), d)


def test_widths(rng):
    d = structured_dense(rng, (6, 8), np.float64, 0.0, 2, 4)
    f = sa.Format(NM.levels, NM.order, pos_width=32, crd_width=32, blocks=NM.blocks)
    a = sa.asarray(d, format=f)
    assert a._buffers[0].dtype == np.int32
    same(sa.asarray(a, format="csr").todense(), d)
    same((a * a).todense(), d * d)


def test_too_full_blocks_are_refused():
    d = np.zeros((2, 8))
    d[1, 4:7] = [1.0, 2.0, 3.0]
    with pytest.raises(sa.SparseArrayError,
                       match=r"a block holds 3 entries, more than the 2 of structured\[2, 4\]"):
        sa.asarray(d, format=NM)
    with pytest.raises(Exception, match="multiple of its block size"):
        sa.asarray(np.zeros((2, 6)), format=NM)


def test_unblocked_level_of_extent_m(rng):
    # A structured level storing a whole dimension of extent m (no blocks):
    # the extent is checked where the array is made, the kernels' shapes
    # being dynamic.
    f = sa.Format(["dense", sa.Level("structured", params=(2, 4))])
    d = structured_dense(rng, (5, 4), np.float64, 0.0, 2, 4)
    a = sa.asarray(d, format=f)
    same(a.todense(), d)
    with np.errstate(all="ignore"):
        same((a * 2).todense(), d * 2)
        same(a.sum(axis=1).todense(), np.add.reduce(d, axis=1))
    with pytest.raises(sa.SparseArrayError, match="has extent 8, not m = 4"):
        sa.asarray(np.zeros((3, 8)), format=f)


def test_malformed_buffers_are_refused():
    def array(crd):
        return sa.Array((1, 8), np.float64, NM, 0.0,
                        [np.array(crd, dtype=np.int64), np.arange(1.0, 5.0)])
    with pytest.raises(sa.SparseArrayError, match="not ascending"):
        array([3, 1, 0, 2]).todense()
    with pytest.raises(sa.SparseArrayError, match="not ascending, or an entry after padding"):
        array([-1, 1, 0, 2]).todense()
    with pytest.raises(sa.SparseArrayError, match="outside the dimension"):
        array([0, 4, 0, 2]).todense()
    good = array([1, 3, -1, -1])
    want = np.zeros((1, 8))
    want[0, [1, 3]] = [1.0, 2.0]
    same(good.todense(), want)
    # Kernels read it as stored: the values in padding slots are no entries.
    same((good * sa.asarray(np.ones((1, 8)))).todense(), want)
    same(good.sum(), want.sum())


def test_a_level_moved_to_another_dimension():
    # A fused kernel that reduces over the first dimension reads the input
    # with the reduced dimension innermost: the structured level (extent 2)
    # would come to store a dimension of 4, which its type forbids; it is
    # stored compressed there instead (fuzz_idioms, seed 9402 #265).
    d = np.full((4, 1, 4), 42, dtype=np.int32)
    d[0, 0, 1], d[2, 0, 2], d[3, 0, 0] = 3, 5, 7
    a = sa.lazy(d, format=sa.structured(2, 2, rank=3), fill_value=42)
    r = sa.clip(np.right_shift(np.multiply.reduce(a, axis=0), a), 0, 0) + True
    want = np.clip(np.right_shift(np.multiply.reduce(d, axis=0), d), 0, 0) + True
    same(sa.compute(r).todense(), want)
