"""Shortest paths and PageRank on a Dask cluster (sparse_array.dask, issue
59): a power-law graph generated on the workers in row blocks (in-edges by
row: row i lists the edges into vertex i), then
  * single-source shortest paths: Bellman-Ford steps
    dist = min(dist, A (min, +) dist) over weights whose missing edges are
    +inf (the chunks' fill), one (min, +) kernel per row block;
  * PageRank: r = (1 - d) / n + d (P (r / outdeg) + dangling mass / n)
    over the 0/1 pattern P, out-degrees from an integer column sum (a tree
    of chunk sums).
With --check the same computations run in one process on the gathered
matrix and must agree bit for bit. Run by scripts/demo.sh at a small size;
the closing note of issue 59 has a run at 50M edges.

  python3 python/examples/dask_graphs.py [--vertices 4194304] [--degree 12]
      [--row-chunk 262144] [--workers 2] [--check] [--address tcp://host:8786]
"""
import argparse
import os
import time

import numpy as np

import dask
import dask.array as da
from dask.distributed import Client, LocalCluster

import sparse_array as sa
import sparse_array.dask as sad


def in_edges(k, rows, n, degree, seed, fill):
    """Row block k: `rows` vertices' in-edges, a Pareto number per vertex
    (mean about `degree`) from sources drawn with power-law popularity,
    weights in [0.1, 1.1); an sa CSR chunk of fill `fill`."""
    import scipy.sparse as sp
    rng = np.random.default_rng([seed, k])
    counts = np.minimum((rng.pareto(2.0, rows) + 1) * (degree / 2), 64 * degree).astype(np.int64)
    src = (n * rng.random(int(counts.sum())) ** 2.5).astype(np.int64)
    rr = np.repeat(np.arange(rows), counts)
    m = sp.csr_matrix((rng.random(len(src)) + 0.1, (rr, src)), shape=(rows, n))
    m.sum_duplicates()  # a repeated edge keeps the sum of its weights
    return sa.asarray(m).with_fill(fill)


def graph(n, degree, row_chunk, fill, seed=59):
    sizes = [min(row_chunk, n - s) for s in range(0, n, row_chunk)]
    meta = sad.from_array(in_edges(0, 0, n, degree, seed, fill), chunks=(1, n))._meta
    blocks = [da.from_delayed(dask.delayed(in_edges)(k, r, n, degree, seed, fill), (r, n),
                              dtype=np.float64, meta=meta) for k, r in enumerate(sizes)]
    return da.concatenate(blocks)


def sssp(step, n, source=0):
    """Bellman-Ford: `step(dist)` is the (min, +) product with the in-edges."""
    dist = np.full(n, np.inf)
    dist[source] = 0.0
    rounds = 0
    while True:
        rounds += 1
        new = np.minimum(dist, step(dist))
        if np.array_equal(new, dist):
            return dist, rounds
        dist = new


def pagerank(step, outdeg, n, d=0.85, iterations=20):
    r = np.full(n, 1.0 / n)
    dangling = outdeg == 0
    scale = np.where(dangling, 0.0, 1.0 / np.maximum(outdeg, 1))
    for _ in range(iterations):
        r = (1 - d) / n + d * (step(r * scale) + r[dangling].sum() / n)
    return r


def dense(x):
    return x.todense() if isinstance(x, sa.Array) else np.asarray(x)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vertices", type=int, default=1 << 22)
    parser.add_argument("--degree", type=int, default=12)
    parser.add_argument("--row-chunk", type=int, default=1 << 18)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--address", help="a running scheduler (else a LocalCluster)")
    parser.add_argument("--check", action="store_true",
                        help="compare with one process (gathers the matrix)")
    args = parser.parse_args()
    n = args.vertices
    if args.address:
        client = Client(args.address)
    else:
        os.environ.setdefault("OMP_NUM_THREADS", "1")  # a worker is a core
        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                     dashboard_address=None, silence_logs=40))
    with client:
        t0 = time.perf_counter()
        W = graph(n, args.degree, args.row_chunk, np.inf).persist()  # weights, fill +inf
        P = graph(n, args.degree, args.row_chunk, 0.0).persist()     # the same edges, fill 0
        edges = int(da.map_blocks(lambda b: np.array([b.nnz]), W, drop_axis=1, dtype=np.int64,
                                  meta=np.zeros(0, np.int64)).sum().compute())
        t1 = time.perf_counter()
        print("graph: %d vertices, %d edges in %d row blocks on %d workers, generated in %.1f s"
              % (n, edges, W.numblocks[0], len(client.scheduler_info()["workers"]), t1 - t0))

        def sssp_step(dist):
            return dense(sad.matmul(W, dist, semiring=("minimum", "add")).compute())
        dist, rounds = sssp(sssp_step, n)
        t2 = time.perf_counter()
        print("shortest paths from 0: %d rounds, %d vertices reached, %.1f s"
              % (rounds, np.isfinite(dist).sum(), t2 - t1))

        pattern = P != 0  # bool chunks, fill False
        outdeg = dense(sad.reduce("sum", pattern.astype(np.int64), axis=0).compute())
        ones = pattern.astype(np.float64).persist()  # computed once, not per iteration

        def pr_step(v):
            return dense(sad.matmul(ones, v).compute())
        rank = pagerank(pr_step, outdeg, n)
        t3 = time.perf_counter()
        top = np.argsort(-rank)[:3]
        print("pagerank: 20 iterations, %.1f s; top vertices %s (rank sum %.6f)"
              % (t3 - t2, ", ".join("%d:%.2e" % (v, rank[v]) for v in top), rank.sum()))
        if args.check:
            w1, p1 = W.compute(), ones.compute()
            d1, r1 = sssp(lambda x: dense(sa.matmul(w1, x, semiring=("minimum", "add"))), n)
            deg1 = dense(sa.reduce("sum", (p1 != 0).astype(np.int64), axis=0))
            rank1 = pagerank(lambda v: dense(sa.matmul(p1, v)), deg1, n)
            assert r1 == rounds and np.array_equal(d1, dist), "shortest paths differ"
            assert np.array_equal(deg1, outdeg) and np.array_equal(rank1, rank), \
                "pagerank differs"
            print("one process: the same distances and ranks, bit for bit")


if __name__ == "__main__":
    main()
