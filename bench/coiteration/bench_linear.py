#!/usr/bin/python3
"""Lattice versus linear coiteration of n sparse vectors (issue 14, class 6).

The sum of n compressed vectors (chained maps of the standard library's
exact add, fused into one kernel) is compiled twice per n: with a lattice
(sa-run --linear-threshold=0: up to 2^n points and 3^n cases) and with the
linear loop (--linear-threshold=2: one loop over the union, a presence bit
per input). Reports, per n, the whole sa-run time (parse, pipeline, JIT,
reading, kernels) and the kernel's best time over the repetitions, and
checks that both give the same entries. Vectors: N coordinates, nnz
random entries each (seeded), written in the text format.

    bench_linear.py --sa-run build/bin/sa-run --stdlib stdlib/std.mlir \\
        [--size 1048576] [--nnz 65536] [--max-lattice 6] [--max-linear 12]
"""

import argparse
import os
import random
import subprocess
import tempfile
import time


def write_vector(path, size, nnz, rng):
    coords = sorted(rng.sample(range(size), nnz))
    with open(path, "w") as f:
        f.write("# fill: 0\n1 %d\n%d\n" % (nnz, size))
        for c in coords:
            f.write("%d %r\n" % (c + 1, rng.choice([0.5, 1.0, 2.0, -1.5, 3.0])))


def program(n, repeat, stdlib):
    vt = "!sparse_array.array<?xf64, #sparse_array.format<[compressed], fill = 0.0 : f64>>"
    lines = ["func.func private @sa_rt_seconds() -> f64",
             "func.func private @sa_rt_print_f64(f64)",
             "func.func private @sa_rt_print_i64(i64)",
             "func.func private @sa_rt_print_newline()",
             "func.func @sum(%s) -> %s attributes {passthrough = [\"noinline\"]} {" % (
                 ", ".join("%%v%d: %s" % (k, vt) for k in range(n)), vt)]
    prev = "%v0"
    for k in range(1, n):
        attr = "" if k + 1 == n else " {infer_fill}"
        lines.append("  %%s%d = sparse_array.map @add_f64(%s, %%v%d)%s : (%s, %s) -> %s" % (
            k, prev, k, attr, vt, vt, vt))
        prev = "%%s%d" % k
    lines += ["  return %s : %s" % (prev, vt), "}", "func.func @main() {",
              "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
              "  %%nrep = arith.constant %d : index" % repeat,
              "  %big = arith.constant 1.0e300 : f64", "  %z = arith.constant 0.0 : f64"]
    for k in range(n):
        lines += ["  %%i%d = arith.constant %d : index" % (k, k),
                  '  %%v%d = sparse_array.read input %%i%d {file_format = "text"} : %s' % (k, k, vt)]
    args = ", ".join("%%v%d" % k for k in range(n))
    lines += [
        "  %best, %nnz, %sum = scf.for %r = %c0 to %nrep step %c1"
        " iter_args(%b = %big, %n0 = %c0, %s0 = %z) -> (f64, index, f64) {",
        "    %t0 = func.call @sa_rt_seconds() : () -> f64",
        "    %%c = func.call @sum(%s) : (%s) -> %s" % (args, ", ".join([vt] * n), vt),
        "    %t1 = func.call @sa_rt_seconds() : () -> f64",
        "    %v = sparse_array.values %c : " + vt + " -> memref<?xf64>",
        "    %n = memref.dim %v, %c0 : memref<?xf64>",
        "    %dt = arith.subf %t1, %t0 : f64",
        "    %b1 = arith.minimumf %b, %dt : f64",
        "    %s = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {",
        "      %x = memref.load %v[%p] : memref<?xf64>",
        "      %a2 = arith.addf %acc, %x : f64",
        "      scf.yield %a2 : f64",
        "    }",
        "    sparse_array.dealloc %c : " + vt,
        "    scf.yield %b1, %n, %s : f64, index, f64",
        "  }",
        "  func.call @sa_rt_print_f64(%best) : (f64) -> ()",
        "  func.call @sa_rt_print_newline() : () -> ()",
        "  %nnz64 = arith.index_cast %nnz : index to i64",
        "  func.call @sa_rt_print_i64(%nnz64) : (i64) -> ()",
        "  func.call @sa_rt_print_newline() : () -> ()",
        "  func.call @sa_rt_print_f64(%sum) : (f64) -> ()",
        "  func.call @sa_rt_print_newline() : () -> ()",
        "  return", "}"]
    return stdlib + "\n" + "\n".join(lines) + "\n"


def run(sa_run, path, files, threshold, timeout):
    start = time.monotonic()
    proc = subprocess.run([sa_run, "--linear-threshold=%d" % threshold, path, "--"] + files,
                          capture_output=True, text=True, timeout=timeout)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    best, nnz, total = proc.stdout.split()
    return wall, float(best), int(nnz), total


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sa-run", required=True)
    p.add_argument("--stdlib", required=True)
    p.add_argument("--size", type=int, default=1 << 20)
    p.add_argument("--nnz", type=int, default=1 << 16)
    p.add_argument("--repeat", type=int, default=9)
    p.add_argument("--max-lattice", type=int, default=6)
    p.add_argument("--max-linear", type=int, default=12)
    p.add_argument("--timeout", type=float, default=600)
    args = p.parse_args()
    stdlib = open(args.stdlib).read()
    rng = random.Random(1)
    tmp = tempfile.mkdtemp(prefix="sa-linear-")
    files = []
    for k in range(args.max_linear):
        f = os.path.join(tmp, "v%d.txt" % k)
        write_vector(f, args.size, args.nnz, rng)
        files.append(f)
    print("| n | lattice: sa-run s | linear: sa-run s | lattice kernel ms | linear kernel ms | linear/lattice |")
    print("|---|---|---|---|---|---|")
    for n in range(2, args.max_linear + 1):
        path = os.path.join(tmp, "sum%d.mlir" % n)
        with open(path, "w") as f:
            f.write(program(n, args.repeat, stdlib))
        lin = run(args.sa_run, path, files[:n], 2, args.timeout)
        if n <= args.max_lattice:
            lat = run(args.sa_run, path, files[:n], 0, args.timeout)
            if lat[2:] != lin[2:]:
                raise SystemExit("n=%d: results differ: %r vs %r" % (n, lat[2:], lin[2:]))
            print("| %d | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
                n, lat[0], lin[0], lat[1] * 1e3, lin[1] * 1e3, lin[1] / lat[1]))
        else:
            print("| %d | (not run) | %.2f | | %.2f | |" % (n, lin[0], lin[1] * 1e3))


if __name__ == "__main__":
    main()
