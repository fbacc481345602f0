"""sa arrays as Dask chunks on a dask.distributed LocalCluster of two worker
processes (issue 59): each operation against the one-process package bit
for bit and against NumPy; pickling; reading Matrix Market in row blocks
on the workers; a worker killed mid-computation; kernels compiled once per
worker and loaded from the disk cache by a new one. (Not yet: an input
larger than a worker's memory_limit; see issue 59's note.)"""
import os
import pickle
import signal
import time

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import dask
import dask.array as da
from dask.distributed import Client, LocalCluster, wait

import sparse_array as sa
import sparse_array.dask as sad

from conftest import SHARED, random_dense, same


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=40)
    c = Client(cluster)  # the default scheduler of .compute() while it lives
    yield c
    c.close()
    cluster.close()


def _value(x):
    return x.todense() if isinstance(x, sa.Array) else np.asarray(x)


def _chunked(rng, shape, dtype, fill, fmt, chunks, density=0.3):
    d = random_dense(rng, shape, dtype, fill, density=density)
    a = sa.asarray(d, format=fmt, fill_value=fill)
    return d, a, sad.from_array(a, chunks=chunks)


CASES = [((23, 17), np.float64, 0.0, "csr", (6, 17)),
         ((23, 17), np.float64, np.nan, "csr", (5, 9)),
         ((19, 21), np.float64, -0.0, "coo", (7, 8)),
         ((20, 12), np.int64, 1, "csc", (9, 5)),
         ((16, 16), np.float32, 0.0, "dense", (4, 16))]


@pytest.mark.parametrize("shape,dtype,fill,fmt,chunks", CASES)
def test_pickle_keeps_buffers_format_fill(rng, shape, dtype, fill, fmt, chunks):
    d, a, _ = _chunked(rng, shape, dtype, fill, fmt, chunks)
    for x in (a, a + a, a.T):  # borrowed, kernel-owned, a view
        y = pickle.loads(pickle.dumps(x))
        assert (y.format, y.shape, y.dtype) == (x.format, x.shape, x.dtype)
        same(np.array([y.fill_value]), np.array([x.fill_value]))
        same(y.todense(), x.todense())


@pytest.mark.parametrize("shape,dtype,fill,fmt,chunks", CASES)
def test_chunks_keep_format_and_fill(client, rng, shape, dtype, fill, fmt, chunks):
    d, a, x = _chunked(rng, shape, dtype, fill, fmt, chunks)
    assert isinstance(x._meta, sa.Array) and x._meta.format == a.format
    parts = client.compute(x.to_delayed().ravel().tolist(), sync=True)
    assert all(p.format == a.format for p in parts)
    same(np.array([p.fill_value for p in parts]), np.full(len(parts), a.fill_value))
    same(_value(x.compute()), d)


@pytest.mark.parametrize("shape,dtype,fill,fmt,chunks", CASES)
def test_elementwise_where_clip(client, rng, shape, dtype, fill, fmt, chunks):
    d, a, x = _chunked(rng, shape, dtype, fill, fmt, chunks)
    e, b, y = _chunked(rng, shape, dtype, fill, "csr", chunks)
    with np.errstate(all="ignore"):
        for got, one, want in [
                (x + y, a + b, d + e),
                (np.maximum(x, y), np.maximum(a, b), np.maximum(d, e)),
                (x * 3, a * 3, d * dtype(3)),
                (da.where(x > y, x, y), sa.where(a > b, a, b), np.where(d > e, d, e)),
                (da.clip(x, 0, 5), sa.clip(a, 0, 5), np.clip(d, dtype(0), dtype(5)))]:
            r = _value(got.compute())
            same(r, _value(one))
            same(r, want)


def test_user_function_map(client, rng):
    @sa.function
    def hinge(a, b):
        return a - b if a > b else 0.0
    d, a, x = _chunked(rng, (30, 20), np.float64, np.nan, "csr", (7, 20))
    e, b, y = _chunked(rng, (30, 20), np.float64, 0.0, "csr", (7, 20))
    r = sad.map(hinge, x, y).compute()
    same(_value(r), _value(hinge(a, b)))
    with np.errstate(all="ignore"):
        same(_value(r), np.where(d > e, d - e, 0.0))


@pytest.mark.parametrize("shape,dtype,fill,fmt,chunks", CASES)
def test_reductions_bit_for_bit(client, rng, shape, dtype, fill, fmt, chunks):
    d, a, x = _chunked(rng, shape, dtype, fill, fmt, chunks)
    for name in ("sum", "max", "min", "prod"):
        for axis in (0, 1, None, (0, 1)):
            for keepdims in (False, True):
                got = _value(sad.reduce(name, x, axis=axis, keepdims=keepdims).compute())
                one = _value(sa.reduce(name, a, axis=axis, keepdims=keepdims))
                same(got.reshape(one.shape), one)
    # dask.array's own tree over the chunks: exact for integers and min/max.
    same(_value(x.max(axis=0).compute()), d.max(axis=0))
    if dtype == np.int64:
        same(_value(x.sum(axis=0).compute()), d.sum(axis=0))
    else:
        np.testing.assert_allclose(_value(x.sum(axis=1).compute()), d.sum(axis=1), rtol=1e-6)


def test_user_reductions_tree_and_left_fold(client, rng):
    @sa.function
    def minus(a, b):
        return a - b

    @sa.function(associative=True, commutative=True, identity=0, types=[np.int64, np.int64])
    def plus(a, b):
        return a + b

    d, a, x = _chunked(rng, (40, 12), np.float64, 0.5, "csr", (9, 5))
    for axis in (0, 1):
        same(_value(sad.reduce(minus, x, axis=axis).compute()),
             _value(sa.reduce(minus, a, axis=axis)))
    # Columns chunked too: joined before the fold over both axes.
    same(_value(sad.reduce(minus, x, axis=None).compute()).reshape(()),
         _value(sa.reduce(minus, a, axis=None)).reshape(()))
    want = d[:, 0]
    for k in range(1, d.shape[1]):
        want = want - d[:, k]
    same(_value(sad.reduce(minus, x, axis=1).compute()), want)
    e, b, y = _chunked(rng, (40, 12), np.int64, 3, "csr", (9, 5))
    same(_value(sad.reduce(plus, y, axis=0).compute()), e.sum(axis=0))
    same(_value(sad.reduce(plus, y, axis=None).compute()).reshape(()), e.sum())


def test_products(client, rng):
    d, a, x = _chunked(rng, (60, 40), np.float64, 0.0, "csr", (16, 40), density=0.2)
    v = rng.standard_normal(40)
    same(_value(sad.matmul(x, v).compute()), _value(a @ v))
    same(_value((x @ v).compute()), _value(a @ v))
    same(_value(da.dot(x, v).compute()), _value(a @ v))
    e, b, y = _chunked(rng, (40, 30), np.float64, 0.0, "csr", (10, 30), density=0.2)
    same(_value(sad.matmul(x, y).compute()), _value(a @ b))
    # Shortest paths' step: (min, +) over a graph whose missing edges are +inf.
    g = sa.asarray(d, format="csr").with_fill(np.inf)
    xg = sad.from_array(g, chunks=(16, 40))
    dist = np.abs(v)
    want = _value(sa.matmul(g, dist, semiring=("minimum", "add")))
    same(_value(sad.matmul(xg, dist, semiring=("minimum", "add")).compute()), want)
    dense = np.where(d != 0, d, np.inf)
    same(want, np.min(dense + dist[None, :], axis=1))


def test_shape_across_chunk_boundaries(client, rng):
    d, a, x = _chunked(rng, (23, 17), np.float64, np.nan, "csr", (6, 5))
    e, b, y = _chunked(rng, (23, 17), np.float64, np.nan, "csr", (4, 17))
    same(_value(x[3:20:2, 4:15].compute()), d[3:20:2, 4:15])
    same(_value(da.concatenate([x, y], axis=0).compute()), np.concatenate([d, e], axis=0))
    same(_value(da.concatenate([x, y], axis=1).compute()), np.concatenate([d, e], axis=1))
    same(_value(da.stack([x, y]).compute()), np.stack([d, e]))
    same(_value(x.T.compute()), d.T)


def test_read_mtx_in_row_blocks(client, rng, tmp_path):
    m = sp.random(500, 300, density=0.02, format="coo", random_state=5)
    path = str(tmp_path / "m.mtx")
    scipy.io.mmwrite(path, m)
    for blocksize, row_chunk in [(512, 64), (1 << 20, 500), (4096, 1000)]:
        x = sad.read_mtx(path, row_chunk=row_chunk, blocksize=blocksize, fill_value=np.inf)
        assert x.chunks[0][0] == min(row_chunk, 500)
        same(_value(x.compute()), _value(sa.read(path, fill_value=np.inf)))
    p = os.path.join(SHARED, "bcsstk13.mtx")
    if os.path.exists(p):  # symmetric: the halves mirrored as sa.read does
        same(_value(sad.read_mtx(p, 700, blocksize=1 << 16).compute()), _value(sa.read(p)))


@pytest.mark.parametrize("body,reason", [
    ("3 3 2\n1 1 1.0\n2 x 2.0\n", r":5: '2 x 2.0' is not a real entry"),
    ("3 3 2\n1 1 1.0\n2 2\n", r":5: 2 values where a real entry has 3"),
    ("3 3 2\n1 1 1.0\n4 1 2.0\n", r":5: entry \(4, 1\) is outside the 3 x 3 matrix"),
    ("3 3 3\n1 1 1.0\n2 1 2.0\n", r":3: the size line announces 3 entries, the file lists 2"),
    ("3 3 2\n1 1 1.0\n1 1 2.0\n", r"entry \(1, 1\) is given twice"),
])
def test_read_mtx_errors_name_file_and_line(client, tmp_path, body, reason):
    path = str(tmp_path / "bad.mtx")
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real general\n% a comment\n" + body)
    with pytest.raises(sa.SparseArrayError, match=reason):
        sad.read_mtx(path, row_chunk=1, blocksize=8).compute()


@pytest.mark.parametrize("name", ["mangled1.mtx", "mangled3.mtx", "mangled5.mtx",
                                  "mangled_format.mtx"])
def test_read_mtx_refuses_mangled_headers(name):
    p = os.path.join(SHARED, name)
    if not os.path.exists(p):
        pytest.skip("needs ../shared/data/matrices")
    with pytest.raises(sa.SparseArrayError, match=r"%s:1: " % name):
        sad.read_mtx(p, row_chunk=10)


def _slow_negate(chunk):
    time.sleep(0.3)
    return -chunk


def test_worker_killed_mid_computation(client, rng):
    d, a, x = _chunked(rng, (400, 50), np.float64, np.nan, "csr", (20, 50))
    y = x.map_blocks(_slow_negate, meta=x._meta)
    total = sad.reduce("max", y, axis=0)
    future = client.compute(total)
    while not any(client.processing().values()):
        time.sleep(0.05)
    time.sleep(0.5)
    victim = next(iter(client.scheduler_info()["workers"]))
    pid = client.run(os.getpid, workers=[victim])[victim]
    os.kill(pid, signal.SIGKILL)  # its nanny starts a new worker
    same(_value(future.result(timeout=120)), np.max(-d, axis=0))
    client.wait_for_workers(2, timeout=60)


def _kernels():
    from sparse_array import _compile
    import hashlib
    return sorted((hashlib.sha1(repr(key).encode()).hexdigest(), m.from_cache)
                  for key, m in _compile._CACHE.items())


def test_kernels_compile_once_per_worker_and_load_from_disk(client, rng):
    d, a, x = _chunked(rng, (64, 30), np.float64, 0.0, "csr", (8, 30))
    (x * 2 + x).sum(axis=1).compute()
    before = client.run(_kernels)
    e, b, y = _chunked(rng, (64, 30), np.float64, 0.0, "csr", (8, 30))
    (y * 2 + y).sum(axis=1).compute()
    assert client.run(_kernels) == before  # same signatures: nothing compiled
    client.restart()  # new worker processes, the same on-disk cache
    client.wait_for_workers(2, timeout=60)
    same(_value((x * 2 + x).sum(axis=1).compute()), _value((a * 2 + a).sum(axis=1)))
    after = client.run(_kernels)
    # Every kernel an earlier worker compiled is loaded, not compiled again
    # (a task may land where a kernel of another shape class is new).
    seen = {text for kernels in before.values() for text, _ in kernels}
    loaded = [k for kernels in after.values() for k in kernels if k[0] in seen]
    assert loaded and all(from_cache for _, from_cache in loaded)
    # Only dask.array's own functions ran in the new workers, yet unpickling
    # a chunk registered sa with dask's dispatch there (sparse_array/__init__).
    assert all(client.run(_registered).values())


def _registered():
    import sys
    from dask.array.dispatch import concatenate_lookup
    return "sparse_array.dask" in sys.modules and \
        concatenate_lookup.dispatch(sa.Array).__module__ == "sparse_array.dask"

