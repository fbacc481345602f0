#!/usr/bin/env python3
"""Random linalg programs on sparse_tensor tensors, imported and run by
sa-run, checked against the dense program evaluated in Python (IEEE
float64: NaN, ±inf and -0.0 included, every entry bitwise).

Each variant is a linalg.generic over one or two rank-1 or rank-2 inputs
in a random encoding (dense, compressed vector, CSR, CSC, DCSR, COO) whose
region is a random expression of addf/subf/mulf/divf over the inputs and
constants, either element-wise (into a dense or a sparse output) or summed
over the last dimension from a +0.0 initial value (a left fold, as linalg
defines it). Inputs hold 0, -0.0, inf, -inf, NaN and ordinary values.

  import_fuzz.py --sa-run sa-run --count 60 --batch 20 --seed 1
"""
import argparse
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_prints  # noqa: E402

ENC = {
    1: {"dense": None, "sv": "(d0) -> (d0 : compressed)"},
    2: {"dense": None, "csr": "(d0, d1) -> (d0 : dense, d1 : compressed)",
        "csc": "(d0, d1) -> (d1 : dense, d0 : compressed)",
        "dcsr": "(d0, d1) -> (d0 : compressed, d1 : compressed)",
        "coo": "(d0, d1) -> (d0 : compressed(nonunique), d1 : singleton)"},
}
POOL = [0.0, 0.0, 0.0, 0.0, -0.0, 1.5, -2.0, 3.0, 0.25, math.inf, -math.inf, math.nan]
# sa-run options a batch may run with (--random-options).
OPTIONS = [[], ["--disable-openmp"], ["--workspace=hash"], ["--bounds-checks"],
           ["--linear-threshold=2"], ["-O0"], ["--vector-gathers=on"],
           ["--num-threads=2", "--parallel-min-extent=1", "--parallel-min-work=1"],
           ["--num-threads=2", "--parallel-min-extent=1", "--parallel-min-work=1", "--parallel-assembly=two-phase"],
           ["--num-threads=2", "--parallel-min-extent=1", "--parallel-min-work=1", "--parallel-assembly=parts"]]
OPS = {"addf": lambda x, y: x + y, "subf": lambda x, y: x - y,
       "mulf": lambda x, y: x * y, "divf": None}


def fdiv(x, y):
    """IEEE division (Python raises on /0)."""
    if y == 0.0:
        if math.isnan(x) or x == 0.0:
            return math.nan
        neg = (math.copysign(1.0, x) < 0) != (math.copysign(1.0, y) < 0)
        return -math.inf if neg else math.inf
    return x / y


def lit(v):
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]


def bits(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


class Variant:
    def __init__(self, rng, k):
        self.k = k
        self.rank = rng.choice([1, 2])
        self.shape = [7] if self.rank == 1 else [4, 5]
        self.n_in = rng.choice([1, 2])
        self.encs = [rng.choice(list(ENC[self.rank])) for _ in range(self.n_in)]
        self.reduce = self.rank == 2 and rng.random() < 0.4
        self.out_enc = "dense" if self.reduce or rng.random() < 0.5 else self.encs[0]
        self.values = [[rng.choice(POOL) if rng.random() < 0.45 else 0.0
                        for _ in range(math.prod(self.shape))] for _ in range(self.n_in)]
        self.expr = self.tree(rng, 3)

    def tree(self, rng, depth):
        r = rng.random()
        if depth == 0 or r < 0.3:
            if rng.random() < 0.8:
                return ("in", rng.randrange(self.n_in))
            return ("const", rng.choice(POOL))
        return (rng.choice(list(OPS)), self.tree(rng, depth - 1), self.tree(rng, depth - 1))

    def evaluate(self, e, point):
        if e[0] == "in":
            return self.values[e[1]][point]
        if e[0] == "const":
            return e[1]
        x, y = self.evaluate(e[1], point), self.evaluate(e[2], point)
        return fdiv(x, y) if e[0] == "divf" else OPS[e[0]](x, y)

    def expected(self):
        """Dense result, flattened (C order)."""
        if not self.reduce:
            return [self.evaluate(self.expr, p) for p in range(math.prod(self.shape))]
        rows, cols = self.shape
        out = []
        for i in range(rows):
            s = 0.0
            for j in range(cols):
                s = s + self.evaluate(self.expr, i * cols + j)
            out.append(s)
        return out

    def ttype(self, enc, shape):
        dims = "x".join(map(str, shape))
        return "tensor<%sxf64%s>" % (dims, ", #E_%s" % enc if ENC[len(shape)].get(enc) else "")

    def region(self, lines, e, counter):
        if e[0] == "in":
            return "%%x%d" % e[1]
        if e[0] == "const":
            name = "%%c%d" % counter[0]
            counter[0] += 1
            lines.append("    %s = arith.constant %s : f64" % (name, lit(e[1])))
            return name
        a = self.region(lines, e[1], counter)
        b = self.region(lines, e[2], counter)
        name = "%%t%d" % counter[0]
        counter[0] += 1
        lines.append("    %s = arith.%s %s, %s : f64" % (name, e[0], a, b))
        return name

    def function(self):
        idx = "(d0)" if self.rank == 1 else "(d0, d1)"
        full = "(d0)" if self.rank == 1 else "(d0, d1)"
        out_shape = self.shape[:1] if self.reduce else self.shape
        out_map = "(d0)" if self.reduce or self.rank == 1 else "(d0, d1)"
        iters = '"parallel"' if self.rank == 1 else (
            '"parallel", "reduction"' if self.reduce else '"parallel", "parallel"')
        maps = ", ".join(["affine_map<%s -> %s>" % (idx, full)] * self.n_in +
                         ["affine_map<%s -> %s>" % (idx, out_map)])
        in_types = [self.ttype(e, self.shape) for e in self.encs]
        out_type = self.ttype(self.out_enc if not self.reduce else "dense", out_shape)
        params = ", ".join("%%a%d: %s" % (i, t) for i, t in enumerate(in_types))
        lines = ["func.func @k%d(%s) -> %s {" % (self.k, params, out_type),
                 "  %%e = tensor.empty() : %s" % out_type]
        init = "%e"
        if self.reduce:
            lines.append("  %z = arith.constant 0.0 : f64")
            lines.append("  %%y = linalg.fill ins(%%z : f64) outs(%%e : %s) -> %s" % (out_type, out_type))
            init = "%y"
        lines.append("  %%r = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} "
                     "ins(%s : %s) outs(%s : %s) {" % (
                         maps, iters, ", ".join("%%a%d" % i for i in range(self.n_in)),
                         ", ".join(in_types), init, out_type))
        args = ", ".join("%%x%d: f64" % i for i in range(self.n_in))
        lines.append("  ^bb0(%s, %%o: f64):" % args)
        body = []
        value = self.region(body, self.expr, [0])
        lines += body
        if self.reduce:
            lines.append("    %%s = arith.addf %%o, %s : f64" % value)
            value = "%s"
        lines.append("    linalg.yield %s : f64" % value)
        lines.append("  } -> %s" % out_type)
        lines.append("  return %%r : %s" % out_type)
        lines.append("}")
        return "\n".join(lines), in_types, out_type, out_shape

    def call(self, in_types, out_type, out_shape):
        lines = []
        args = []
        dims = "x".join(map(str, self.shape))
        dense = "tensor<%sxf64>" % dims
        for i, (enc, t) in enumerate(zip(self.encs, in_types)):
            vals = [lit(v) for v in self.values[i]]
            if self.rank == 2:
                cols = self.shape[1]
                rows = ["[%s]" % ", ".join(vals[r * cols:(r + 1) * cols])
                        for r in range(self.shape[0])]
                text = "[%s]" % ", ".join(rows)
            else:
                text = "[%s]" % ", ".join(vals)
            src = "%%d%d_%d" % (self.k, i)
            lines.append("  %s = arith.constant dense<%s> : %s" % (src, text, dense))
            if ENC[self.rank][enc]:
                lines.append("  %%v%d_%d = sparse_tensor.convert %s : %s to %s" % (
                    self.k, i, src, dense, t))
                src = "%%v%d_%d" % (self.k, i)
            args.append(src)
        lines.append("  %%r%d = call @k%d(%s) : (%s) -> %s" % (
            self.k, self.k, ", ".join(args), ", ".join(in_types), out_type))
        # Printed through an all-dense encoding (sparse_tensor.print needs one).
        pt = "tensor<%sxf64, #E_all%d>" % ("x".join(map(str, out_shape)), len(out_shape))
        lines.append("  %%p%d = sparse_tensor.convert %%r%d : %s to %s" % (
            self.k, self.k, out_type, pt))
        lines.append("  sparse_tensor.print %%p%d : %s" % (self.k, pt))
        return "\n".join(lines)


def program(variants):
    header = ["#E_%s = #sparse_tensor.encoding<{ map = %s }>" % (name, m)
              for r in ENC for name, m in ENC[r].items() if m and (name != "dense")]
    header = list(dict.fromkeys(header))
    header += ["#E_all1 = #sparse_tensor.encoding<{ map = (d0) -> (d0 : dense) }>",
               "#E_all2 = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : dense) }>"]
    funcs, calls = [], []
    for v in variants:
        text, in_types, out_type, out_shape = v.function()
        funcs.append(text)
        calls.append(v.call(in_types, out_type, out_shape))
    return "\n".join(header + funcs + ["func.func @main() {"] + calls + ["  return", "}"])


def describe(v):
    return "k%d rank %d inputs %s -> %s%s: %r" % (v.k, v.rank, v.encs, v.out_enc,
                                                  " (row sums)" if v.reduce else "", v.expr)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sa-run", default="sa-run")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="directory for failing programs")
    ap.add_argument("--random-options", action="store_true",
                    help="run each batch with random sa-run options")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    variants = [Variant(rng, k) for k in range(args.count)]

    def flat(v, coords, shape):
        strides = [1] if len(shape) == 1 else [shape[1], 1]
        return sum(c * s for c, s in zip(coords, strides))
    return run_batches(args, rng, variants, program, describe, flat)


def run_batches(args, rng, variants, program, describe, flat):
    """Runs the variants in batches of one program each through sa-run and
    compares every printed entry bitwise with the variant's expected()
    values (`flat` maps printed coordinates to a position in them)."""
    failures = 0
    for start in range(0, args.count, args.batch):
        batch = variants[start:start + args.batch]
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False,
                                         dir=args.keep) as f:
            f.write(program(batch))
            path = f.name
        options = rng.choice(OPTIONS) if args.random_options else []
        run = subprocess.run([args.sa_run, "--import-exact-print"] + options + [path],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print("FAIL batch at %d: sa-run %s exited %d: %s (program %s)" % (
                start, " ".join(options), run.returncode, run.stderr.strip()[:500], path))
            failures += len(batch)
            continue
        printed = compare_prints.entries_sa(run.stdout)
        ok_batch = len(printed) == len(batch)
        if not ok_batch:
            failures += len(batch) - len(printed)
            print("FAIL batch at %d: %d results printed for %d variants" % (
                start, len(printed), len(batch)))
        for v, got in zip(batch, printed):
            want = v.expected()
            shape, fill, entries = got
            values = [fill] * len(want)
            for coords, value in entries.items():
                values[flat(v, coords, shape)] = value
            bad = [(p, g, w) for p, (g, w) in enumerate(zip(values, want))
                   if not (math.isnan(g) and math.isnan(w)) and bits(g) != bits(w)]
            if bad:
                ok_batch = False
                failures += 1
                p, g, w = bad[0]
                print("FAIL %s: at %d: %r, expected %r (sa-run %s, program %s)" % (
                    describe(v), p, g, w, " ".join(options), path))
        if ok_batch and not args.keep:
            os.unlink(path)
    print("%d of %d variants passed" % (args.count - failures, args.count))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
