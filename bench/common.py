"""Helpers the Python benchmark drivers share: timing, running sa-run and
comparing results."""

import json
import math
import subprocess
import sys
import time


def best_of(repeat, f):
    """The least wall time of `repeat` calls of f, and f's last result."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return best, out


def run(cmd, **kw):
    """stdout of a command; exits with its stderr when it fails."""
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), proc.stderr[-4000:]))
    return proc.stdout


def agree(x, y):
    """(time, entries, value sum) results: entry counts equal, value sums
    within rounding (summation order)."""
    return x[1] == y[1] and math.isclose(x[2], y[2], rel_tol=1e-9, abs_tol=1e-6)


def write_json(path, ratios):
    """{name: ratio} for bench/baseline.py: a reference's time over
    sparse_array's (higher is better), or a time in ms for names ending
    in "ms" (lower is better)."""
    with open(path, "w") as f:
        json.dump(ratios, f, indent=1, sort_keys=True)


# The finite-math f64 add and multiply that scipy and GraphBLAS assume
# (declared: associative add with identity 0.0, 0 annihilates mul).
FADD = """sparse_array.func @fadd(%x: f64, %y: f64) -> f64
    attributes {commutative, associative, identity = #sparse_array.identity<0.0 : f64>} {
  %r = arith.addf %x, %y : f64
  sparse_array.yield %r : f64
}
"""
FMUL = """sparse_array.func @fmul(%x: f64, %y: f64) -> f64
    attributes {commutative, annihilator = #sparse_array.annihilator<0.0 : f64>} {
  %r = arith.mulf %x, %y : f64
  sparse_array.yield %r : f64
}
"""
# The runtime functions the timing programs call, and a " " to print.
TIMING_DECLS = """func.func private @sa_rt_seconds() -> f64
func.func private @sa_rt_print_f64(f64)
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_str(!llvm.ptr)
func.func private @sa_rt_print_newline()
llvm.mlir.global private constant @sp(" \\00") {addr_space = 0 : i32} : !llvm.array<2 x i8>
"""
