#!/usr/bin/python3
"""Compile time per kernel through sa-run (issue 56).

Each kernel of bench/peers (add, spmv, matmul, ...) alone in a module with
an empty main: sa-run parses, plans, lowers, and JIT-compiles it at -O3
(every public function is compiled, called or not). The time per kernel is
sa-run's wall time on that module less its time on the module without the
kernel (start-up, the standard functions, an empty main), best of
--repeat. With OpenMP (the default) the parallel versions are compiled
too; --disable-openmp shows the sequential code alone.

  bench/compile/bench_compile.py [--build build] [--kernels add,spmv,matmul]
      [--repeat 5] [--json FILE]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "peers"))
from bench_peers import KERNELS, sa_program  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))

TARGET_MS = 50.0


def kernel_functions():
    """{kernel: the text of its func.func}, and the module's shared prefix."""
    text = sa_program(64, 1, [])
    prefix = text[:text.index("func.func @bool(")]
    funcs = {}
    for m in re.finditer(r"^func\.func @(\w+)\(.*?^\}$", text, re.M | re.S):
        funcs[m.group(1).replace("_", "-")] = m.group(0)
    return prefix, funcs


def compile_ms(sa_run, flags, path, repeat):
    """Least pipeline + JIT time of `repeat` runs (ms)."""
    best = float("inf")
    for _ in range(repeat):
        proc = subprocess.run([sa_run, "--compile-times"] + flags + [path],
                              capture_output=True, text=True)
        m = re.search(r"pipeline ([0-9.]+), jit ([0-9.]+)", proc.stderr)
        if proc.returncode != 0 or not m:
            sys.exit("sa-run %s failed:\n%s" % (path, proc.stderr[-3000:]))
        best = min(best, float(m.group(1)) + float(m.group(2)))
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--kernels", default="add,mul,spmv,spmv-exact,rowsum,matmul,matmul-sorted")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--json", default="", help="write {kernel: ms} here")
    args = p.parse_args()
    sa_run = os.path.join(args.build, "bin", "sa-run")
    prefix, funcs = kernel_functions()
    kernels = args.kernels.split(",")
    for k in kernels:
        if k not in funcs:
            sys.exit("unknown kernel %s (of %s)" % (k, ", ".join(KERNELS)))
    main_fn = "func.func @main() {\n  return\n}\n"
    work = tempfile.mkdtemp(prefix="sa-bench-compile-")
    results = {}
    print("%-14s %12s %12s %8s" % ("kernel", "openmp [ms]", "seq [ms]", "target"))
    for flags, tag in (([], "openmp"), (["--disable-openmp"], "seq")):
        empty = os.path.join(work, "empty.mlir")
        with open(empty, "w") as f:
            f.write(prefix + main_fn)
        base = compile_ms(sa_run, flags, empty, args.repeat)
        for k in kernels:
            path = os.path.join(work, k + ".mlir")
            with open(path, "w") as f:
                f.write(prefix + funcs[k] + "\n" + main_fn)
            results.setdefault(k, {})[tag] = max(
                0.0, compile_ms(sa_run, flags, path, args.repeat) - base)
        results.setdefault("(empty module)", {})[tag] = base
    for k in kernels + ["(empty module)"]:
        r = results[k]
        print("%-14s %12.1f %12.1f %8s" % (k, r["openmp"], r["seq"],
                                           "" if k.startswith("(") else
                                           "met" if r["openmp"] <= TARGET_MS else "missed"))
    print("target: <= %.0f ms per kernel with OpenMP (issue 56)" % TARGET_MS)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
