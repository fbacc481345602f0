#!/usr/bin/python3
"""SpMV, element-wise add and row sums on a row-chunked matrix on a
dask.distributed LocalCluster (issue 59): dask + sparse_array chunks
against dask + scipy.sparse (CSR) chunks and dask + pydata/sparse (COO)
chunks, with 1 and 2 worker processes of one thread each
(OMP_NUM_THREADS=1 in the workers: a worker is a core).

The matrix (--rows rows, --per-row entries per row at random columns,
default 2^22 x 12 = 50.3M stored entries) is generated on the workers,
one row block per task from a per-block seed, and persisted in each chunk
type before timing (the same entries in all three). x is scattered to
every worker once. Each operation is the same graph for all three chunk
types (one task per row block calling the chunk's own `@`, `+`, `.sum`):
  spmv     y = A @ x, y gathered at the client (the sum is cross-checked)
  add      C = A + A persisted on the workers (not gathered)
  rowsum   A.sum(axis=1) gathered at the client
Times: best of --repeat, wall clock at the client from submit to result.
Every worker's glibc keeps freed memory for reuse (see run()).
Targets (issue 59): sparse_array >= 1.5x dask + scipy.sparse and >= 1.6x
from 1 to 2 workers for SpMV.

  bench/dask/bench_dask.py [--rows 4194304] [--per-row 12] [--chunks 16]
      [--workers 1,2] [--repeat 5] [--no-pydata] [--build build]
"""
import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def block(k, rows, ncols, per_row, seed):
    """Row block k as scipy CSR (int32 indices): the same for every chunk
    type."""
    import scipy.sparse as sp
    rng = np.random.default_rng([seed, k])
    cols = rng.integers(0, ncols, rows * per_row).astype(np.int32).reshape(rows, per_row)
    cols.sort(axis=1)
    indptr = np.arange(0, rows * per_row + 1, per_row, dtype=np.int32)
    m = sp.csr_matrix((rng.uniform(0.5, 1.5, rows * per_row), cols.ravel(), indptr),
                      shape=(rows, ncols))
    m.sum_duplicates()
    return m


def as_chunk(m, kind):
    if kind == "sa":
        import sparse_array as sa
        return sa.asarray(m)  # zero-copy CSR
    if kind == "pydata":
        import sparse
        return sparse.COO.from_scipy_sparse(m)
    return m


def spmv(b, x):
    y = b @ x
    return np.asarray(y.todense() if hasattr(y, "todense") else y).ravel()


def add(b):
    return b + b


def rowsum(b):
    s = b.sum(axis=1)
    return np.asarray(s.todense() if hasattr(s, "todense") else s).ravel()


def run(kind, workers, args):
    import dask
    import dask.array as da
    from dask.distributed import Client, LocalCluster, wait
    if kind == "sa":
        import sparse_array.dask  # noqa: F401  (registers the chunk type)
    # Dask starts workers with MALLOC_TRIM_THRESHOLD_=64 KiB: on this
    # machine every large temporary then faults its pages in again (10x
    # on row sums, any chunk type). sparse_array.dask undoes it in its
    # workers (mallopt); the same settings go to every kind's workers here
    # so that the comparison is of the chunks' code.
    dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_MMAP_THRESHOLD_": 32 << 20,
                     "distributed.nanny.pre-spawn-environ.MALLOC_TOP_PAD_": 64 << 20})
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=40, memory_limit=0)
    client = Client(cluster)
    try:
        n, per = args.rows, args.per_row
        step = -(-n // args.chunks)
        sizes = [min(step, n - s) for s in range(0, n, step)]
        parts = [dask.delayed(as_chunk)(dask.delayed(block)(k, r, n, per, 59), kind)
                 for k, r in enumerate(sizes)]
        meta = as_chunk(block(0, 0, n, per, 59), kind)
        A = da.concatenate([da.from_delayed(p, (r, n), dtype=np.float64, meta=meta)
                            for p, r in zip(parts, sizes)]).persist()
        wait(A)
        nnz = sum(client.compute([dask.delayed(lambda b: b.nnz)(p) for p in A.to_delayed().ravel()],
                                 sync=True))
        x = np.random.default_rng(1).uniform(-1, 1, n)
        xf = client.scatter(x, broadcast=True)
        fresh = iter(range(1 << 30))  # a new graph name per call: nothing reused

        def mapped(f, *extra, **kw):
            return A.map_blocks(f, *extra, dtype=np.float64, name="%s-%d" % (f.__name__, next(fresh)),
                                **kw)
        ops = {
            "spmv": lambda: client.compute(mapped(spmv, xf, drop_axis=1, meta=np.zeros(0)),
                                           sync=True),
            "add": lambda: wait(mapped(add, meta=meta).persist()),
            "rowsum": lambda: client.compute(mapped(rowsum, drop_axis=1, meta=np.zeros(0)),
                                             sync=True),
        }
        times, checks = {}, {}
        for name, op in ops.items():
            out = op()  # warm-up: compiles (sparse_array), JIT (pydata)
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                out = op()
                best = min(best, time.perf_counter() - t0)
            times[name] = best
            checks[name] = float(np.sum(out)) if isinstance(out, np.ndarray) else None
        return nnz, times, checks
    finally:
        client.close()
        cluster.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1 << 22)
    parser.add_argument("--per-row", type=int, default=12)
    parser.add_argument("--chunks", type=int, default=16)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-pydata", action="store_true")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                                        "build"))
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    os.environ["PYTHONPATH"] = os.path.join(args.build, "python") + (
        os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else "")
    kinds = ["sa", "scipy"] + ([] if args.no_pydata else ["pydata"])
    workers = [int(w) for w in args.workers.split(",")]
    results = {}
    for w in workers:
        for kind in kinds:
            results[(kind, w)] = run(kind, w, args)
    nnz = results[("sa", workers[0])][0]
    print("dask.distributed LocalCluster, %d rows, %d stored entries, %d row blocks; "
          "one thread per worker; best of %d (ms)" % (args.rows, nnz, args.chunks, args.repeat))
    for (kind, w), (n2, _, checks) in results.items():
        assert n2 == nnz, (kind, w, n2, nnz)
        for name, c in checks.items():
            ref = results[("scipy", w)][2][name]
            if c is not None and not np.isclose(c, ref, rtol=1e-9):
                sys.exit("%s %s with %d workers: sum %r, scipy's %r" % (kind, name, w, c, ref))
    head = "%-7s %7s" % ("op", "workers") + "".join(" %10s" % k for k in kinds) + \
        "   scipy/sa" + ("  pydata/sa" if "pydata" in kinds else "")
    print(head)
    for name in ("spmv", "add", "rowsum"):
        for w in workers:
            t = {k: results[(k, w)][1][name] for k in kinds}
            line = "%-7s %7d" % (name, w) + "".join(" %8.1fms" % (t[k] * 1e3) for k in kinds)
            line += "   %8.2fx" % (t["scipy"] / t["sa"])
            if "pydata" in kinds:
                line += "  %8.2fx" % (t["pydata"] / t["sa"])
            print(line)
    if len(workers) > 1:
        lo, hi = workers[0], workers[-1]
        print("scaling %d -> %d workers:" % (lo, hi), ", ".join(
            "%s %s %.2fx" % (k, name, results[(k, lo)][1][name] / results[(k, hi)][1][name])
            for name in ("spmv", "add", "rowsum") for k in kinds))


if __name__ == "__main__":
    main()
