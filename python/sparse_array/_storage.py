"""Buffers of an array in the order of docs/storage.md, built from and
turned back into coordinates with numpy (no per-entry Python loops), for
the formats of dense, compressed and singleton levels (_format.PACKED_HERE);
arrays with other levels are converted to and from those by the runtime."""
import numpy as np


def differs(values, fill):
    """Entries that are not the fill: bitwise for floats (-0.0 is not 0.0,
    NaN is the fill only if the fill is that NaN)."""
    values = np.asarray(values)
    if values.dtype == np.float64:
        return values.view(np.int64) != np.array(fill, dtype=np.float64).view(np.int64)
    if values.dtype == np.float32:
        return values.view(np.int32) != np.array(fill, dtype=np.float32).view(np.int32)
    return values != np.array(fill, dtype=values.dtype)


def build(fmt, shape, coords, values, fill, dtype, sort=True):
    """Buffers of `fmt` for the entries at `coords` ((nnz, rank) in
    dimension order, any order, no duplicates) with `values`; unsorted
    (sort=False) only for an unordered COO, which keeps the given order."""
    rank = fmt.rank
    dtype = np.dtype(dtype)
    pos_t = np.int32 if fmt.pos_width == 32 else np.int64
    crd_t = np.int32 if fmt.crd_width == 32 else np.int64
    lvl = _level_coords(fmt, coords) if rank else coords
    extents = fmt.level_extents(shape)
    if len(values) and sort:
        perm = np.lexsort(lvl.T[::-1]) if rank else np.arange(len(values))
        lvl, values = lvl[perm], values[perm]
    if fmt.crd_width == 32:
        # Coordinates are unsigned.
        for l, level in enumerate(fmt.levels):
            if level.kind != "dense" and extents[l] > 2 ** 32:
                raise ValueError("a dimension of %d does not fit crd_width = 32 in a %s level"
                                 % (extents[l], level.kind))
    buffers = []
    parent = np.zeros(len(values), dtype=np.int64)  # position of each entry's parent
    nparents = 1
    for l, level in enumerate(fmt.levels):
        c = lvl[:, l].astype(np.int64)
        if level.kind == "dense":
            parent = parent * extents[l] + c
            nparents *= extents[l]
            continue
        if level.kind == "singleton":
            # One child per parent position (entries of one block share it).
            crd = np.zeros(nparents, dtype=crd_t)
            crd[parent] = c
            buffers.append(crd)
            continue
        # compressed: one entry per distinct (parent, coordinate); when
        # non-unique, per distinct coordinates through the unique level
        # ending the run (each point in COO, each block in a COO of blocks).
        last = l
        while not fmt.levels[last].unique:
            last += 1
        if len(c) and (level.unique or fmt.blocks):
            new = np.ones(len(c), dtype=bool)
            new[1:] = (parent[1:] != parent[:-1]) | np.any(
                lvl[1:, l:last + 1] != lvl[:-1, l:last + 1], axis=1)
            ids = np.cumsum(new) - 1
            ent_parent, ent_crd = parent[new], c[new]
        else:
            ids = np.arange(len(c), dtype=np.int64)
            ent_parent, ent_crd = parent, c
        counts = np.bincount(ent_parent, minlength=nparents) if len(ent_parent) else np.zeros(nparents, np.int64)
        pos = np.zeros(nparents + 1, dtype=np.int64)
        np.cumsum(counts, out=pos[1:])
        buffers += [pos.astype(pos_t), ent_crd.astype(crd_t)]
        parent, nparents = ids, len(ent_crd)
    vals = np.full(nparents, fill, dtype=dtype)
    vals[parent] = values
    buffers.append(vals)
    return buffers


def _level_coords(fmt, coords):
    """(nnz, levels) coordinates: each level's dimension coordinate, or
    with blocks its block (d // b) or place in the block (d % b)."""
    cols = []
    for l, d in enumerate(fmt.order):
        part = fmt.level_part(l)
        c = coords[:, d]
        cols.append(c if part == "whole" else c // fmt.blocks[d] if part == "block"
                    else c % fmt.blocks[d])
    return np.stack(cols, axis=1) if cols else coords


def _coordinates(buf):
    """A coordinate buffer as int64: 32-bit coordinates are unsigned."""
    return buf.view(np.uint32).astype(np.int64) if buf.dtype == np.int32 else buf.astype(np.int64)


def entries(fmt, shape, buffers):
    """(coords (n, rank) in dimension order, values) of every stored slot."""
    rank = fmt.rank
    extents = fmt.level_extents(shape)
    k = 0
    pos_index = np.zeros(1, dtype=np.int64)  # positions at this level
    coords = np.zeros((1, 0), dtype=np.int64)
    for l, level in enumerate(fmt.levels):
        if level.kind == "dense":
            n = extents[l]
            pos_index = (pos_index[:, None] * n + np.arange(n)[None, :]).ravel()
            coords = np.concatenate([np.repeat(coords, n, axis=0),
                                     np.tile(np.arange(n), len(coords))[:, None]], axis=1)
        elif level.kind == "compressed":
            pos, crd = buffers[k].astype(np.int64), _coordinates(buffers[k + 1])
            k += 2
            lo, hi = pos[pos_index], pos[pos_index + 1]
            counts = hi - lo
            start = np.repeat(lo - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
            pos_index = start + np.arange(counts.sum())
            coords = np.concatenate([np.repeat(coords, counts, axis=0), crd[pos_index][:, None]], axis=1)
        else:
            crd = _coordinates(buffers[k])
            k += 1
            coords = np.concatenate([coords, crd[pos_index][:, None]], axis=1)
    values = buffers[k][pos_index]
    dims = np.zeros((len(coords), rank), dtype=np.int64)
    for l, d in enumerate(fmt.order):
        part = fmt.level_part(l)
        dims[:, d] += coords[:, l] * fmt.blocks[d] if part == "block" else coords[:, l]
    return dims, values
