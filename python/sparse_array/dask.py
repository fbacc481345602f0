"""sparse_array arrays as Dask chunks (docs/python.md, "More than one machine").

    import dask.array as da
    import sparse_array as sa
    import sparse_array.dask as sad
    A = sad.read_mtx("graph.mtx", row_chunk=1 << 20, fill_value=np.inf)  # read on the workers
    y = sad.matmul(A, x, semiring=("minimum", "add"))   # one kernel per row block
    s = np.maximum(A, 0).sum(axis=1)                    # dask.array's own API

Importing this module registers sa.Array with dask.array's dispatch
(concatenate, tensordot, numel) so that dask.array's element-wise ufuncs,
where/clip, reductions, `@`, slicing and concatenation run on sa chunks;
arrays pickle by value (Array.__reduce__), so they travel to worker
processes. The helpers here make chunked arrays without gathering data to
the client and do what dask.array's generic code cannot do exactly: user
functions as reductions (tree or left fold, by the declared properties)
and semiring products that keep each row's fold in one kernel.
"""
import ctypes
import functools
import os
import uuid

import numpy as np

try:
    import dask
    import dask.array as da
    from dask.array import dispatch as _dask_dispatch
    from dask.array.core import normalize_chunks
except ImportError as e:  # the core package works without Dask
    raise ImportError("sparse_array.dask needs Dask (Debian: python3-dask, "
                      "python3-distributed)") from e

from ._array import Array, asarray
from ._function import Function
from ._linalg import matmul as _sa_matmul
from ._ops import convert
from ._reductions import reduce as _sa_reduce
from ._shape import (concatenate as _sa_concatenate, reshape as _sa_reshape,
                     squeeze as _sa_squeeze, transpose as _sa_transpose)
from ._dask_mtx import meta as _meta, read_mtx  # noqa: F401  (read_mtx re-exported)

__all__ = ["from_array", "from_scipy", "read_mtx", "map", "reduce", "matmul", "register"]


# --- dispatch ------------------------------------------------------------
def _as_chunk(x):
    return x if isinstance(x, Array) else asarray(x)


def _concatenate(arrays, axis=0):
    """dask's concatenate_lookup: chunks (sa arrays, or numpy ones where a
    dense chunk meets them) joined along `axis` by sa.concatenate."""
    return _sa_concatenate([_as_chunk(a) for a in arrays], axis)


def _tensordot(a, b, axes=2):
    """dask's tensordot_lookup for matrices and vectors contracting one
    axis (what dask.array's dot and tensordot ask of 2-D chunks): a
    transpose where the contracted axis is not a's last or b's first, then
    sa.matmul."""
    if isinstance(axes, int):
        axes = (list(range(a.ndim - axes, a.ndim)), list(range(axes)))
    ia, ib = ([x] if isinstance(x, int) else list(x) for x in axes)
    if len(ia) != 1 or len(ib) != 1 or a.ndim > 2 or b.ndim > 2:
        raise NotImplementedError(
            "sparse_array: tensordot of ranks %d and %d over axes %r is not supported "
            "(one contracted axis of matrices or vectors)" % (a.ndim, b.ndim, axes))
    a, b = _as_chunk(a), _as_chunk(b)
    if a.ndim == 2 and ia[0] % 2 == 0:
        a = _sa_transpose(a)
    if b.ndim == 2 and ib[0] % 2 == 1:
        b = _sa_transpose(b)
    return _sa_matmul(a, b)


def _nannumel(x, **kwargs):
    """Entries that are not NaN, as numpy (dask's mean/var of chunks)."""
    n = np.sum(~np.isnan(x), **kwargs)
    return n.todense() if isinstance(n, Array) else n


def _keep_heap_top():
    """Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=64 KiB, so
    glibc hands every freed block above that back to the kernel and the
    next call faults the pages in again: a kernel's 1 MB result then costs
    10x its compute (40 ms against 3 ms for row sums of 1.5M entries on
    this project's machine). Blocks up to 32 MiB from the heap rather than
    mmap (M_MMAP_THRESHOLD; a fixed trim threshold also freezes glibc's
    adaptive one at 128 KiB) and 64 MiB kept at the heap's top (M_TOP_PAD)
    restore the one-process speed; memory beyond that still goes back."""
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ:
        return
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD
        libc.mallopt(-2, 64 << 20)  # M_TOP_PAD
    except (OSError, AttributeError):
        pass  # not glibc: nothing to undo


@functools.lru_cache(maxsize=None)
def register():
    """Registers sa.Array with dask.array's dispatch (done on import; a
    worker process imports this module when it unpickles a task naming
    these functions)."""
    _keep_heap_top()
    _dask_dispatch.concatenate_lookup.register(Array, _concatenate)
    _dask_dispatch.tensordot_lookup.register(Array, _tensordot)
    _dask_dispatch.nannumel_lookup.register(Array, _nannumel)
    return True


register()


# --- making chunked arrays -------------------------------------------------
def _keep_format(chunk, a):
    """A chunk in a's format and fill (a slice may come back in another
    format where a's does not slice as itself)."""
    if chunk.format == a.format:
        return chunk
    return convert(chunk, a.format, a.fill_value)


def from_array(x, chunks="auto", format=None, fill_value=None, name=None):
    """A dask array whose chunks are sa arrays cut from `x` (an sa.Array, a
    scipy or pydata matrix, a numpy array: sa.asarray's inputs and
    keywords); each chunk keeps x's format and fill. The chunks are cut on
    the client and each goes to the worker that first needs it."""
    a = asarray(x, format=format, fill_value=fill_value)
    chunks = normalize_chunks(chunks, a.shape, dtype=a.dtype)
    name = name or "sa-from-array-" + uuid.uuid4().hex  # ids recur; contents are costly to hash
    starts = [np.cumsum((0,) + c) for c in chunks]
    graph = {}
    for index in np.ndindex(*[len(c) for c in chunks]):
        key = tuple(slice(int(s[i]), int(s[i + 1])) for s, i in zip(starts, index))
        graph[(name,) + index] = _keep_format(a[key], a) if a.ndim else a
    return da.Array(graph, name, chunks, meta=_meta(a))


def from_scipy(m, row_chunk, format=None, fill_value=None):
    """A dask array of row blocks of `row_chunk` rows from a scipy.sparse
    matrix (each block converted alone: CSR rows are taken without
    copying the whole matrix)."""
    import scipy.sparse as sp
    m = sp.csr_matrix(m)
    n = m.shape[0]
    chunks = normalize_chunks((row_chunk, m.shape[1]), m.shape)
    name = "sa-from-scipy-" + uuid.uuid4().hex
    graph, start = {}, 0
    for k, rows in enumerate(chunks[0]):
        graph[(name, k, 0)] = asarray(m[start:start + rows], format=format or "csr",
                                      fill_value=fill_value)
        start += rows
    meta = _meta(graph[(name, 0, 0)]) if n else _meta(asarray(m, format=format or "csr",
                                                               fill_value=fill_value))
    return da.Array(graph, name, chunks, meta=meta)


# --- user functions element-wise ---------------------------------------------
def _apply(func, *chunks):
    return func(*[_as_chunk(c) if isinstance(c, (Array, np.ndarray)) else c for c in chunks])


def map(func, *arrays):  # noqa: A001  (sa.dask.map, as Python's)
    """An sa.Function applied element-wise to dask arrays (and scalars or
    numpy arrays), broadcasting as NumPy does: one kernel per chunk
    (dask.array's elemwise), each chunk's fill from the function."""
    dtype = np.dtype(func.dtype) if isinstance(func, Function) else None
    return da.core.elemwise(functools.partial(_apply, func), *arrays, dtype=dtype)


# --- reductions with user functions ------------------------------------------
def _associative(func, dtype):
    """Whether partial folds may be combined in a tree and give the same
    bits: a function declared associative (the property checker proved
    it), numpy's min/max/any/all, and sum/prod of integers (wrap-around
    arithmetic is associative; float addition is not)."""
    if isinstance(func, Function):
        header = func.text.split("{", 1)[0]
        return "associative" in header
    return func in ("min", "max", "any", "all") or dtype.kind in "iub"


def _chunk_reduce(x, axis=None, keepdims=True, func=None):
    r = _sa_reduce(func, _as_chunk(x), axis, keepdims)
    return r if isinstance(r, Array) else asarray(np.asarray(r))


def _fold_with_carry(carry, x, axes, func):
    """func folded over x's entries along `axes` (in C order) starting
    from `carry` (the previous chunks' fold, extent 1 along `axes`; or
    None): the one-process left fold, continued across a chunk boundary.
    With several axes the reduced ones are moved last and flattened so
    that the carry precedes them in the fold."""
    x = _as_chunk(x)
    if carry is None:
        return _chunk_reduce(x, axes, True, func)
    if len(axes) == 1:
        return _chunk_reduce(_sa_concatenate([carry, x], axes[0]), axes, True, func)
    kept = [k for k in range(x.ndim) if k not in axes]
    lead = tuple(x.shape[k] for k in kept)
    flat = _sa_reshape(_sa_transpose(x, kept + list(axes)), lead + (-1,))
    start = _sa_reshape(_sa_transpose(_as_chunk(carry), kept + list(axes)), lead + (1,))
    r = _chunk_reduce(_sa_concatenate([start, flat], len(lead)), (len(lead),), True, func)
    return _sa_reshape(r, tuple(1 if k in axes else x.shape[k] for k in range(x.ndim)))


def reduce(func, x, axis=None, keepdims=False, split_every=None):
    """A reduction of dask array `x` by `func` (a numpy name: sum, prod, min,
    max, any, all; or an sa.Function) over `axis`, chunk by chunk:
    * an associative func (numpy's, or declared associative=True) folds each
      chunk, then folds the partial results in a tree (dask's reduction);
    * any other (a user function not declared associative, sum or prod of
      floats) is a left fold in C order, as one process computes it: along
      the outermost reduced axis each chunk's fold starts from the previous
      chunks' result (a chain of tasks, not a tree), so the answer is the
      one-process answer bit for bit; the inner reduced axes are rechunked
      whole first."""
    names = ("sum", "prod", "min", "max", "any", "all")
    if isinstance(func, str) and func not in names:
        raise ValueError("sparse_array.dask.reduce: %r is not one of %s or an sa.Function"
                         % (func, ", ".join(names)))
    axes = tuple(range(x.ndim)) if axis is None else tuple(
        d % x.ndim for d in ((axis,) if isinstance(axis, int) else axis))
    if isinstance(func, str):
        dtype = np.asarray(getattr(np, func)(np.zeros(1, x.dtype))).dtype
    else:
        dtype = np.dtype(func.dtype)
    if _associative(func, x.dtype):
        chunk = functools.partial(_chunk_reduce, func=func)
        return da.reduction(x, chunk, chunk, combine=chunk, axis=axes, keepdims=keepdims,
                            dtype=dtype, split_every=split_every, concatenate=True,
                            meta=x._meta)
    axes = tuple(sorted(axes))
    if any(len(x.chunks[d]) > 1 for d in axes[1:]):
        # Chunks of an inner reduced axis would split each C-order run of
        # the fold into pieces that interleave with other chunks' pieces:
        # those axes are joined (each task then holds whole inner extents).
        x = x.rechunk({d: -1 for d in axes[1:]})
    crossing = [d for d in axes if len(x.chunks[d]) > 1]
    if not crossing:
        fold = functools.partial(_chunk_reduce, axis=axes, keepdims=keepdims, func=func)
        return x.map_blocks(fold,
                            drop_axis=[] if keepdims else list(axes),
                            chunks=tuple((1,) * len(c) if d in axes else c
                                         for d, c in enumerate(x.chunks)) if keepdims else None,
                            dtype=dtype, meta=x._meta)
    return _chained_fold(x, axes, keepdims, func, dtype)


def _chained_fold(x, axes, keepdims, func, dtype):
    """The left fold over `axes` of chunked x, whose chunks along axes[0]
    are folded in order: one task per chunk, each taking the previous
    one's result as its carry."""
    d = axes[0]
    name = "sa-fold-" + dask.base.tokenize(x, axes, getattr(func, "__name__", func))
    graph = {}
    for rest in np.ndindex(*[len(c) for k, c in enumerate(x.chunks) if k not in axes]):
        carry = None
        for k in range(len(x.chunks[d])):
            index, it = [], iter(rest)
            for a in range(x.ndim):
                index.append(k if a == d else 0 if a in axes else next(it))
            key = (name + "-part",) + tuple(index) + (k,)
            graph[key] = (_fold_with_carry, carry, (x.name,) + tuple(index), axes, func)
            carry = key
        out = [0 if a in axes else r for a, r in zip(range(x.ndim), _spread(rest, axes, x.ndim))]
        if not keepdims:
            out = [o for a, o in enumerate(out) if a not in axes]
        graph[(name,) + tuple(out)] = carry if keepdims else (_squeeze, carry, axes)
    chunks = [((1,) if keepdims else None) if k in axes else c for k, c in enumerate(x.chunks)]
    chunks = [c for c in chunks if c is not None]
    g = dask.highlevelgraph.HighLevelGraph.from_collections(name, graph, dependencies=[x])
    return da.Array(g, name, tuple(chunks), dtype=dtype, meta=x._meta)


def _spread(rest, axes, ndim):
    """Indices of the kept axes spread over all ndim (reduced ones: 0)."""
    it = iter(rest)
    return [0 if a in axes else next(it) for a in range(ndim)]


def _squeeze(a, axes):
    r = _sa_squeeze(a, axes)
    return r.todense()[()] if isinstance(r, Array) and r.ndim == 0 else r


# --- products --------------------------------------------------------------
def _block_product(a, b, semiring=None):
    a, b = _as_chunk(a), _as_chunk(b)
    return _sa_matmul(a, b, semiring=semiring) if semiring else _sa_matmul(a, b)


def matmul(a, b, semiring=None):
    """a @ b (matrix x vector or matrix x matrix) with a chunked by rows:
    each row block of a meets the whole contracted extent of b in one
    kernel (dask's blockwise with concatenate=True), so every result entry
    is folded in one place, in the one-process order, bit for bit;
    `semiring` as in sa.matmul. b may be a numpy/sa array (shipped to each
    task) or a dask array."""
    if not isinstance(a, da.Array):
        a = from_array(a, chunks=(max(1, a.shape[0]), a.shape[1]))
    if not isinstance(b, da.Array):
        b = da.from_array(b if isinstance(b, Array) else np.asarray(b),
                          chunks=b.shape, asarray=False)
    fn = functools.partial(_block_product, semiring=semiring)
    if b.ndim == 1:
        out = da.blockwise(fn, "i", a, "ik", b, "k", concatenate=True, dtype=a.dtype,
                           meta=asarray(np.zeros(0, a.dtype)))
    else:
        out = da.blockwise(fn, "ij", a, "ik", b, "kj", concatenate=True, dtype=a.dtype,
                           meta=a._meta)
    return out
