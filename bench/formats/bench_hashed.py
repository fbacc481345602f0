#!/usr/bin/python3
"""seed 002's hashed level (issue 58) where the seed says it pays, through
the Python package, one thread (OMP_NUM_THREADS=1 unless set):

  build     a hash map vector of n random coordinates (extent 2^26) built
            from them in the order they come (the runtime inserts, no sort)
            against the same entries as a sorted compressed vector (the
            package sorts them with numpy) and numpy's own argsort of the
            coordinates (the sort alone);
  spmv      seed 002 Fig. 16: y = A x for a CSR A (2^20 rows, 8 random
            entries per row, int64: products with the fill 0 vanish, so
            only the stored entries of A are visited) and x of density d
            as a dense array, a compressed vector (at the lowest density
            only: merged with every row, its cost grows with x's entries)
            and a hash map vector (located at each of A's columns),
            against scipy's A @ x with a dense x;
  driver    a hashed matrix ([dense, hashed], n x n, 8 random entries per
            row, f64) read where nothing else drives the loop: y = H x
            with a dense x and row sums. The kernel iterates an ordered
            copy (the runtime sorts each row's table, per call): against
            the same matrix in CSR and scipy. (Before 2026-12, H was
            located at every column: O(n^2), 2.2 s at n = 32k.)

Times are the best of --repeat, in ms; ratios are reference / ours (> 1:
ours faster).

  bench/formats/bench_hashed.py [--repeat 5] [--plot FILE.png]
"""
import argparse
import os
import sys
import time

import numpy as np
import scipy.sparse as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "build", "python"))
import sparse_array as sa  # noqa: E402
from sparse_array import _array  # noqa: E402
from sparse_array._format import make_format  # noqa: E402


def best(f, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times) * 1e3


def build_rows(rng, repeat):
    extent = 1 << 26
    rows = []
    for n in (1 << 16, 1 << 20, 1 << 22):
        idx = np.unique(rng.integers(0, extent, size=n))
        rng.shuffle(idx)
        values = rng.random(len(idx))

        def make(fmt):
            return _array._from_coords((extent,), np.dtype(np.float64),
                                       make_format(fmt, 1), 0.0, idx[:, None], values)
        h = make("hash")
        got = h.todense()
        want = np.zeros(extent)
        want[idx] = values
        assert np.array_equal(got, want)
        t_hash = best(lambda: make("hash"), repeat)
        t_comp = best(lambda: make("compressed"), repeat)
        t_sort = best(lambda: np.argsort(idx, kind="stable"), repeat)
        rows.append((len(idx), t_hash, t_comp, t_sort))
    return rows


def spmv_rows(rng, repeat):
    n = 1 << 20
    nnz = 8 * n
    a = sp.csr_matrix((rng.integers(1, 10, size=nnz),
                       (rng.integers(0, n, size=nnz), rng.integers(0, n, size=nnz))),
                      shape=(n, n), dtype=np.int64)
    a.sum_duplicates()
    A = sa.asarray(a, format="csr")
    rows = []
    for density in (0.001, 0.01, 0.1, 0.5):
        x = np.zeros(n, dtype=np.int64)
        idx = rng.choice(n, int(density * n), replace=False)
        x[idx] = rng.integers(1, 10, size=len(idx))
        want = a @ x
        times = {}
        # A compressed x is merged with every row of A (seed 002 Fig. 16:
        # its cost grows with x's entries per row); run where that is short.
        for fmt in ("dense", "compressed", "hash") if density <= 0.001 else ("dense", "hash"):
            xs = sa.asarray(x, format=fmt)
            assert np.array_equal((A @ xs).todense(), want), fmt
            times[fmt] = best(lambda: A @ xs, repeat)
        times["scipy"] = best(lambda: a @ x, repeat)
        rows.append((density, times))
    return rows


def driver_rows(rng, repeat):
    rows = []
    for n in (1 << 15, 1 << 17):
        r = np.repeat(np.arange(n), 8)
        a = sp.csr_matrix((rng.random(8 * n), (r, rng.integers(0, n, 8 * n))), shape=(n, n))
        a.sum_duplicates()
        x = rng.random(n)
        H, C, X = sa.asarray(a, format="hash"), sa.asarray(a, format="csr"), sa.asarray(x)
        want = (C @ X).todense()
        assert np.array_equal((H @ X).todense(), want)
        assert np.array_equal(H.sum(axis=1).todense(), C.sum(axis=1).todense())
        t = {"hash": best(lambda: H @ X, repeat), "csr": best(lambda: C @ X, repeat),
             "scipy": best(lambda: a @ x, repeat),
             "hash sum": best(lambda: H.sum(axis=1), repeat),
             "csr sum": best(lambda: C.sum(axis=1), repeat),
             "scipy sum": best(lambda: a.sum(axis=1), repeat)}
        rows.append((n, a.nnz, t))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--plot")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    rng = np.random.default_rng(2026)
    print("build: hash map vector by insertion vs sorted compressed (ms)")
    print("%10s %9s %11s %13s %11s %11s" % ("entries", "hash", "compressed",
                                            "numpy sort", "comp/hash", "sort/hash"))
    for n, th, tc, ts in build_rows(rng, args.repeat):
        print("%10d %9.1f %11.1f %13.1f %11.2f %11.2f" % (n, th, tc, ts, tc / th, ts / th))
    print()
    print("spmv: y = A x, A CSR int64 (2^20 rows, 8/row), x by density (ms)")
    print("%8s %8s %11s %8s %8s %12s %12s" % ("density", "dense", "compressed", "hash",
                                              "scipy", "scipy/hash", "comp/hash"))
    spmv = spmv_rows(rng, args.repeat)
    for d, t in spmv:
        comp = t.get("compressed")
        print("%8g %8.2f %11s %8.2f %8.2f %12.2f %12s" % (
            d, t["dense"], "%.2f" % comp if comp else "-", t["hash"], t["scipy"],
            t["scipy"] / t["hash"], "%.2f" % (comp / t["hash"]) if comp else "-"))
    print()
    print("driver: a hashed matrix alone drives the loop (ms): SpMV, row sums")
    print("%8s %9s | %8s %8s %8s %9s | %8s %8s %8s %9s" % (
        "rows", "entries", "hash", "csr", "scipy", "csr/hash", "hash", "csr", "scipy", "csr/hash"))
    for n, nnz, t in driver_rows(rng, args.repeat):
        print("%8d %9d | %8.2f %8.2f %8.2f %9.2f | %8.2f %8.2f %8.2f %9.2f" % (
            n, nnz, t["hash"], t["csr"], t["scipy"], t["csr"] / t["hash"],
            t["hash sum"], t["csr sum"], t["scipy sum"], t["csr sum"] / t["hash sum"]))
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        ds = [d for d, _ in spmv]
        for key in ("dense", "hash", "scipy"):
            ax.plot(ds, [t[key] for _, t in spmv], marker="o", label=key)
        ax.set_xscale("log")
        ax.set_xlabel("density of x")
        ax.set_ylabel("SpMV time (ms)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot)


if __name__ == "__main__":
    main()
