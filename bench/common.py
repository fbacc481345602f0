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
