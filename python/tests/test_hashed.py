"""seed 002's hashed level (issue 58) through the package: hash map vectors
(format="hash": the last dimension hashed, below dense rows), located by
linear probing where another input's entries drive a kernel's loop, else
read through an ordered copy (never located at every coordinate). The package has no
code for it: it learns the level from the library and the runtime packs
(inserts), unpacks and validates it. Against NumPy bit for bit (NaN, -0.0,
inf; fills 0, NaN, -0.0 and 1; integers; 32-bit widths; empty arrays)."""
import numpy as np
import pytest

import sparse_array as sa
from conftest import check_matrix_kernels, matrix_cases, check_round_trips, random_dense, same

HASH1 = sa.Format(["hashed"])
HASH2 = sa.Format(["dense", "hashed"])
FORMATS = ["dense", "csr", "csc", "coo", "dcsr", "dia", "ell", HASH2]

CASES = matrix_cases()

K = 0x9E3779B97F4A7C15


def home(c, w):
    """hashedHome (SparseArrayLevelTraits.h), written again here."""
    return ((c * K) % 2 ** 64 >> 32) & (w - 1)


def test_names():
    assert sa.asarray(np.zeros(3), format="hash").format == HASH1
    assert sa.asarray(np.zeros((2, 3)), format="hash").format == HASH2
    assert HASH2.name() == "hash"
    assert HASH2.generic() == sa.Format(["dense", "compressed"])


def test_table_layout():
    # W: the least power of two above 3/2 the most entries a row has (5:
    # 8 slots); each entry reachable from its home slot; empty slots
    # all-ones, the fill.
    d = np.full((3, 40), 0.5)
    d[0, [1, 2, 3, 17, 33]] = [1.0, -0.0, np.nan, np.inf, 7.0]
    d[2, 39] = -1.0
    a = sa.asarray(d, format="hash", fill_value=0.5)
    width, crd, values = a._buffers
    w = int(width[0])
    assert w == 8
    assert len(crd) == len(values) == 3 * w
    for r in range(3):
        seg = crd[r * w:(r + 1) * w]
        for s, c in enumerate(seg):
            if c == np.iinfo(np.int64).max or c == -1:
                assert values[r * w + s] == 0.5
                continue
            t = home(int(c), w)
            while t != s:
                assert seg[t] != -1
                t = (t + 1) % w
            same(values[r * w + s], d[r, c])


@pytest.mark.parametrize("shape,dtype,fill", CASES)
def test_round_trips(rng, shape, dtype, fill):
    d = random_dense(rng, shape, dtype, fill)
    a = sa.asarray(d, format=HASH2, fill_value=fill)
    assert a.format == HASH2
    check_round_trips(a, d, HASH2, FORMATS)


@pytest.mark.parametrize("shape,dtype,fill", CASES)
def test_kernels(rng, shape, dtype, fill):
    d = random_dense(rng, shape, dtype, fill)
    e = random_dense(rng, shape, dtype, fill)
    a = sa.asarray(d, format=HASH2, fill_value=fill)
    # A hashed result is computed compressed and the runtime inserts it.
    check_matrix_kernels(a, d, e, HASH2, fill)
    with np.errstate(all="ignore"):
        if shape[1]:
            x = random_dense(rng, shape[1:], dtype, fill, density=0.5)
            want = (sa.asarray(d, format="csr", fill_value=fill)
                    @ sa.asarray(x, fill_value=fill)).todense()
            same((a @ sa.asarray(x, fill_value=fill)).todense(), want)


@pytest.mark.parametrize("dtype,fill", [(np.float64, 0.0), (np.float64, np.nan),
                                        (np.float64, -0.0), (np.int64, 3),
                                        (np.float32, 1.0)])
def test_hash_map_vectors(rng, dtype, fill):
    # seed 002 Fig. 16: a matrix times a hash map vector, the vector located
    # at each of the matrix's columns; element-wise with every operand kind.
    n = 300
    x = random_dense(rng, (n,), dtype, fill, density=0.2)
    y = random_dense(rng, (n,), dtype, fill, density=0.6)
    m = random_dense(rng, (40, n), dtype, fill, density=0.05)
    h = sa.asarray(x, format="hash", fill_value=fill)
    with np.errstate(all="ignore"):
        for other, fmt in ((y, "dense"), (y, "compressed"), (x, "hash")):
            o = sa.asarray(other, format=fmt, fill_value=fill)
            same((h * o).todense(), x * other)
            same((o + h).todense(), other + x)
            same(np.maximum(h, o).todense(), np.maximum(x, other))
        A = sa.asarray(m, format="csr", fill_value=fill)
        want = (A @ sa.asarray(x, format="compressed", fill_value=fill)).todense()
        same((A @ h).todense(), want)
        same(h.sum(), sa.asarray(x, fill_value=fill).sum())
        same(h[50:250:3].todense(), x[50:250:3])
        same(h[::-1].todense(), x[::-1])
    for i in (0, 7, n - 1, 123):
        same(np.asarray(h[i]), np.asarray(x[i]))


def test_strided_coordinates_spread(rng):
    # Multiples of a large power of two: under c mod W they would all share
    # one home slot; the multiplicative hash spreads them.
    n = 1 << 20
    x = np.zeros(n)
    x[::4096] = np.arange(1, n // 4096 + 1)
    h = sa.asarray(x, format="hash")
    width, crd, _ = h._buffers
    homes = {home(int(c), int(width[0])) for c in crd if c >= 0}
    assert len(homes) > len(x[::4096]) // 2
    same(h.todense(), x)
    same(h.sum(), x.sum())


def test_no_entries():
    for shape in ((0,), (5,), (3, 0), (4, 6)):
        d = np.zeros(shape)
        a = sa.asarray(d, format="hash")
        same(a.todense(), d)
        same((a + a).todense(), d + d)
        same(sa.asarray(a, format="coo").todense(), d)


def test_widths(rng):
    d = random_dense(rng, (6, 8), np.float64, 0.0)
    a = sa.asarray(d, format=sa.Format(["dense", "hashed"], pos_width=32, crd_width=32))
    assert all(b.dtype == np.int32 for b in a._buffers[:-1])
    same(sa.asarray(a, format="csr").todense(), d)
    same((a + a).todense(), d + d)
    same((a * sa.asarray(d, format="csr")).todense(), d * d)


def test_malformed_tables_are_refused():
    # A coordinate past an empty slot from its home (unreachable), a
    # repeated coordinate, a full table, a width that is not a power of
    # two: the runtime's validation names each.
    w = 4
    cs = [c for c in range(64) if home(c, w) == 0][:4]
    e = -1
    cases = {
        "is not reachable": [e, cs[0], e, e],
        "repeats coordinate": [cs[0], cs[0], e, e],
        "has no empty slot": [cs[0], cs[1], cs[2], cs[3]],
    }
    def table(width, crd, values=None):
        return sa.Array((64,), np.float64, HASH1, 0.0,
                        [np.array([width]), np.array(crd, dtype=np.int64),
                         np.zeros(len(crd)) if values is None else np.array(values)])
    for message, crd in cases.items():
        with pytest.raises(sa.SparseArrayError, match=message):
            table(w, crd).todense()
    with pytest.raises(sa.SparseArrayError, match="not a power of two"):
        table(3, [e, e, e]).todense()
    # A well-formed one for contrast (wrapping from the last slot to 0).
    last = [c for c in range(64) if home(c, w) == w - 1][:2]
    t = table(w, [last[1], e, e, last[0]], [2.0, 1e300, 1e300, 3.0])
    want = np.zeros(64)
    want[last] = [3.0, 2.0]
    same(t.todense(), want)
    # Kernels read it as stored — located at a sparse operand's entries, or
    # through an ordered copy: the garbage in the empty slots is no entry.
    same((t * sa.asarray(np.ones(64))).todense(), want)
    same((t * sa.asarray(np.ones(64), format="compressed")).todense(), want)
    same(t.sum(), want.sum())


def test_below_a_hashed_level_only_full_levels():
    with pytest.raises(Exception, match="hash order"):
        sa.asarray(np.zeros((2, 3)), format=sa.Format(["hashed", "compressed"]))
    d = np.zeros((4, 3))
    d[1, 2] = 5.0
    d[3] = [1.0, -0.0, 2.0]
    a = sa.asarray(d, format=sa.Format(["hashed", "dense"]))
    same(a.todense(), d)
    same((a * a).todense(), d * d)
    same(a.sum(axis=1).todense(), np.add.reduce(d, axis=1))


def test_kernels_iterate_tables_not_extents():
    # A kernel whose loop a hashed level alone would drive (a sum, a map,
    # a product with a dense operand) iterates its entries in order (an
    # ordered copy, sorted per row), not every coordinate of its extent:
    # located at each of 2^40 columns, these would not finish.
    import scipy.sparse as sp
    n = 1 << 40
    cols = np.array([n - 1, 3, 1 << 33, 5], dtype=np.int64)
    rows = np.array([0, 0, 1, 1], dtype=np.int64)
    vals = np.array([-0.0, 1.5, np.nan, 2.0])
    h = sa.asarray(sp.coo_array((vals, (rows, cols)), shape=(2, n)), format="hash")
    assert h.format == HASH2
    with np.errstate(all="ignore"):
        # Left folds in column order from +0.0: 0 + 1.5 + -0.0; 0 + 2 + NaN.
        same(np.asarray(h.sum(axis=1)), np.array([1.5, np.nan]))
        # (Not max: with -0.0 stored and +0.0 the fill it folds every
        # point in order, issue 56.)
        same(np.asarray(np.prod(h + 1.0, axis=1)), np.array([2.5, np.nan]))
        coords, values = (h * 2.0)._entries()
        order = np.lexsort((cols, rows))
        assert coords.tolist() == np.stack([rows, cols], 1)[order].tolist()
        same(values, 2.0 * vals[order])
