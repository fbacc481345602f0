"""Single-source shortest paths from Python: Bellman-Ford over the (min, +)
semiring on a generated graph whose missing edges are +inf (the fill), the
result checked against scipy.sparse.csgraph. Run by scripts/demo.sh."""
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

import sparse_array as sa


def sssp(dt, source):
    """dt: in-edges by row (the transposed weights), fill +inf."""
    dist = np.full(dt.shape[0], np.inf)
    dist[source] = 0.0
    rounds = 0
    while True:
        rounds += 1
        step = sa.matmul(dt, dist, semiring=("minimum", "add")).todense()
        new = np.minimum(dist, step)
        if np.array_equal(new, dist):
            return dist, rounds
        dist = new


def main():
    # The exact (min, +) product: inf + x is not inf when x is -inf or NaN,
    # so the compiler guards each call (no -inf or NaN stored) and then
    # visits the stored edges only (sparse-array-guard-exact-products).
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    rng = np.random.default_rng(7)
    m = 6 * n
    rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
    weights = rng.random(m) + 0.1
    A = sp.coo_matrix((weights, (rows, cols)), shape=(n, n)).tocsr()
    A.sum_duplicates()
    # The edges as stored by scipy, missing ones +inf: in-edges by row.
    dt = sa.asarray(A.T.tocsr()).with_fill(np.inf)
    t = time.perf_counter()
    dist, rounds = sssp(dt, 0)
    took = time.perf_counter() - t
    t = time.perf_counter()
    want = shortest_path(A, method="BF", indices=0)
    took_scipy = time.perf_counter() - t
    assert np.array_equal(dist, want), "distances differ from scipy's"
    reached = np.isfinite(dist).sum()
    print("   %d vertices, %d edges: %d rounds, %d reached; sa %.1f ms (the first call "
          "compiles), scipy's Bellman-Ford %.1f ms; distances equal" % (
              n, A.nnz, rounds, reached, took * 1e3, took_scipy * 1e3))


if __name__ == "__main__":
    main()
