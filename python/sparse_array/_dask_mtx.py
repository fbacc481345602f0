"""A Matrix Market file read into a dask array of row blocks on the workers
(sparse_array.dask.read_mtx): the client reads the header only; one task
per byte range of the entries parses them (numpy, vectorized) and splits
them by row block; one task per row block gathers its parts from every
range and builds the chunk. Entries move between workers once (a shuffle),
never through the client.

The file's rules are sa.read's (docs/storage.md "Reading files"):
coordinate real/integer/pattern, general/symmetric/skew-symmetric,
symmetric halves mirrored, entries equal to the fill not stored,
duplicates refused; errors name FILE:LINE and the reason."""
import os

import dask
import dask.array as da
import numpy as np

from ._array import _from_coords
from ._errors import SparseArrayError
from ._format import ELEMENT, make_format
from ._storage import differs

_FIELDS = ("real", "integer", "pattern")
_SYMMETRIES = ("general", "symmetric", "skew-symmetric")


class _Header:
    """What the client reads: banner, comments and the size line."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            banner = f.readline()
            line = 1
            words = banner.decode("ascii", "replace").split()
            if len(words) != 5 or words[0] != "%%MatrixMarket" or words[1].lower() != "matrix":
                self.fail(1, "not a Matrix Market banner ('%%MatrixMarket matrix FORMAT "
                             "FIELD SYMMETRY')")
            layout, field, symmetry = (w.lower() for w in words[2:])
            if layout != "coordinate":
                self.fail(1, "'%s' files are not read in row blocks (coordinate only; "
                             "sa.read reads them whole)" % layout)
            if field not in _FIELDS:
                self.fail(1, "field '%s' is not supported (%s)" % (field, ", ".join(_FIELDS)))
            if symmetry not in _SYMMETRIES:
                self.fail(1, "symmetry '%s' is not supported (%s)"
                          % (symmetry, ", ".join(_SYMMETRIES)))
            if field == "pattern" and symmetry == "skew-symmetric":
                self.fail(1, "a pattern cannot be skew-symmetric")
            while True:
                raw = f.readline()
                line += 1
                if not raw:
                    self.fail(line, "the size line is missing")
                text = raw.strip()
                if text and not text.startswith(b"%"):
                    break
            try:
                sizes = [int(w) for w in text.split()]
            except ValueError:
                sizes = []
            if len(sizes) != 3 or min(sizes) < 0:
                self.fail(line, "the size line is not 'ROWS COLUMNS ENTRIES'")
            self.rows, self.cols, self.nnz = sizes
            if symmetry != "general" and self.rows != self.cols:
                self.fail(line, "a %s matrix must be square" % symmetry)
            self.field, self.symmetry = field, symmetry
            self.data_offset, self.data_line = f.tell(), line + 1
        self.size = os.path.getsize(path)

    def fail(self, line, reason):
        raise SparseArrayError("%s:%d: %s" % (self.path, line, reason))

    def line_at(self, offset):
        """The line number of the byte at `offset` (error paths only)."""
        with open(self.path, "rb") as f:
            f.seek(self.data_offset)
            return self.data_line + f.read(offset - self.data_offset).count(b"\n")


def _read_range(header, start, end):
    """The bytes of the lines that start in [start, end) (a line that begins
    before `start` belongs to the range before), and their offset."""
    with open(header.path, "rb") as f:
        if start > header.data_offset:
            f.seek(start - 1)
            f.readline()  # the rest of the line the previous range owns
            start = f.tell()
        else:
            f.seek(start)
        if start >= end:
            return b"", start
        data = f.read(end - start)
        if not data.endswith(b"\n"):
            data += f.readline()
    return data, start


def _tokens_per_line(data):
    """(token count, first byte offset) of each line of `data`, by numpy
    over the bytes; comment lines ('%') count no tokens."""
    b = np.frombuffer(data, dtype=np.uint8)
    nl = b == 10
    space = (b == 32) | (b == 9) | (b == 13) | nl
    line = np.concatenate(([0], np.cumsum(nl)[:-1])) if len(b) else np.zeros(0, np.int64)
    starts = ~space & np.concatenate(([True], space[:-1])) if len(b) else np.zeros(0, bool)
    lines = int(nl.sum()) + (0 if data.endswith(b"\n") or not data else 1)
    counts = np.bincount(line[starts], minlength=lines)
    line_start = np.concatenate(([0], np.flatnonzero(nl) + 1))[:lines].astype(np.int64)
    comment = np.zeros(lines, bool)
    first = np.flatnonzero(starts)
    comment[line[first[b[first] == ord("%")]]] = True
    counts[comment] = 0
    return counts, line_start, comment


def parse_range(header, start, end, block_rows, dtype):
    """The entries of one byte range, split by row block: a list of
    (local rows, columns, values) per block, and how many lines it held."""
    data, offset = _read_range(header, start, end)
    want = 2 if header.field == "pattern" else 3
    counts, line_start, comment = _tokens_per_line(data)
    bad = np.flatnonzero((counts != want) & (counts != 0))
    if len(bad):
        line = header.line_at(offset + int(line_start[bad[0]]))
        header.fail(line, "%d values where a %s entry has %d" % (counts[bad[0]], header.field, want))
    if comment.any():
        keep = ~comment
        pieces = [data[s:e] for s, e, k in zip(line_start, np.append(line_start[1:], len(data)), keep)
                  if k]
        data = b"".join(pieces)
    entries = int((counts == want).sum())
    integer = header.field != "real"
    raw = np.fromstring(data.replace(b"\r", b" "), dtype=np.int64 if integer else np.float64,
                        sep=" ") if entries else np.zeros(0)
    if len(raw) != entries * want:
        _slow_check(header, data, offset, want, integer)
    raw = raw.reshape(entries, want)
    i, j = raw[:, 0].astype(np.int64), raw[:, 1].astype(np.int64)
    if not integer and (np.any(raw[:, 0] != i) or np.any(raw[:, 1] != j)):
        _slow_check(header, data, offset, want, integer)
    out_of_range = (i < 1) | (i > header.rows) | (j < 1) | (j > header.cols)
    if out_of_range.any():
        k = int(np.flatnonzero(out_of_range)[0])
        header.fail(_entry_line(header, offset, counts, k),
                    "entry (%d, %d) is outside the %d x %d matrix" % (i[k], j[k], header.rows,
                                                                      header.cols))
    values = _values(header, raw, dtype, offset, counts)
    i, j = i - 1, j - 1
    if header.symmetry != "general":
        off = i != j
        if header.symmetry == "skew-symmetric" and np.any(~off & differs(values, 0)):
            k = int(np.flatnonzero(~off & differs(values, 0))[0])
            header.fail(_entry_line(header, offset, counts, k),
                        "a skew-symmetric matrix has a non-zero diagonal entry")
        mirrored = values[off] if header.symmetry == "symmetric" else -values[off]
        i, j = np.concatenate((i, j[off])), np.concatenate((j, i[off]))
        values = np.concatenate((values, mirrored))
    block = i // block_rows
    order = np.argsort(block, kind="stable")
    bounds = np.searchsorted(block[order], np.arange(_blocks(header, block_rows) + 1))
    parts = []
    for k in range(len(bounds) - 1):
        sel = order[bounds[k]:bounds[k + 1]]
        parts.append((i[sel] - k * block_rows, j[sel], values[sel]))
    return parts, entries


def _entry_line(header, offset, counts, k):
    """The line number of the k-th entry of a range at `offset`."""
    return header.line_at(offset) + int(np.flatnonzero(counts != 0)[k])


def _values(header, raw, dtype, offset, counts):
    if header.field == "pattern":
        return np.ones(len(raw), dtype=dtype)
    v = raw[:, 2]
    if dtype.kind in "iub":
        if header.field == "real":
            header.fail(header.data_line, "a real file cannot be read into a %s array" % dtype)
        info = np.iinfo(np.int32) if dtype == np.int32 else None
        if dtype == np.bool_:
            bad = (v != 0) & (v != 1)
        elif info is not None:
            bad = (v < -2 ** 31) | (v >= 2 ** 32)  # the signless range of 32 bits
        else:
            bad = np.zeros(len(v), bool)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            header.fail(_entry_line(header, offset, counts, k),
                        "value %d does not fit %s" % (v[k], dtype))
        return v.astype(np.uint32).view(np.int32) if dtype == np.int32 else v.astype(dtype)
    return v.astype(dtype)


def _slow_check(header, data, offset, want, integer):
    """A line that numpy did not parse: found line by line for the error."""
    line = header.line_at(offset)
    for text in data.split(b"\n"):
        words = text.split()
        if words and not words[0].startswith(b"%"):
            try:
                for w in words[:2]:
                    int(w)
                if integer:
                    for w in words[2:]:
                        int(w)
                else:
                    for w in words[2:]:
                        float(w)
            except ValueError:
                header.fail(line, "'%s' is not a %s entry" % (
                    text.decode("ascii", "replace").strip(), header.field))
        line += 1
    header.fail(header.data_line, "the entries do not parse")


def assemble(header, parts, counts, k, block_rows, dtype, fmt, fill):
    """Row block k from its parts of every range: checks the entry count
    and duplicates, drops entries equal to the fill, builds the chunk."""
    if sum(counts) != header.nnz:
        header.fail(header.data_line - 1, "the size line announces %d entries, the file "
                    "lists %d" % (header.nnz, sum(counts)))
    rows = max(0, min(block_rows, header.rows - k * block_rows))
    i = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int64)
    j = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, np.int64)
    v = np.concatenate([p[2] for p in parts]) if parts else np.zeros(0, dtype)
    order = np.lexsort((j, i))
    i, j, v = i[order], j[order], v[order]
    dup = (i[1:] == i[:-1]) & (j[1:] == j[:-1])
    if dup.any():
        d = int(np.flatnonzero(dup)[0])
        raise SparseArrayError("%s: entry (%d, %d) is given twice" % (
            header.path, i[d] + k * block_rows + 1, j[d] + 1))
    keep = differs(v, fill)
    coords = np.stack((i[keep], j[keep]), axis=1)
    return _from_coords((rows, header.cols), dtype, fmt, fill, coords, v[keep])


def meta(a):
    """A 0-extent array of a's dtype, format and fill: dask's meta."""
    return a[(slice(0, 0),) * a.ndim] if a.ndim else a


def _blocks(header, block_rows):
    """Row blocks (one, of no rows, for a matrix without rows)."""
    return max(1, -(-header.rows // block_rows))


def _part(parsed, k):
    return parsed[0][k]


def _count(parsed):
    return parsed[1]


def read_mtx(path, row_chunk, format="csr", fill_value=0, dtype=np.float64,
             blocksize=64 << 20):
    """A dask array of row blocks (`row_chunk` rows each, all columns) read
    from Matrix Market file `path` on the workers (the path must name the
    same file on every worker: a shared or copied file system). Each chunk
    is an sa array of `format` with implicit entries `fill_value`; entries
    as sa.read gives them (docs/storage.md). `blocksize` bytes of the file
    are parsed per task."""
    dtype = np.dtype(dtype)
    if dtype not in ELEMENT:
        raise TypeError("dtype %s is not supported (float64, float32, int64, int32, bool)" % dtype)
    header = _Header(os.fspath(path))
    fmt = make_format(format, 2)
    fill = dtype.type(fill_value)
    row_chunk = max(1, int(row_chunk))
    blocks = _blocks(header, row_chunk)
    name = "sa-read-mtx-" + dask.base.tokenize(header.path, os.path.getmtime(header.path),
                                               row_chunk, fmt.key(), fill.tobytes(), dtype.str)
    graph = {}
    ranges = list(range(header.data_offset, header.size, blocksize)) or [header.data_offset]
    for r, start in enumerate(ranges):
        end = min(start + blocksize, header.size)
        graph[(name + "-parse", r)] = (parse_range, header, start, end, row_chunk, dtype)
        graph[(name + "-count", r)] = (_count, (name + "-parse", r))
        for k in range(blocks):
            graph[(name + "-part", r, k)] = (_part, (name + "-parse", r), k)
    counts = [(name + "-count", r) for r in range(len(ranges))]
    for k in range(blocks):
        parts = [(name + "-part", r, k) for r in range(len(ranges))]
        graph[(name, k, 0)] = (assemble, header, parts, counts, k, row_chunk, dtype, fmt, fill)
    chunks = (tuple(max(0, min(row_chunk, header.rows - k * row_chunk)) for k in range(blocks)),
              (header.cols,))
    empty = meta(_from_coords((0, header.cols), dtype, fmt, fill, np.zeros((0, 2), np.int64),
                              np.zeros(0, dtype)))
    return da.Array(graph, name, chunks, meta=empty)
