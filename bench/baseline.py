#!/usr/bin/python3
"""Benchmark baseline: rerun the benchmarks, compare with bench/baseline.json (issue 56).

Runs bench/elementwise, bench/peers, bench/graphblas, bench/parallel and
bench/compile with OMP_NUM_THREADS=1 and with the machine's default thread
count, collects every ratio they report (a reference's time over
sparse_array's: higher is better) and every compile time (names ending
in "ms": lower is better), and prints each one that got more than
--tolerance worse than the baseline's. Run it on every change to planning,
code generation or the runtime; --update writes the new numbers as the
baseline (after a change that is meant to move them, say so in its
commit message).

  bench/baseline.py [--build build] [--only peers,compile] [--update]
      [--tolerance 0.10] [--baseline bench/baseline.json]

Exit code 1 when a ratio dropped (or a benchmark failed). The machine
matters: a baseline holds for the machine it was written on (its
"machine" entry); timings on 2 shared cores vary by about 10 %, so a
single drop just past the tolerance is worth a rerun of that benchmark
before a bisection.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name: (script, extra arguments). The sizes are each benchmark's defaults
# but for peers (no pydata: its own slowness is not ours) and parallel
# (2 threads: what the default count is here).
BENCHES = {
    "elementwise": ("elementwise/bench_elementwise.py", []),
    "peers": ("peers/bench_peers.py", ["--no-pydata"]),
    "graphblas": ("graphblas/bench_graphblas.py", []),
    "parallel": ("parallel/bench_parallel.py", []),
    "compile": ("compile/bench_compile.py", []),
}
# parallel measures 1 and N threads itself; compile is single-threaded.
ONE_SETTING = {"parallel", "compile"}


def run_bench(name, build, threads, work):
    script, extra = BENCHES[name]
    out = os.path.join(work, "%s-%s.json" % (name, threads))
    env = dict(os.environ)
    if threads == "1":
        env["OMP_NUM_THREADS"] = "1"
    else:
        env.pop("OMP_NUM_THREADS", None)
    proc = subprocess.run([sys.executable, os.path.join(HERE, script), "--build", build,
                           "--json", out] + extra, env=env, capture_output=True, text=True)
    sys.stderr.write(proc.stdout)
    if proc.returncode != 0 or not os.path.exists(out):
        print("%s (%s threads) failed:\n%s" % (name, threads, proc.stderr[-2000:]))
        return None
    with open(out) as f:
        data = json.load(f)
    flat = {}
    for k, v in data.items():
        if isinstance(v, dict):  # compile: {kernel: {openmp: ms, seq: ms}}
            for kk, vv in v.items():
                flat["%s/%s/ms" % (k, kk)] = vv
        else:
            flat[k] = v
    return flat


def worse(name, old, new, tolerance):
    """How much worse new is than old (a fraction; <= 0: not worse)."""
    if name.endswith("/ms"):
        return (new - old) / old if old > 1.0 else 0.0  # below 1 ms: noise
    return (old - new) / old if old > 0 else 0.0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--baseline", default=os.path.join(HERE, "baseline.json"))
    p.add_argument("--only", default=",".join(BENCHES))
    p.add_argument("--tolerance", type=float, default=0.10)
    p.add_argument("--update", action="store_true",
                   help="write the measured numbers as the new baseline")
    args = p.parse_args()
    names = args.only.split(",")
    work = tempfile.mkdtemp(prefix="sa-bench-baseline-")
    measured, failed = {}, False
    for name in names:
        if name not in BENCHES:
            sys.exit("unknown benchmark %s (of %s)" % (name, ", ".join(BENCHES)))
        for threads in (["default"] if name in ONE_SETTING else ["1", "default"]):
            print("running %s (%s threads)" % (name, threads), file=sys.stderr)
            got = run_bench(name, args.build, threads, work)
            if got is None:
                failed = True
                continue
            for k, v in got.items():
                key = "%s/%s" % (name, k) if name in ONE_SETTING else \
                    "%s/%s@%st" % (name, k, "1" if threads == "1" else "N")
                measured[key] = v
    old = {}
    if os.path.exists(args.baseline):
        with open(args.baseline) as f:
            old = json.load(f)
    base = old.get("ratios", {})
    drops = []
    for k in sorted(measured):
        if k in base:
            w = worse(k, base[k], measured[k], args.tolerance)
            if w > args.tolerance:
                drops.append((k, base[k], measured[k], w))
    print("%-52s %10s %10s %8s" % ("measure", "baseline", "now", "worse"))
    for k, b, m, w in drops:
        print("%-52s %10.3f %10.3f %7.0f%%" % (k, b, m, 100 * w))
    print("%d measures, %d in the baseline, %d more than %.0f%% worse" % (
        len(measured), len([k for k in measured if k in base]), len(drops),
        100 * args.tolerance))
    if args.update:
        merged = dict(base)
        merged.update(measured)
        with open(args.baseline, "w") as f:
            json.dump({"machine": "%s, %d cores" % (platform.processor() or platform.machine(),
                                                     os.cpu_count()),
                       "ratios": merged}, f, indent=1, sort_keys=True)
            f.write("\n")
        print("baseline written: %s" % args.baseline)
    return 1 if failed or (drops and not args.update) else 0


if __name__ == "__main__":
    sys.exit(main())
