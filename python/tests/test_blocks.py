"""Block formats (issue 58; seed 002's BCSR): sparse_array.bsr((r, c)) and
any level list with `blocks`, through the package's packing, the runtime's
conversions, scipy's bsr_matrix (an independent implementation of the same
buffers) and kernels, against NumPy bit for bit — fills NaN, -0.0 and 1,
integers, empty matrices, 32-bit widths."""
import numpy as np
import pytest
import scipy.sparse as sp

import sparse_array as sa
from conftest import check_matrix_kernels, random_dense, same


def blocky(rng, shape, blocks, dtype, fill, density=0.5):
    """`fill` outside a random half of the blocks; inside, random values
    (NaN, ±inf, -0.0, wrapping integers) at `density`."""
    d = random_dense(rng, shape, dtype, fill, density=density)
    r, c = blocks
    keep = rng.random((shape[0] // r, shape[1] // c)) < 0.5
    mask = np.kron(keep, np.ones((r, c), dtype=bool)).astype(bool)
    return np.where(mask, d, np.array(fill, dtype=dtype))


CASES = [((6, 8), (2, 4), np.float64, 0.0),
         ((9, 6), (3, 2), np.float64, np.nan),
         ((4, 4), (4, 1), np.float64, -0.0),
         ((8, 6), (1, 3), np.int64, 1),
         ((4, 6), (2, 2), np.float32, 0.0),
         ((0, 4), (2, 2), np.float64, 0.0),
         ((2, 0), (2, 3), np.float64, 0.0)]

# Block formats of other shapes: column-major blocks, a COO of blocks,
# sparse levels inside the block.
OTHER = [
    lambda b: sa.Format(["dense", "compressed", "dense", "dense"], order=[1, 0, 1, 0], blocks=b),
    lambda b: sa.Format([sa.Level("compressed", unique=False), "singleton", "dense", "dense"],
                        order=[0, 1, 0, 1], blocks=b),
    lambda b: sa.Format(["compressed", "compressed", "compressed", "compressed"],
                        order=[0, 1, 1, 0], blocks=b),
]


@pytest.mark.parametrize("shape,blocks,dtype,fill", CASES)
def test_round_trips(rng, shape, blocks, dtype, fill):
    # numpy -> BSR (the package's packing) -> every format (the runtime's
    # conversion) -> numpy, and back to BSR (the runtime's packing).
    d = blocky(rng, shape, blocks, dtype, fill)
    a = sa.asarray(d, format=sa.bsr(blocks), fill_value=fill)
    assert a.format.blocks == blocks
    same(a.todense(), d)
    others = [f(blocks) for f in OTHER if all(b > 1 for b in blocks)]
    for fmt in ["dense", "csr", "csc", "coo", "dcsr"] + others:
        b = sa.asarray(a, format=fmt)
        same(b.todense(), d)
        back = sa.asarray(b, format=sa.bsr(blocks))
        same(back.todense(), d)
        # The runtime's packing stores the same buffers as the package's.
        for mine, runtime in zip(a._buffers, back._buffers):
            same(runtime, mine)


def test_the_buffers_are_scipys(rng):
    # scipy's bsr_matrix and sa.bsr store the same buffers: taken both ways
    # without a copy, and packed from NumPy to the same arrays. (Values with
    # no zeros of either sign: scipy drops a block of -0.0s, a bsr array
    # keeps it, -0.0 not being the fill 0.0.)
    d = blocky(rng, (12, 10), (3, 2), np.float64, 0.0, density=0.7)
    d = np.where(np.isnan(d) | (d == 0), 0.0, d)  # no NaN, no -0.0
    m = sp.bsr_matrix(d, blocksize=(3, 2))
    # scipy builds it with unsorted block columns: taken with a copy.
    unsorted = sa.asarray(m)
    same(unsorted.todense(), d)
    m.sort_indices()
    a = sa.asarray(m)
    assert a.format == sa.bsr((3, 2)).with_widths(32, 32)
    assert np.shares_memory(a._buffers[-1], m.data)
    same(a.todense(), d)
    packed = sa.asarray(d, format=sa.bsr((3, 2)))
    assert list(packed._buffers[0]) == list(m.indptr)
    assert list(packed._buffers[1]) == list(m.indices)
    same(packed._buffers[2], m.data.reshape(-1))
    back = packed.to_scipy()
    assert isinstance(back, sp.bsr_matrix) and back.blocksize == (3, 2)
    assert np.shares_memory(back.data, packed._buffers[2])
    same(back.toarray(), d)


def test_a_coo_of_blocks_stores_each_block_once():
    d = np.zeros((4, 6))
    d[0, 0], d[1, 1], d[0, 1], d[3, 4] = 1.0, 2.0, 3.0, 4.0
    fmt = OTHER[1]((2, 2))
    a = sa.asarray(d, format=fmt)
    pos, crd0, crd1, values = a._buffers
    assert list(pos) == [0, 2] and list(crd0) == [0, 1] and list(crd1) == [0, 2]
    assert list(values) == [1.0, 3.0, 0.0, 2.0, 0.0, 0.0, 4.0, 0.0]
    same(sa.asarray(a, format="csr").todense(), d)


@pytest.mark.parametrize("shape,blocks,dtype,fill", CASES)
def test_kernels(rng, shape, blocks, dtype, fill):
    # Kernels read and write blocked arrays through their unblocked format.
    d = blocky(rng, shape, blocks, dtype, fill)
    e = random_dense(rng, shape, dtype, fill, density=0.3)
    a = sa.asarray(d, format=sa.bsr(blocks), fill_value=fill)
    check_matrix_kernels(a, d, e, sa.bsr(blocks), fill)


def test_matvec(rng):
    d = blocky(rng, (40, 30), (4, 3), np.float64, 0.0, density=0.9)
    d[~np.isfinite(d)] = 0.5
    d[np.abs(d) > 100] = 2.0
    x = rng.uniform(-1, 1, 30)
    a = sa.asarray(d, format=sa.bsr((4, 3)))
    got = (a @ sa.asarray(x)).todense()
    assert np.allclose(got, d @ x, rtol=1e-12, atol=1e-12)
    # scipy's own BSR product, an independent implementation.
    assert np.allclose(got, sp.bsr_matrix(d, blocksize=(4, 3)) @ x, rtol=1e-12, atol=1e-12)


def test_widths(rng):
    d = blocky(rng, (6, 6), (2, 3), np.float64, 0.0)
    fmt = sa.bsr((2, 3)).with_widths(32, 32)
    a = sa.asarray(d, format=fmt)
    assert a._buffers[0].dtype == np.int32 and a._buffers[1].dtype == np.int32
    same(sa.asarray(a, format="csr").todense(), d)
    same(sa.asarray(sa.asarray(d, format="csr"), format=fmt).todense(), d)


def test_errors():
    with pytest.raises(ValueError, match="bsr needs a block size"):
        sa.asarray(np.zeros((4, 4)), format="bsr")
    with pytest.raises(ValueError, match="not 1 x 1"):
        sa.bsr((1, 1))
    with pytest.raises(ValueError, match="must name each dimension once"):
        sa.Format(["dense", "compressed", "dense", "dense"], order=[0, 1, 1, 1], blocks=(2, 2))
    # A shape that is not a multiple of the blocks: the compiler's verifier
    # (the package's type) or the runtime names it.
    with pytest.raises(sa.SparseArrayError, match="not a multiple of its block"):
        sa.asarray(sa.asarray(np.ones((3, 4)), format="csr"), format=sa.bsr((2, 2)))
