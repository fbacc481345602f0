#!/usr/bin/python3
"""Read+pack throughput and peak memory of Matrix Market input, in one run:

  * sparse_array: the runtime reader packing into CSR (sa-io --stats);
  * scipy.io.mmread + tocsr() (Debian's scipy);
  * MLIR's own reader: sparse_tensor.new into CSR, compiled with
    mlir-opt --sparsifier and run by mlir-runner (time from rtclock()
    around the op).

Inputs: bcsstk13 from ../shared/data (when present) and a generated file of
--entries entries (default 20M, column-major like SuiteSparse files).
Reports seconds, M entries/s, peak memory over the process baseline, and
the ratios against sparse_array. Targets (issue 3): faster than both, peak
memory <= 2x the final storage.

  bench/io/bench_io.py [--build build] [--entries 20000000] [--repeat 3]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LLVM = "/usr/lib/llvm-22"

UPSTREAM_PROGRAM = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
module {
  func.func private @getTensorFilename(index) -> (!llvm.ptr)
  func.func private @rtclock() -> f64
  func.func private @printF64(f64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %f = call @getTensorFilename(%c0) : (index) -> (!llvm.ptr)
    %t0 = call @rtclock() : () -> f64
    %a = sparse_tensor.new %f : !llvm.ptr to tensor<?x?xf64, #CSR>
    %t1 = call @rtclock() : () -> f64
    %d = arith.subf %t1, %t0 : f64
    call @printF64(%d) : (f64) -> ()
    call @printNewline() : () -> ()
    bufferization.dealloc_tensor %a : tensor<?x?xf64, #CSR>
    return
  }
}
"""

SCIPY_PROGRAM = r"""
import sys, time
import scipy.io
def hwm():  # peak RSS of this process image (KiB)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
base = hwm()
t0 = time.perf_counter()
m = scipy.io.mmread(sys.argv[1]).tocsr()
t1 = time.perf_counter()
print(t1 - t0, hwm() - base, m.nnz)
"""


def run_measured(cmd, env=None):
    """Runs cmd; returns (stdout, stderr), exiting on failure."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    out, err = proc.communicate()
    if proc.returncode != 0:
        sys.exit("%s failed (%d):\n%s" % (" ".join(cmd), proc.returncode, err))
    return out, err


def peak_kb(cmd, env=None):
    """(stdout, stderr, peak RSS KiB) of one child via os.wait4."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    out = proc.stdout.read()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit("%s failed (%d):\n%s" % (" ".join(cmd), proc.returncode, err))
    return out, err, usage.ru_maxrss


def ours(sa_io, path, repeat):
    best = None
    for _ in range(repeat):
        _, err = run_measured([sa_io, "--stats", "--no-output", path,
                               "elem=f64;levels=dense,compressed"])
        fields = dict(f.split("=") for f in err.split())
        sample = (float(fields["read_seconds"]),
                  int(fields["peak_rss_kb"]) - int(fields["base_rss_kb"]),
                  int(fields["storage_bytes"]))
        best = sample if best is None or sample[0] < best[0] else best
    return best


def scipy_read(path, repeat):
    best = None
    for _ in range(repeat):
        out, _ = run_measured(["/usr/bin/python3", "-c", SCIPY_PROGRAM, path])
        seconds, kb, nnz = out.split()
        sample = (float(seconds), int(kb), int(nnz))
        best = sample if best is None or sample[0] < best[0] else best
    return best


def upstream(workdir, path, repeat, tiny):
    program = os.path.join(workdir, "upstream-new.mlir")
    lowered = os.path.join(workdir, "upstream-new.llvm.mlir")
    if not os.path.exists(lowered):
        with open(program, "w") as f:
            f.write(UPSTREAM_PROGRAM)
        run_measured([LLVM + "/bin/mlir-opt", program, "--sparsifier",
                      "-o", lowered])
    cmd = [LLVM + "/bin/mlir-runner", lowered, "-e", "main",
           "-entry-point-result=void",
           "-shared-libs=%s/lib/libmlir_c_runner_utils.so,"
           "%s/lib/libmlir_runner_utils.so" % (LLVM, LLVM)]
    # Peak over the baseline of the same JIT run on a tiny file.
    _, _, base = peak_kb(cmd, dict(os.environ, TENSOR0=tiny))
    best = None
    for _ in range(repeat):
        out, _, peak = peak_kb(cmd, dict(os.environ, TENSOR0=path))
        sample = (float(out.split()[0]), peak - base)
        best = sample if best is None or sample[0] < best[0] else best
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--entries", type=int, default=20_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir",
                        default=os.path.join(tempfile.gettempdir(),
                                             "sparse-array-bench-io"))
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    sa_io = os.path.join(args.build, "bin", "sa-io")
    generator = os.path.join(args.build, "bin", "sa-bench-generate-mtx")

    n = max(1, int((args.entries / 10)))  # ~10 entries per column
    generated = os.path.join(args.workdir, "generated-%d.mtx" % args.entries)
    if not os.path.exists(generated):
        print("generating %s ..." % generated, flush=True)
        run_measured([generator, generated, str(n), str(n), str(args.entries),
                      "1"])
    tiny = os.path.join(args.workdir, "tiny.mtx")
    with open(tiny, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n")

    inputs = []
    bcsstk13 = os.path.join(ROOT, "..", "shared", "data", "matrices",
                            "bcsstk13.mtx")
    if os.path.exists(bcsstk13):
        inputs.append(("bcsstk13", os.path.normpath(bcsstk13)))
    inputs.append(("generated-%dM" % (args.entries // 1_000_000), generated))

    results = []
    print("%-16s %-14s %10s %10s %12s %9s" %
          ("input", "reader", "seconds", "Mentries/s", "peak MiB", "vs ours"))
    for name, path in inputs:
        t_ours, kb_ours, storage = ours(sa_io, path, args.repeat)
        t_scipy, kb_scipy, nnz = scipy_read(path, 1 if args.entries > 1e6
                                            and name.startswith("generated")
                                            else args.repeat)
        t_up, kb_up = upstream(args.workdir, path, args.repeat, tiny)
        rows = [("sparse_array", t_ours, kb_ours),
                ("scipy.mmread", t_scipy, kb_scipy),
                ("sparse_tensor", t_up, kb_up)]
        for reader, t, kb in rows:
            print("%-16s %-14s %10.4f %10.2f %12.1f %8.2fx" %
                  (name, reader, t, nnz / t / 1e6, kb / 1024, t / t_ours))
        ratio = kb_ours * 1024 / storage
        print("%-16s final storage %.1f MiB; sparse_array peak / storage = "
              "%.2f (target <= 2)" % (name, storage / 2**20, ratio))
        results.append({"input": name, "entries": nnz,
                        "sparse_array": {"seconds": t_ours, "peak_kib": kb_ours},
                        "scipy": {"seconds": t_scipy, "peak_kib": kb_scipy},
                        "sparse_tensor": {"seconds": t_up, "peak_kib": kb_up},
                        "storage_bytes": storage,
                        "peak_over_storage": ratio})
    with open(os.path.join(args.workdir, "results.json"), "w") as f:
        json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
