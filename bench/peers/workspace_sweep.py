#!/usr/bin/python3
"""Dense or hash workspace for row-wise products (issue 20): A @ B (CSR, random
columns, --per-row entries per row) for a range of sizes, with
sa-run --workspace=dense and =hash on the same program and inputs, best of
--repeat. Prints the ratio hash/dense and what the automatic rule picks, so
the rule in RowWiseProduct.cpp can be checked against measurements.

  bench/peers/workspace_sweep.py [--build build] [--repeat 5]
"""

import argparse
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_peers as bp  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(bp.ROOT, "build"))
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--max-entries", type=int, default=2 << 20)
    p.add_argument("--sizes", default="4096,16384,65536,262144,1048576")
    p.add_argument("--per-row", default="2,4,8,32")
    args = p.parse_args()
    sa_run = os.path.join(args.build, "bin", "sa-run")
    work = tempfile.mkdtemp(prefix="sparse-array-ws-sweep-")
    print("%9s %7s %9s %10s %10s %10s %6s" % ("n", "per-row", "products", "dense [ms]",
                                             "hash [ms]", "auto [ms]", "hash/dense"))
    for n in map(int, args.sizes.split(",")):
        for per_row in map(int, args.per_row.split(",")):
            if n * per_row > args.max_entries:
                continue
            a, b = bp.generated(n, per_row, 5), bp.generated(n, per_row, 6)
            pa, pb = os.path.join(work, "a.mtx"), os.path.join(work, "b.mtx")
            bp.write_mtx(pa, a)
            bp.write_mtx(pb, b)
            prog = os.path.join(work, "p.mlir")
            with open(prog, "w") as f:
                f.write(bp.sa_program(n, args.repeat, ["matmul"]))
            t = {}
            for ws in ("dense", "hash", "auto"):
                out = bp.run([sa_run, "--workspace=" + ws, prog, "--", pa, pb])
                t[ws] = float(out.split()[0])
            print("%9d %7d %9d %10.3f %10.3f %10.3f %6.2f" % (
                n, per_row, per_row * per_row, 1e3 * t["dense"], 1e3 * t["hash"],
                1e3 * t["auto"], t["hash"] / t["dense"]))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
