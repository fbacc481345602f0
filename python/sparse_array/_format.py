"""Storage formats (docs/storage.md) and their MLIR type text."""
import struct

import numpy as np

from . import _capi
from ._trace import static_types

# numpy dtype -> MLIR element type. The standard library's functions are
# defined for f64, i64 and i1; other dtypes are converted on the way in.
ELEMENT = {np.dtype(np.float64): "f64", np.dtype(np.int64): "i64", np.dtype(np.bool_): "i1",
           np.dtype(np.float32): "f32", np.dtype(np.int32): "i32"}
SUPPORTED = tuple(ELEMENT)


# The level formats the library knows (built-ins and plugins): the buffers
# each declares, in layout order, by the index width that types them ("pos"
# or "crd"), from the compiler's and runtime's LevelTraits
# (runtime/include/SparseArrayLevelTraits.h) through the C API, so that a
# format plugin needs no code here.
LEVEL_FORMATS = _capi.level_formats()
LEVEL_BUFFERS = {name: widths for name, (widths, *_) in LEVEL_FORMATS.items()}

# The level formats _storage packs and unpacks with numpy. Arrays with any
# other level are packed in their generic format (Format.generic) and
# converted by the runtime, which every level format plugs into.
PACKED_HERE = ("dense", "compressed", "singleton")


class Level:
    """One storage level: a registered level format (dense, compressed,
    singleton, diagonal, ellpack, hashed, structured, or a plugin's) with
    the properties unique and ordered (by default ordered unless the format
    keeps hash order) and the format's integer parameters (`structured`'s
    n and m: Level("structured", params=(2, 4)))."""
    __slots__ = ("kind", "unique", "ordered", "params")

    def __init__(self, kind, unique=True, ordered=None, params=()):
        if kind not in LEVEL_BUFFERS:
            raise ValueError("unknown level format %r (one of %s)" % (kind, ", ".join(LEVEL_BUFFERS)))
        _, nonunique, nonordered, hash_order, num_params = LEVEL_FORMATS[kind]
        params = tuple(int(p) for p in params)
        if len(params) != num_params or any(p < 0 for p in params):
            raise ValueError("a %s level takes %d non-negative parameters, got %r" % (
                kind, num_params, params))
        if ordered is None:
            ordered = not hash_order
        if ordered and hash_order:
            raise ValueError("a %s level keeps hash order: it is never ordered" % kind)
        if (not unique and not nonunique) or (not ordered and not nonordered):
            raise ValueError("a %s level is always %s" % (
                kind, "unique" if not unique and not nonunique else "ordered"))
        self.kind, self.unique, self.ordered, self.params = kind, unique, ordered, params

    @property
    def hash_order(self):
        """Whether the level keeps coordinates in hash order."""
        return LEVEL_FORMATS[self.kind][3]

    @property
    def buffer_widths(self):
        """"pos" or "crd" for each buffer of the level, in layout order."""
        return LEVEL_BUFFERS[self.kind]

    def text(self):
        props = [p for p, on in (("nonunique", not self.unique),
                                 ("nonordered", not self.ordered and not self.hash_order)) if on]
        params = "[%s]" % ", ".join(map(str, self.params)) if self.params else ""
        return self.kind + params + ("(%s)" % ", ".join(props) if props else "")

    def __eq__(self, other):
        return isinstance(other, Level) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def _key(self):
        return (self.kind, self.unique, self.ordered, self.params)

    def __repr__(self):
        return self.text()


class Format:
    """Levels (outermost first), the dimension each level stores (`order`),
    the index widths and the block size of each dimension (`blocks`, seed
    002's BCSR: a dimension of block size b > 1 is stored at two levels,
    its block d // b where `order` first names it, its place in the block
    d % b where `order` names it again)."""

    def __init__(self, levels, order=None, pos_width=64, crd_width=64, blocks=None):
        self.levels = tuple(l if isinstance(l, Level) else Level(l) for l in levels)
        self.blocks = tuple(int(b) for b in blocks) if blocks else ()
        if self.blocks and all(b == 1 for b in self.blocks):
            self.blocks = ()
        self.order = tuple(order) if order is not None else tuple(range(len(self.levels)))
        if self.blocks:
            if any(b < 1 for b in self.blocks):
                raise ValueError("block sizes must be positive, got %r" % (self.blocks,))
            expected = sorted(d for d, b in enumerate(self.blocks) for _ in range(1 + (b > 1)))
            if sorted(self.order) != expected:
                raise ValueError("order %r must name each dimension once and each blocked one "
                                 "twice (blocks %r)" % (self.order, self.blocks))
        elif sorted(self.order) != list(range(len(self.levels))):
            raise ValueError("order %r is not a permutation of the levels" % (self.order,))
        if pos_width not in (32, 64) or crd_width not in (32, 64):
            raise ValueError("index widths are 32 or 64")
        self.pos_width, self.crd_width = pos_width, crd_width

    @property
    def rank(self):
        return len(self.blocks) if self.blocks else len(self.levels)

    def is_dense(self):
        return all(l.kind == "dense" for l in self.levels)

    def level_part(self, l):
        """What level l stores of dimension order[l]: "whole", "block"
        (d // b) or "in-block" (d % b)."""
        d = self.order[l]
        if not self.blocks or self.blocks[d] == 1:
            return "whole"
        return "block" if self.order.index(d) == l else "in-block"

    def level_extents(self, shape):
        """Each level's extent for an array of `shape`."""
        part = {"whole": lambda n, b: n, "block": lambda n, b: n // b,
                "in-block": lambda n, b: b}
        return [part[self.level_part(l)](shape[d], self.blocks[d] if self.blocks else 1)
                for l, d in enumerate(self.order)]

    def unblocked(self):
        """Each blocked dimension stored once, at its block level, by that
        level's format (what kernels read and write, as the compiler's
        legalize-formats does)."""
        if not self.blocks:
            return self
        kept = [l for l in range(len(self.levels)) if self.level_part(l) != "in-block"]
        return Format([self.levels[l] for l in kept], [self.order[l] for l in kept],
                      self.pos_width, self.crd_width)

    def generic(self):
        """This format with each level the package does not pack itself
        (a plugin's: DIA, ELL, ...) stored compressed, as the compiler's
        legalize-formats reads them; the runtime converts between the two."""
        if all(l.kind in PACKED_HERE for l in self.levels):
            return self
        # Hash order is a hashed level's own: its generic level is sorted
        # (getGenericArrayType).
        levels = [l if l.kind in PACKED_HERE
                  else Level("compressed", l.unique, l.ordered or l.hash_order)
                  for l in self.levels]
        return Format(levels, self.order, self.pos_width, self.crd_width, self.blocks)

    def with_widths(self, pos_width, crd_width):
        return Format(self.levels, self.order, pos_width, crd_width, self.blocks)

    def key(self):
        return (self.levels, self.order, self.pos_width, self.crd_width, self.blocks)

    def __eq__(self, other):
        return isinstance(other, Format) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def name(self):
        if self.blocks:
            if len(self.blocks) == 2 and self == bsr(self.blocks).with_widths(
                    self.pos_width, self.crd_width):
                return "bsr%dx%d" % self.blocks
            last = self.levels[-1]
            if last.kind == "structured" and self == structured(
                    *last.params, self.rank).with_widths(self.pos_width, self.crd_width):
                return "structured%d:%d" % last.params
            return "[%s] order %r blocks %r" % (", ".join(l.text() for l in self.levels),
                                                 self.order, self.blocks)
        for n, f in _NAMED.items():
            if self.rank == len(f(self.rank).levels) and self == f(self.rank).with_widths(
                    self.pos_width, self.crd_width):
                return n
        return "[" + ", ".join(l.text() for l in self.levels) + "]"

    def __repr__(self):
        return "Format(%s)" % self.name()


def _coo(rank):
    return Format([Level("compressed", unique=rank == 1)] +
                  [Level("singleton", unique=(k == rank - 1)) for k in range(1, rank)])


_NAMED = {
    "dense": lambda r: Format(["dense"] * r),
    "csr": lambda r: Format(["dense"] * (r - 1) + ["compressed"]),
    "csc": lambda r: Format(["dense", "compressed"], order=[1, 0]),
    "dcsr": lambda r: Format(["compressed"] * r),
    "csf": lambda r: Format(["dense"] + ["compressed"] * (r - 1)),
    "coo": _coo,
    # seed 002's DIA: rows, then the diagonals' offsets (a matrix format).
    "dia": lambda r: Format(["dense", "diagonal"]),
    # seed 002's ELL: rows of W slots, entries first, then padding.
    "ell": lambda r: Format(["dense", "ellpack"]),
    # seed 002's hash map (row) vectors: the last dimension hashed, located
    # by probing, below dense rows.
    "hash": lambda r: Format(["dense"] * (r - 1) + ["hashed"]),
}


def bsr(blocksize):
    """seed 002's BCSR (scipy's bsr_matrix): rows of blocks, the blocks
    holding entries in each row compressed, each block stored whole
    (row-major) with the fill where it has no entry. Every extent must be a
    multiple of its block size."""
    r, c = (int(b) for b in blocksize)
    if r < 1 or c < 1 or (r, c) == (1, 1):
        raise ValueError("a block size (r, c) with r, c >= 1, not 1 x 1, got %r" % (blocksize,))
    levels = ["dense", "compressed"] + ["dense"] * ((r > 1) + (c > 1))
    order = [0, 1] + [d for d, b in enumerate((r, c)) if b > 1]
    return Format(levels, order, blocks=(r, c))


def structured(n, m, rank=2):
    """N:M structured sparsity (upstream's `structured[n, m]`, NVIDIA's
    2:4): the last dimension in blocks of m, each holding at most n
    entries (n slots per block, entries first, then padding). The last
    extent must be a multiple of m."""
    n, m, rank = int(n), int(m), int(rank)
    if not 1 <= n <= m or m < 2 or rank < 1:
        raise ValueError("structured(n, m) needs 1 <= n <= m, m >= 2, got %r" % ((n, m),))
    levels = ["dense"] * rank + [Level("structured", params=(n, m))]
    order = list(range(rank)) + [rank - 1]
    return Format(levels, order, blocks=(1,) * (rank - 1) + (m,))


def make_format(spec, rank):
    """A Format from a name (dense, csr, csc, dcsr, csf, coo, compressed),
    a list of level names, or a Format."""
    if isinstance(spec, Format):
        if spec.rank != rank:
            raise ValueError("format of rank %d for an array of rank %d" % (spec.rank, rank))
        return spec
    if isinstance(spec, str):
        made = _MADE.get((spec, rank))
        if made is None:
            made = _MADE[(spec, rank)] = _named_format(spec, rank)
        return made
    return make_format(Format(spec), rank)


_MADE = {}  # (name, rank) -> Format (immutable): asarray runs per call


def _named_format(spec, rank):
    name = spec.lower()
    if name == "compressed":
        name = "dcsr"
    if name == "bsr":
        raise ValueError("bsr needs a block size: format=sparse_array.bsr((r, c))")
    if name not in _NAMED:
        raise ValueError("unknown format %r (one of %s)" % (spec, ", ".join(_NAMED)))
    if name in ("csc", "dia", "ell") and rank != 2:
        raise ValueError("%s is a format of matrices" % name)
    if rank == 0:
        return Format([])
    return _NAMED[name](rank)


def scalar_text(value, dtype):
    """An MLIR attribute for `value` of `dtype` (floats by their bits, so
    that NaN payloads and -0.0 survive)."""
    dtype = np.dtype(dtype)
    if dtype == np.float64:
        bits = struct.unpack("<Q", struct.pack("<d", float(value)))[0]
        return "0x%016X : f64" % bits
    if dtype == np.float32:
        return "0x%08X : f32" % int(np.array(value, dtype=np.float32).view(np.uint32))
    if dtype == np.bool_:
        return "true" if bool(value) else "false"
    if dtype == np.int32:
        return "%d : i32" % int(np.int32(value))
    return "%d : i64" % int(np.int64(value))


def type_text(shape, dtype, fmt, fill, static=False):
    """`!sparse_array.array<...>` with dynamic extents (one kernel for every
    shape) unless `static` (or while tracing)."""
    static = static or static_types()
    dims = "".join(("%d" % n if static else "?") + "x" for n in shape)
    levels = ", ".join(l.text() for l in fmt.levels)
    extra = ""
    if list(fmt.order) != list(range(len(fmt.levels))):
        extra += ", order = [%s]" % ", ".join(map(str, fmt.order))
    if fmt.pos_width != 64:
        extra += ", pos_width = %d" % fmt.pos_width
    if fmt.crd_width != 64:
        extra += ", crd_width = %d" % fmt.crd_width
    if fmt.blocks:
        extra += ", blocks = [%s]" % ", ".join(map(str, fmt.blocks))
    return "!sparse_array.array<%s%s, #sparse_array.format<[%s]%s, fill = %s>>" % (
        dims, ELEMENT[np.dtype(dtype)], levels, extra, scalar_text(fill, dtype))
