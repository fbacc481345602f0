"""Level format plugins through the package (issue 58): DIA ([dense,
diagonal]) and ELL ([dense, ellpack]), seed 002 §2, as input and output of
kernels, through the runtime's conversions (which pack and unpack them for
the package too: its C API lists the registered level formats), against NumPy bit for bit — fills NaN, -0.0 and 1, integers, rectangular
and empty matrices, 32-bit widths."""
import numpy as np
import pytest

import sparse_array as sa
from conftest import check_matrix_kernels, check_round_trips, random_dense, same

FORMATS = ["dense", "csr", "csc", "coo", "dcsr", "dia", "ell"]
PLUGINS = ["dia", "ell"]


def banded(rng, shape, dtype, fill, offsets, density=0.8):
    """`fill` everywhere but on the given diagonals, where random values
    (NaN, ±inf, -0.0, wrapping integers) sit at `density`."""
    d = random_dense(rng, shape, dtype, fill, density=density)
    i, j = np.indices(shape)
    return np.where(np.isin(j - i, offsets), d, np.array(fill, dtype=dtype))


CASES = [((6, 6), np.float64, 0.0, [-1, 0, 1]),
         ((5, 9), np.float64, np.nan, [-4, 0, 3, 8]),
         ((9, 4), np.float64, -0.0, [-8, -2, 2]),
         ((7, 7), np.int64, 1, [-6, 0, 6]),
         ((4, 4), np.float32, 0.0, [-1, 1]),
         ((0, 5), np.float64, 0.0, [0]),
         ((3, 0), np.float64, 0.0, [0]),
         ((1, 1), np.float64, 0.0, [0])]


@pytest.mark.parametrize("plugin", PLUGINS)
@pytest.mark.parametrize("shape,dtype,fill,offsets", CASES)
def test_round_trips(rng, plugin, shape, dtype, fill, offsets):
    # numpy -> the plugin's format (CSR packed here, converted by the
    # runtime) -> every format -> numpy, and back.
    d = banded(rng, shape, dtype, fill, offsets)
    a = sa.asarray(d, format=plugin, fill_value=fill)
    assert a.format.name() == plugin
    check_round_trips(a, d, plugin, FORMATS)


def test_dia_stores_only_its_diagonals(rng):
    # Offsets -1, 0, 2 of a 5 x 6 matrix: 3 slots per row, the slots off the
    # matrix hold the fill (seed 002 Fig. 3c's unlabeled nodes).
    d = banded(rng, (5, 6), np.float64, 0.0, [-1, 0, 2], density=1.0)
    a = sa.asarray(d, format="dia")
    offsets, values = a._buffers
    assert list(offsets) == [-1, 0, 2]
    assert len(values) == 5 * 3
    assert values[0] == 0.0  # row 0, offset -1: off the matrix


def test_batched_dia_rows_are_their_own(rng):
    # [dense, dense, diagonal]: the diagonal level's parent position is
    # batch * rows + row, its row that modulo the rows (the coordinate a
    # cursor computes from the parent position it knows); a kernel
    # coiterating it (against a dense operand, a vector) and one mapping it.
    d = np.stack([banded(rng, (7, 7), np.float64, 0.0, offs)
                  for offs in ([-2, 0, 1, 3], [0], [-6, 5])])
    e = rng.random((3, 7, 7))
    x = rng.random(7)
    a = sa.asarray(d, format=sa.Format(["dense", "dense", "diagonal"]))
    with np.errstate(all="ignore"):
        same((a * sa.asarray(e)).sum(axis=2).todense(), (d * e).sum(axis=2))
        same((a * sa.asarray(x)).sum(axis=2).todense(), (d * x).sum(axis=2))
        same((a * 2.0).todense(), d * 2.0)


def test_ell_pads_short_rows(rng):
    # Rows of 2, 0 and 3 entries: W = 3 slots each, padding all-ones.
    d = np.zeros((3, 5))
    d[0, [1, 4]] = [1.0, 2.0]
    d[2, [0, 2, 3]] = [3.0, 4.0, 5.0]
    a = sa.asarray(d, format="ell")
    width, crd, values = a._buffers
    assert list(width) == [3]
    assert list(crd) == [1, 4, -1, -1, -1, -1, 0, 2, 3]
    assert list(values) == [1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 4.0, 5.0]


@pytest.mark.parametrize("plugin", PLUGINS)
@pytest.mark.parametrize("shape,dtype,fill,offsets", CASES)
def test_kernels(rng, plugin, shape, dtype, fill, offsets):
    d = banded(rng, shape, dtype, fill, offsets)
    e = banded(rng, shape, dtype, fill, [-1, 0, 2])
    a = sa.asarray(d, format=plugin, fill_value=fill)
    check_matrix_kernels(a, d, e, plugin, fill)
    with np.errstate(all="ignore"):
        same((a + sa.asarray(e, format=plugin, fill_value=fill)).todense(), d + e)


@pytest.mark.parametrize("plugin", PLUGINS)
@pytest.mark.parametrize("fill", [0.0, np.nan, -0.0])
def test_no_stored_entries(plugin, fill):
    # K = 0 diagonals / W = 0 slots: the iterators' empty-level paths (no
    # interior rows, no row search), as operand, result and matvec.
    d = np.full((5, 4), fill)
    e = np.where(np.eye(5, 4, dtype=bool), 2.5, fill)
    a = sa.asarray(d, format=plugin, fill_value=fill)
    assert len(a._buffers[-1]) == 0
    b = sa.asarray(e, format="csr", fill_value=fill)
    same((a + b).todense(), d + e)
    same((a * b).todense(), d * e)
    same(sa.asarray(a + b, format=plugin).todense(), d + e)
    same(a.sum(axis=1).todense(), d.sum(axis=1))
    same((a @ sa.asarray(np.ones(4))).todense(), d @ np.ones(4))


@pytest.mark.parametrize("plugin", PLUGINS)
def test_matvec_matches_the_row_order(rng, plugin):
    # A DIA or ELL row is visited in increasing column order, as CSR's: the
    # sums are the same floats as the CSR kernel's.
    d = banded(rng, (40, 40), np.float64, 0.0, [-3, -1, 0, 1, 3], density=0.9)
    d[~np.isfinite(d)] = 0.5
    x = rng.uniform(-1, 1, 40)
    got = (sa.asarray(d, format=plugin) @ sa.asarray(x)).todense()
    want = (sa.asarray(d, format="csr") @ sa.asarray(x)).todense()
    same(got, want)
    assert np.allclose(got, d @ x)


@pytest.mark.parametrize("level", ["diagonal", "ellpack"])
def test_widths(rng, level):
    d = banded(rng, (6, 8), np.float64, 0.0, [-2, 0, 5])
    a = sa.asarray(d, format=sa.Format(["dense", level], pos_width=32, crd_width=32))
    assert all(b.dtype == np.int32 for b in a._buffers[:-1])
    same(sa.asarray(a, format="csr").todense(), d)
    same((a + a).todense(), d + d)


def test_unsigned_32_bit_coordinates():
    # Coordinates at and above 2^31 in 32-bit buffers read as unsigned, on
    # every path: the package's packing and unpacking, the runtime's
    # conversions both ways.
    import scipy.sparse as sp
    n = 2 ** 32 - 1
    m = sp.coo_matrix(([1.0, 2.0], ([0, 1], [5, n - 1])), shape=(2, n))
    want = [[0, 1], [5, n - 1]]
    for levels in (["dense", "compressed"], ["dense", "ellpack"],
                   ["compressed", "compressed"]):
        fmt = sa.Format(levels, crd_width=32)
        a = sa.asarray(m, format=fmt)
        assert a.to_pydata().coords.tolist() == want
        assert sa.asarray(a, format="coo").to_pydata().coords.tolist() == want
        b = sa.asarray(sa.asarray(m, format="coo"), format=fmt)
        assert b.to_pydata().coords.tolist() == want


def test_ell_padding_needs_a_free_coordinate():
    # With 32-bit coordinates, a dimension of 2^32 uses every coordinate:
    # none is left to mark padding (the runtime packs plugin levels, from
    # scipy as from an array).
    import scipy.sparse as sp
    m = sp.coo_matrix(([1.0], ([0], [5])), shape=(2, 2 ** 32))
    fmt = sa.Format(["dense", "ellpack"], crd_width=32)
    with pytest.raises(sa.SparseArrayError, match="leaves no coordinate free"):
        sa.asarray(m, format=fmt)
    with pytest.raises(sa.SparseArrayError, match="leaves no coordinate free"):
        sa.asarray(sa.asarray(m, format="csr"), format=fmt)


@pytest.mark.parametrize("plugin", PLUGINS)
def test_matrix_formats(plugin):
    with pytest.raises(ValueError, match="%s is a format of matrices" % plugin):
        sa.asarray(np.zeros(3), format=plugin)


def test_level_formats_come_from_the_library():
    # The package learns the level formats (a plugin's too) and their
    # buffers from the C API, not from a list of its own.
    formats = sa._format.LEVEL_FORMATS
    assert formats["dense"] == ((), False, False, False, 0)
    assert formats["compressed"] == (("pos", "crd"), True, True, False, 0)
    assert formats["singleton"] == (("crd",), True, True, False, 0)
    assert formats["diagonal"][0] == ("crd",)
    assert formats["ellpack"][0] == ("pos", "crd")
    # seed 002's hashed level: width and coordinates, never ordered.
    assert formats["hashed"] == (("pos", "crd"), False, True, True, 0)
    assert not sa._format.Level("hashed").ordered
    assert sa.Format(["dense", "hashed"]).levels[1].text() == "hashed"
    with pytest.raises(ValueError, match="a hashed level keeps hash order"):
        sa._format.Level("hashed", ordered=True)
    with pytest.raises(ValueError, match="unknown level format 'nope'"):
        sa.Format(["dense", "nope"])
    with pytest.raises(ValueError, match="a dense level is always unique"):
        sa.Format([sa._format.Level("dense", unique=False)])
    # Parameters: as many as the format declares (none for dense).
    with pytest.raises(ValueError, match="a dense level takes 0 non-negative parameters"):
        sa._format.Level("dense", params=(4,))
