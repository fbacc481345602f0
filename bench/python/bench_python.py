#!/usr/bin/python3
"""The Python package's costs (issue 18): per-call overhead of a cached
kernel on small arrays vs scipy's same operation, first-call compile
latency, large arrays (time in Python vs the compiled call alone vs scipy
and pydata) and element-wise ufuncs vs pydata. Ratios from one run.

    PYTHONPATH=build/python /usr/bin/python3 bench/python/bench_python.py [--large N]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse as sp

import sparse_array as sa
from sparse_array import _capi, _compile


def best(fn, repeat=7, number=1):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t) / number)
    return min(times)


class CallTimer:
    """Times the compiled call alone (sa_call) inside the Python call."""

    def __init__(self):
        self.seconds = 0.0
        self.inner = _capi.call

    def __call__(self, fn, args):
        t = time.perf_counter()
        self.inner(fn, args)
        self.seconds = time.perf_counter() - t


def best_with_inner(fn, timer, repeat=5):
    """(total, compiled call) of the fastest of `repeat` runs."""
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t, timer.seconds))
    return min(runs)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--large", type=int, default=1 << 22, help="rows of the large CSR (10 per row)")
    args = p.parse_args()
    rng = np.random.default_rng(1)

    print("small arrays (10x10, 100 entries): cached call vs scipy (target overhead <= 20 us)")
    A = sp.random(10, 10, density=1.0, format="csr", random_state=0)
    a = sa.asarray(A)
    x = np.arange(10.0)
    for name, ours, theirs in (("add", lambda: a + a, lambda: A + A),
                               ("sum(axis=0)", lambda: a.sum(axis=0), lambda: A.sum(axis=0)),
                               ("spmv", lambda: a @ x, lambda: A @ x)):
        ours()
        t_sa, t_sp = best(ours, number=2000), best(theirs, number=2000)
        print("  %-12s sa %7.1f us  scipy %7.1f us" % (name, t_sa * 1e6, t_sp * 1e6))

    # Compilations here, not loads from the on-disk cache.
    os.environ["SPARSE_ARRAY_CACHE_DIR"] = ""
    print("first call (compile) latency per kernel (target <= 150 ms)")
    for name, fn in (("add csr", lambda: a + a), ("sum axis 0", lambda: a.sum(axis=0)),
                     ("spmv", lambda: a @ x), ("min-plus", lambda: sa.matmul(a, x, semiring=("minimum", "add")))):
        _compile._CACHE.clear()
        _compile._KERNELS.clear()
        t = time.perf_counter()
        fn()
        print("  %-12s %7.1f ms" % (name, (time.perf_counter() - t) * 1e3))

    warm_start()

    n = args.large
    print("large arrays (%d x %d CSR, %d per row): Python call vs the compiled call alone vs scipy" % (n, n, 10))
    def gen(seed):
        r = np.random.default_rng(seed)
        cols = np.sort(r.integers(0, n, size=(n, 10)), axis=1).ravel()
        ptr = np.arange(0, 10 * n + 1, 10, dtype=np.int64)
        m = sp.csr_matrix((r.random(10 * n), cols, ptr), shape=(n, n))
        m.sum_duplicates()
        return m
    B, C = gen(2), gen(3)
    b, c = sa.asarray(B), sa.asarray(C)
    timer = CallTimer()
    _capi.call = timer
    try:
        for name, ours, theirs in (("add", lambda: b + c, lambda: B + C),
                                   ("multiply", lambda: b * c, lambda: B.multiply(C)),
                                   ("sum(axis=1)", lambda: b.sum(axis=1), lambda: B.sum(axis=1))):
            ours()
            t_sa, inner = best_with_inner(ours, timer)
            t_sp = best(theirs, repeat=5)
            print("  %-12s python %8.2f ms  call alone %8.2f ms (+%4.1f %%)  scipy %8.2f ms  scipy/sa %.2f"
                  % (name, t_sa * 1e3, inner * 1e3, (t_sa / inner - 1) * 100, t_sp * 1e3, t_sp / t_sa))
    finally:
        _capi.call = timer.inner

    print("lazy vs eager: ((b + c) * (b - c)).sum(axis=1) on the large CSRs "
          "(eager: three temporaries; lazy: one fused kernel)")
    eager = lambda: ((b + c) * (b - c)).sum(axis=1)
    lb, lc = sa.lazy(b), sa.lazy(c)
    expr = ((lb + lc) * (lb - lc)).sum(axis=1)

    def lazy_once():
        expr._value = None  # recompute (the value is kept otherwise)
        return expr.compute()
    eager()
    lazy_once()
    t_eager, t_lazy = best(eager, repeat=5), best(lazy_once, repeat=5)
    print("  eager %8.2f ms  lazy %8.2f ms  eager/lazy %.2f" % (t_eager * 1e3, t_lazy * 1e3,
                                                              t_eager / t_lazy))

    try:
        import sparse
    except ImportError:
        return
    print("seed 000 sec. 8 ufuncs vs pydata (1000 x 1000, 10% dense; target >= 20x geomean)")
    da = np.where(rng.random((1000, 1000)) < 0.1, rng.integers(1, 9, (1000, 1000)), 0)
    db = np.where(rng.random((1000, 1000)) < 0.1, rng.integers(1, 9, (1000, 1000)), 0)
    ratios = []
    for name, conv in (("add", np.float64), ("power", np.float64), ("right_shift", np.int64),
                       ("bitwise_xor", np.bool_), ("ldexp", np.float64)):
        fa, fb = da.astype(conv), db.astype(conv)
        if name == "right_shift":
            fb = fb % 8
        if name == "ldexp":
            fb = db.astype(np.int64)
        ufunc = getattr(np, name)
        pa, pb = sparse.COO.from_numpy(fa), sparse.COO.from_numpy(fb)
        sa_a, sa_b = sa.asarray(fa, format="csr"), sa.asarray(fb, format="csr")
        ufunc(sa_a, sa_b)
        t_sa = best(lambda: ufunc(sa_a, sa_b))
        t_pd = best(lambda: ufunc(pa, pb), repeat=3)
        ratios.append(t_pd / t_sa)
        print("  %-12s sa %8.3f ms  pydata %8.3f ms  pydata/sa %6.1f" % (name, t_sa * 1e3, t_pd * 1e3, t_pd / t_sa))
    print("  geomean pydata/sa %.1f" % np.exp(np.mean(np.log(ratios))))


WARM = r"""
import time, sys
import numpy as np, scipy.sparse as sp
import sparse_array as sa
A = sp.random(10, 10, density=1.0, format="csr", random_state=0)
a, x = sa.asarray(A), np.arange(10.0)
for fn in (lambda: a + a, lambda: a.sum(axis=0), lambda: a @ x,
           lambda: sa.matmul(a, x, semiring=("minimum", "add"))):
    t = time.perf_counter()
    fn()
    print("%.3f" % ((time.perf_counter() - t) * 1e3))
"""


def warm_start():
    """First calls in a new process whose kernels a previous process
    compiled into the on-disk cache (a dlopen each)."""
    print("warm start: first call per kernel in a second process, on-disk cache (target <= 5 ms)")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, SPARSE_ARRAY_CACHE_DIR=cache)
        runs = [subprocess.run([sys.executable, "-c", WARM], env=env, check=True,
                               capture_output=True, text=True).stdout.split()
                for _ in range(2)]
    for name, cold, warm in zip(("add csr", "sum axis 0", "spmv", "min-plus"), *runs):
        print("  %-12s first process %7.1f ms  second %6.2f ms" % (name, float(cold), float(warm)))


if __name__ == "__main__":
    main()
