#!/usr/bin/python3
"""Element-wise kernels on >= 10M stored entries, three implementations in one run:

  * sparse_array: sparse_array.map over CSR inputs, compiled by
    sparse-array-pipeline and run by sa-run (JIT -O3), time from
    sa_rt_seconds() around the map;
  * hand-written C++ merge loops (hand_kernels.cpp, -O3 -march=native, a
    shared library), called by the same program on the very buffers the
    sparse_array kernels read (sa-run --shared-libs), output allocated once
    at its upper bound with the same huge-page advice;
  * MLIR's sparsifier: linalg.generic with sparse_tensor.binary (the
    `overlap`/`left`/`right` regions matching the function's cases), CSR
    output, compiled with mlir-opt --sparsifier and run by mlir-runner -O3,
    time from rtclock() around the kernel.

Kernels: add (f64, union), logical_xor (Boolean, symmetric difference),
ldexp (f64 x i32: iterate A, find B), power (f64: the result's fill is
0^0 = 1, so iterate B, find A). A is banded (runs of consecutive columns);
B is A with its columns shifted by one (seed 000 §8). Every implementation
prints its entry count and the sum of its values; they must agree (the
sparsifier's power stores the 1s that are the fill, see below). Reports
the best of --repeat runs, GB/s (bytes of both inputs' coordinates and
values plus the output's, over the kernel time) and the ratios
hand-written / sparse_array and sparsifier / sparse_array (> 1: sparse_array
is faster). Targets (issue 5): >= 0.9 and >= 1.0.

  bench/elementwise/bench_elementwise.py [--build build] [--rows 1048576]
      [--repeat 3] [--keep DIR]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LLVM = "/usr/lib/llvm-22"
sys.path.insert(0, os.path.dirname(HERE))
from common import write_json  # noqa: E402

KERNELS = ["add", "xor", "ldexp", "power"]

# name: (input files, element types, map function, result element, result fill)
SA = {
    "add": (["a_f64", "b_f64"], ["f64", "f64"], "add_f64", "f64", "0.0"),
    "xor": (["a_bool", "b_bool"], ["i1", "i1"], "xor_i1", "i1", "0"),
    "ldexp": (["a_f64", "b_i32"], ["f64", "i32"], "ldexp_f64", "f64", "0.0"),
    "power": (["a_f64", "b_f64"], ["f64", "f64"], "pow_f64", "f64", "1.0"),
}


def sa_program(stdlib, repeat):
    files = sorted({f for k in KERNELS for f in SA[k][0]})
    lines = ["func.func @main() {",
             "  %c0 = arith.constant 0 : index",
             "  %c1 = arith.constant 1 : index",
             "  %%nrep = arith.constant %d : index" % repeat,
             "  %big = arith.constant 1.0e300 : f64",
             "  %z = arith.constant 0.0 : f64"]
    types = {}
    for i, f in enumerate(files):
        t = {"a_bool": "i1", "b_bool": "i1", "b_i32": "i32"}.get(f, "f64")
        fill = {"i1": "0", "i32": "0", "f64": "0.0"}[t]
        ty = "!sparse_array.array<?x?x%s, #sparse_array.format<[dense, compressed], fill = %s : %s>>" % (t, fill, t)
        types[f] = ty
        lines.append("  %%i%d = arith.constant %d : index" % (i, i))
        lines.append('  %%%s = sparse_array.read input %%i%d {file_format = "mtx"} : %s' % (f, i, ty))
    hand_decls = []
    for k in KERNELS:
        ins, elts, fn, rt, rfill = SA[k]
        rty = "!sparse_array.array<?x?x%s, #sparse_array.format<[dense, compressed], fill = %s : %s>>" % (rt, rfill, rt)
        # The hand-written loops first, on the same buffers.
        args, argtys = [], []
        for side, (f, e) in enumerate(zip(ins, elts)):
            lines += [
                "  %%hp_%s_%d = sparse_array.positions %%%s[1] : %s -> memref<?xi64>" % (k, side, f, types[f]),
                "  %%hc_%s_%d = sparse_array.coordinates %%%s[1] : %s -> memref<?xi64>" % (k, side, f, types[f]),
                "  %%hv_%s_%d = sparse_array.values %%%s : %s -> memref<?x%s>" % (k, side, f, types[f], e)]
            args += ["%%hp_%s_%d" % (k, side), "%%hc_%s_%d" % (k, side), "%%hv_%s_%d" % (k, side)]
            argtys += ["memref<?xi64>", "memref<?xi64>", "memref<?x%s>" % e]
        lines += ["  %%hrep_%s = arith.index_cast %%nrep : index to i64" % k,
                  "  func.call @sa_bench_hand_%s(%s, %%hrep_%s) : (%s, i64) -> ()" % (
                      k, ", ".join(args), k, ", ".join(argtys))]
        hand_decls.append("func.func private @sa_bench_hand_%s(%s, i64) attributes {llvm.emit_c_interface}"
                          % (k, ", ".join(argtys)))
        lines += [
            "  %%best_%s, %%nnz_%s, %%sum_%s = scf.for %%r = %%c0 to %%nrep step %%c1"
            " iter_args(%%b = %%big, %%n0 = %%c0, %%s0 = %%z) -> (f64, index, f64) {" % (k, k, k),
            "    %t0 = func.call @sa_rt_seconds() : () -> f64",
            "    %%c = func.call @kernel_%s(%%%s, %%%s) : (%s, %s) -> %s" % (
                k, ins[0], ins[1], types[ins[0]], types[ins[1]], rty),
            "    %%v = sparse_array.values %%c : %s -> memref<?x%s>" % (rty, rt),
            "    %n = memref.dim %v, %c0 : memref<?x" + rt + ">",
            "    %t1 = func.call @sa_rt_seconds() : () -> f64",
            "    %dt = arith.subf %t1, %t0 : f64",
            "    %b1 = arith.minimumf %b, %dt : f64",
            "    %s = scf.for %p = %c0 to %n step %c1 iter_args(%acc = %z) -> (f64) {",
            "      %x = memref.load %v[%p] : memref<?x" + rt + ">",
            ("      %xf = arith.uitofp %x : i1 to f64" if rt == "i1" else "      %xf = arith.addf %x, %z : f64"),
            "      %a2 = arith.addf %acc, %xf : f64",
            "      scf.yield %a2 : f64",
            "    }",
            "    sparse_array.dealloc %%c : %s" % rty,
            "    scf.yield %b1, %n, %s : f64, index, f64",
            "  }",
            '  %%name_%s = llvm.mlir.addressof @name_%s : !llvm.ptr' % (k, k),
            "  func.call @sa_rt_print_str(%%name_%s) : (!llvm.ptr) -> ()" % k,
            "  func.call @sa_rt_print_f64(%%best_%s) : (f64) -> ()" % k,
            "  func.call @sa_rt_print_str(%sp) : (!llvm.ptr) -> ()",
            "  %%nnz64_%s = arith.index_cast %%nnz_%s : index to i64" % (k, k),
            "  func.call @sa_rt_print_i64(%%nnz64_%s) : (i64) -> ()" % k,
            "  func.call @sa_rt_print_str(%sp) : (!llvm.ptr) -> ()",
            "  func.call @sa_rt_print_f64(%%sum_%s) : (f64) -> ()" % k,
            "  func.call @sa_rt_print_newline() : () -> ()",
        ]
    lines += ["  return", "}"]
    # One function per kernel, as a library would have it (kept out of
    # line: inlined into one large @main they optimize differently).
    for k in KERNELS:
        ins, _, fn, rt, rfill = SA[k]
        rty = "!sparse_array.array<?x?x%s, #sparse_array.format<[dense, compressed], fill = %s : %s>>" % (rt, rfill, rt)
        lines += [
            "func.func @kernel_%s(%%a: %s, %%b: %s) -> %s attributes {passthrough = [\"noinline\"]} {" % (
                k, types[ins[0]], types[ins[1]], rty),
            "  %%c = sparse_array.map @%s(%%a, %%b) : (%s, %s) -> %s" % (
                fn, types[ins[0]], types[ins[1]], rty),
            "  return %%c : %s" % rty,
            "}"]
    decls = [
        "func.func private @sa_rt_seconds() -> f64",
        "func.func private @sa_rt_print_f64(f64)",
        "func.func private @sa_rt_print_i64(i64)",
        "func.func private @sa_rt_print_str(!llvm.ptr)",
        "func.func private @sa_rt_print_newline()",
        'llvm.mlir.global private constant @sp(" \\00") {addr_space = 0 : i32} : !llvm.array<2 x i8>',
    ]
    decls += hand_decls
    for k in KERNELS:
        decls.append('llvm.mlir.global private constant @name_%s("%s \\00") {addr_space = 0 : i32} : !llvm.array<%d x i8>'
                     % (k, k, len(k) + 2))
    lines.insert(4, "  %sp = llvm.mlir.addressof @sp : !llvm.ptr")
    return stdlib + "\n".join(decls) + "\n" + "\n".join(lines) + "\n", files


# The sparsifier's counterparts. Its output fill is always 0, so power
# stores the 1s of A-only positions (x^0) explicitly: that is the
# sparse_tensor.binary equivalent (left = 1), and it iterates the union.
UPSTREAM_BODIES = {
    "add": ("f64", "f64", "f64", """
          %r = sparse_tensor.binary %x, %y : f64, f64 to f64
            overlap = { ^bb0(%a: f64, %b: f64):
                %s = arith.addf %a, %b : f64
                sparse_tensor.yield %s : f64 }
            left = identity
            right = identity"""),
    "xor": ("i8", "i8", "i8", """
          %r = sparse_tensor.binary %x, %y : i8, i8 to i8
            overlap = {}
            left = identity
            right = identity"""),
    "ldexp": ("f64", "i32", "f64", """
          %r = sparse_tensor.binary %x, %y : f64, i32 to f64
            overlap = { ^bb0(%a: f64, %e: i32):
                %s = func.call @ldexp(%a, %e) : (f64, i32) -> f64
                sparse_tensor.yield %s : f64 }
            left = identity
            right = {}"""),
    "power": ("f64", "f64", "f64", """
          %r = sparse_tensor.binary %x, %y : f64, f64 to f64
            overlap = { ^bb0(%a: f64, %b: f64):
                %s = math.powf %a, %b : f64
                sparse_tensor.yield %s : f64 }
            left = { ^bb0(%a: f64):
                %one = arith.constant 1.0 : f64
                sparse_tensor.yield %one : f64 }
            right = { ^bb0(%b: f64):
                %zero = arith.constant 0.0 : f64
                %s = math.powf %zero, %b : f64
                sparse_tensor.yield %s : f64 }"""),
}

UPSTREAM_FILES = {"add": ("a_f64", "b_f64"), "xor": ("a_bool", "b_bool"),
                  "ldexp": ("a_f64", "b_i32"), "power": ("a_f64", "b_f64")}


def upstream_program(kernel, repeat, ldexp_body):
    ta, tb, tr, body = UPSTREAM_BODIES[kernel]
    csr = "#CSR"
    conv = "arith.uitofp %v : i8 to f64" if tr == "i8" else "arith.addf %v, %z : f64"
    return """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#ew = { indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                         affine_map<(i, j) -> (i, j)>],
        iterator_types = ["parallel", "parallel"] }
module {
  func.func private @getTensorFilename(index) -> (!llvm.ptr)
  func.func private @rtclock() -> f64
  func.func private @printF64(f64)
  func.func private @printI64(i64)
  func.func private @printComma()
  func.func private @printNewline()
  %(ldexp)s
  func.func @kernel(%%A: tensor<?x?x%(ta)s, %(csr)s>, %%B: tensor<?x?x%(tb)s, %(csr)s>) -> tensor<?x?x%(tr)s, %(csr)s> {
    %%c0 = arith.constant 0 : index
    %%c1 = arith.constant 1 : index
    %%m = tensor.dim %%A, %%c0 : tensor<?x?x%(ta)s, %(csr)s>
    %%n = tensor.dim %%A, %%c1 : tensor<?x?x%(ta)s, %(csr)s>
    %%init = tensor.empty(%%m, %%n) : tensor<?x?x%(tr)s, %(csr)s>
    %%C = linalg.generic #ew
        ins(%%A, %%B : tensor<?x?x%(ta)s, %(csr)s>, tensor<?x?x%(tb)s, %(csr)s>)
        outs(%%init : tensor<?x?x%(tr)s, %(csr)s>) {
        ^bb0(%%x: %(ta)s, %%y: %(tb)s, %%o: %(tr)s):
          %(body)s
          linalg.yield %%r : %(tr)s
    } -> tensor<?x?x%(tr)s, %(csr)s>
    return %%C : tensor<?x?x%(tr)s, %(csr)s>
  }
  func.func @main() {
    %%c0 = arith.constant 0 : index
    %%c1 = arith.constant 1 : index
    %%z = arith.constant 0.0 : f64
    %%fa = call @getTensorFilename(%%c0) : (index) -> (!llvm.ptr)
    %%fb = call @getTensorFilename(%%c1) : (index) -> (!llvm.ptr)
    %%A = sparse_tensor.new %%fa : !llvm.ptr to tensor<?x?x%(ta)s, %(csr)s>
    %%B = sparse_tensor.new %%fb : !llvm.ptr to tensor<?x?x%(tb)s, %(csr)s>
    %%nrep = arith.constant %(repeat)d : index
    %%big = arith.constant 1.0e300 : f64
    %%best, %%nnz, %%sum = scf.for %%r = %%c0 to %%nrep step %%c1
        iter_args(%%bst = %%big, %%n0 = %%c0, %%s0 = %%z) -> (f64, index, f64) {
      %%t0 = func.call @rtclock() : () -> f64
      %%C = func.call @kernel(%%A, %%B) : (tensor<?x?x%(ta)s, %(csr)s>, tensor<?x?x%(tb)s, %(csr)s>) -> tensor<?x?x%(tr)s, %(csr)s>
      %%t1 = func.call @rtclock() : () -> f64
      %%dt = arith.subf %%t1, %%t0 : f64
      %%b1 = arith.minimumf %%bst, %%dt : f64
      %%nv = sparse_tensor.number_of_entries %%C : tensor<?x?x%(tr)s, %(csr)s>
      %%vals = sparse_tensor.values %%C : tensor<?x?x%(tr)s, %(csr)s> to memref<?x%(tr)s>
      %%s = scf.for %%p = %%c0 to %%nv step %%c1 iter_args(%%acc = %%z) -> (f64) {
        %%v = memref.load %%vals[%%p] : memref<?x%(tr)s>
        %%vf = %(conv)s
        %%a2 = arith.addf %%acc, %%vf : f64
        scf.yield %%a2 : f64
      }
      bufferization.dealloc_tensor %%C : tensor<?x?x%(tr)s, %(csr)s>
      scf.yield %%b1, %%nv, %%s : f64, index, f64
    }
    call @printF64(%%best) : (f64) -> ()
    call @printComma() : () -> ()
    %%nnz64 = arith.index_cast %%nnz : index to i64
    call @printI64(%%nnz64) : (i64) -> ()
    call @printComma() : () -> ()
    call @printF64(%%sum) : (f64) -> ()
    call @printNewline() : () -> ()
    return
  }
}
""" % dict(ta=ta, tb=tb, tr=tr, csr=csr, body=body, repeat=repeat, conv=conv,
           ldexp=ldexp_body if kernel == "ldexp" else "")


def ldexp_func(stdlib):
    """The stdlib's ldexp body as a func.func, so both compilers run the same
    arithmetic."""
    start = stdlib.index("sparse_array.func @ldexp_f64")
    body_start = stdlib.index("{\n", stdlib.index("attributes", start)) + 2
    end = stdlib.index("\n}\n", body_start)
    body = stdlib[body_start:end].replace("sparse_array.yield", "func.return")
    return ("func.func @ldexp(%x: f64, %e: i32) -> f64 {\n" + body + "\n}")


def run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), proc.stderr[-4000:]))
    return proc.stdout


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--rows", type=int, default=1 << 20)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--keep", default="")
    p.add_argument("--json", default="", help="write {kernel/ratio-name: ratio} here")
    p.add_argument("--inputs", default="",
                   help="a directory with a_f64, b_f64, a_bool, b_bool, b_i32 .mtx files "
                        "to use instead of the generated banded ones (e.g. random columns)")
    args = p.parse_args()
    bindir = os.path.join(args.build, "bin")
    work = args.keep or tempfile.mkdtemp(prefix="sa-bench-ew-")
    os.makedirs(work, exist_ok=True)
    try:
        # 1. Inputs.
        if args.inputs:
            def header(name):
                with open(os.path.join(args.inputs, name + ".mtx")) as fh:
                    line = fh.readline()
                    while line.startswith("%"):
                        line = fh.readline()
                    return [int(x) for x in line.split()]
            args.rows, _, nnz_a = header("a_f64")
            nnz_b = header("b_f64")[2]
            for name in ("a_f64", "b_f64", "a_bool", "b_bool", "b_i32"):
                dest = os.path.join(work, name + ".mtx")
                if not os.path.exists(dest):
                    os.symlink(os.path.join(os.path.abspath(args.inputs), name + ".mtx"), dest)
        else:
            out = run([os.path.join(bindir, "sa-bench-elementwise-gen"), "--out", work,
                       "--rows", str(args.rows)])
            f = out.split()
            nnz_a, nnz_b = int(f[1]), int(f[2])
        # 2. sparse_array and, in the same process, the hand-written loops.
        with open(os.path.join(ROOT, "stdlib", "std.mlir")) as f:
            stdlib = f.read()
        prog, files = sa_program(stdlib, args.repeat)
        path = os.path.join(work, "sa.mlir")
        with open(path, "w") as f:
            f.write(prog)
        hand_lib = os.path.join(args.build, "lib", "libsa_bench_hand.so")
        out = run([os.path.join(bindir, "sa-run"), "--shared-libs=" + hand_lib, path, "--"] +
                  [os.path.join(work, f + ".mtx") for f in files])
        ours, hand = {}, {}
        for line in out.splitlines():
            f = line.split()
            if f[0].startswith("hand-"):
                hand[f[0][5:]] = (float(f[1]), int(f[2]), float(f[3]))
            else:
                ours[f[0]] = (float(f[1]), int(f[2]), float(f[3]))
        # 3. The sparsifier.
        upstream = {}
        libs = ",".join(os.path.join(LLVM, "lib", l) for l in
                        ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so"))
        for k in KERNELS:
            src = os.path.join(work, "upstream_%s.mlir" % k)
            with open(src, "w") as f:
                f.write(upstream_program(k, args.repeat, ldexp_func(stdlib)))
            low = os.path.join(work, "upstream_%s.ll.mlir" % k)
            run([os.path.join(LLVM, "bin", "mlir-opt"), src,
                 "--sparsifier=enable-runtime-library=false", "-o", low])
            env = dict(os.environ, TENSOR0=os.path.join(work, UPSTREAM_FILES[k][0] + ".mtx"),
                       TENSOR1=os.path.join(work, UPSTREAM_FILES[k][1] + ".mtx"))
            out = run([os.path.join(LLVM, "bin", "mlir-runner"), "-O3", "-e", "main",
                       "-entry-point-result=void", "-shared-libs=" + libs, low], env=env)
            t, n, s = (x.strip() for x in out.strip().split(","))
            upstream[k] = (float(t), int(n), float(s))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    sizes = {"add": (8, 8, 8), "xor": (1, 1, 1), "ldexp": (8, 4, 8), "power": (8, 8, 8)}
    rows = args.rows
    print("inputs: %d x %d, A %d entries, B %d entries (%s); best of %d"
          % (rows, rows, nnz_a, nnz_b, "from " + args.inputs if args.inputs else
             "A shifted by one column", args.repeat))
    print("%-6s %10s %10s %10s %8s %8s %8s %12s %12s" % (
        "kernel", "sa [s]", "hand [s]", "mlir [s]", "sa GB/s", "hand/sa", "mlir/sa",
        "entries", "agree"))
    results = {}
    failed = False
    for k in KERNELS:
        sa_t, sa_n, sa_s = ours[k]
        h_t, h_n, h_s = hand[k]
        u_t, u_n, u_s = upstream[k]
        va, vb, vc = sizes[k]
        moved = 2 * (rows + 1) * 8 + nnz_a * (8 + va) + nnz_b * (8 + vb) + sa_n * (8 + vc)
        agree = sa_n == h_n and sa_s == h_s
        # The sparsifier cannot declare fill 1: its power also stores A's
        # x^0 = 1 entries, so only the part that is not 1 can be compared.
        # (printF64 prints 6 significant digits.)
        close = lambda x, y: abs(x - y) <= 1e-5 * max(abs(x), abs(y), 1.0)
        u_agree = (u_n == sa_n and close(u_s, sa_s)) if k != "power" else \
            (u_n >= sa_n and close(u_s - (u_n - sa_n), sa_s))
        failed |= not (agree and u_agree)
        results[k] = dict(sa=sa_t, hand=h_t, mlir=u_t, gbps=moved / sa_t / 1e9,
                          hand_ratio=h_t / sa_t, mlir_ratio=u_t / sa_t, entries=sa_n,
                          mlir_entries=u_n, agree=agree, mlir_agree=u_agree)
        print("%-6s %10.4f %10.4f %10.4f %8.2f %8.2f %8.2f %12d %12s" % (
            k, sa_t, h_t, u_t, moved / sa_t / 1e9, h_t / sa_t, u_t / sa_t, sa_n,
            "yes" if agree and u_agree else "NO (%s/%s)" % (agree, u_agree)))
    dest = os.path.join(tempfile.gettempdir(), "sparse-array-bench-elementwise")
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    if args.json:
        ratios = {}
        for k, r in results.items():
            ratios[k + "/hand-over-sa"] = r["hand_ratio"]
            ratios[k + "/mlir-over-sa"] = r["mlir_ratio"]
        write_json(args.json, ratios)
    print("targets: hand/sa >= 0.9, mlir/sa >= 1.0; results in %s/results.json" % dest)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
