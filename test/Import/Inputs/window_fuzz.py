#!/usr/bin/env python3
"""Random convolution windows, imported and run by sa-run, checked against
the dense program evaluated in Python (IEEE float64: NaN, ±inf and -0.0
included, every entry bitwise).

Each variant is a linalg.generic reading a 2-D image at (s * oh + d * kh,
s * ow + d * kw) and a filter at (kh, kw), folding o + image * filter into
an initialized output (a left fold in linalg's loop order oh, ow, kh, kw).
Drawn: image and filter encodings (dense, CSR, CSC, DCSR, COO), sizes
(filters of extent 0 to 4), strides and dilations 1 or 2, and whether the
function's types are static (taps unrolled into one kernel) or known only at
run time (taps in loops, each slice made at run time). Values include 0,
-0.0, ±inf and NaN.

  window_fuzz.py --sa-run sa-run --count 60 --batch 20 --seed 1
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from import_fuzz import ENC, POOL, lit, run_batches  # noqa: E402


class Window:
    def __init__(self, rng, k):
        self.k = k
        self.s = rng.choice([1, 1, 2])
        self.d = rng.choice([1, 1, 2])
        self.dynamic = rng.random() < 0.4
        # An empty window only with run-time shapes (linalg's verifier
        # rejects static ones: the map's range would end below 0).
        self.kh = rng.choice([0, 1, 2, 2, 3, 4] if self.dynamic else [1, 2, 2, 3, 4])
        self.kw = rng.choice([1, 2, 3])
        self.oh, self.ow = rng.randint(1, 4), rng.randint(1, 4)
        # The image the window reads, sometimes with spare rows/columns.
        self.h = self.s * (self.oh - 1) + self.d * max(self.kh - 1, 0) + 1 + rng.choice([0, 0, 1])
        self.w = self.s * (self.ow - 1) + self.d * max(self.kw - 1, 0) + 1 + rng.choice([0, 1])
        self.ienc = rng.choice(list(ENC[2]))
        self.fenc = rng.choice(["dense", "dense", "csr", "dcsr"])
        draw = lambda n, p: [rng.choice(POOL) if rng.random() < p else 0.0 for _ in range(n)]
        self.image = draw(self.h * self.w, 0.5)
        self.filter = draw(self.kh * self.kw, 0.7)
        self.out = draw(self.oh * self.ow, 0.3)

    def expected(self):
        res = []
        for i in range(self.oh):
            for j in range(self.ow):
                acc = self.out[i * self.ow + j]
                for a in range(self.kh):
                    for b in range(self.kw):
                        x = self.image[(self.s * i + self.d * a) * self.w + self.s * j + self.d * b]
                        acc = acc + x * self.filter[a * self.kw + b]
                res.append(acc)
        return res

    def ttype(self, enc, shape):
        dims = "?x?" if self.dynamic else "x".join(map(str, shape))
        return "tensor<%sxf64%s>" % (dims, ", #E_%s" % enc if ENC[2].get(enc) else "")

    def function(self):
        it = self.ttype(self.ienc, (self.h, self.w))
        ft = self.ttype(self.fenc, (self.kh, self.kw))
        ot = self.ttype("dense", (self.oh, self.ow))
        s, d = self.s, self.d
        maps = ("affine_map<(i, j, a, b) -> (%d * i + %d * a, %d * j + %d * b)>, "
                "affine_map<(i, j, a, b) -> (a, b)>, affine_map<(i, j, a, b) -> (i, j)>" % (s, d, s, d))
        text = "\n".join([
            "func.func @w%d(%%I: %s, %%F: %s, %%O: %s) -> %s {" % (self.k, it, ft, ot, ot),
            "  %%r = linalg.generic {indexing_maps = [%s], iterator_types = "
            "[\"parallel\", \"parallel\", \"reduction\", \"reduction\"]} "
            "ins(%%I, %%F : %s, %s) outs(%%O : %s) {" % (maps, it, ft, ot),
            "  ^bb0(%x: f64, %f: f64, %o: f64):",
            "    %m = arith.mulf %x, %f : f64",
            "    %a = arith.addf %o, %m : f64",
            "    linalg.yield %a : f64",
            "  } -> %s" % ot,
            "  return %%r : %s" % ot,
            "}"])
        return text, (it, ft, ot)

    def constant(self, name, values, rows, cols):
        vals = [lit(v) for v in values]
        body = ", ".join("[%s]" % ", ".join(vals[r * cols:(r + 1) * cols]) for r in range(rows))
        text = "[%s]" % body if rows and cols else ""
        return "  %s = arith.constant dense<%s> : tensor<%dx%dxf64>" % (name, text, rows, cols)

    def operand(self, lines, name, values, rows, cols, enc, t):
        lines.append(self.constant(name, values, rows, cols))
        static = "tensor<%dx%dxf64>" % (rows, cols)
        if ENC[2].get(enc):
            lines.append("  %s_s = sparse_tensor.convert %s : %s to %s" % (name, name, static, t))
            return name + "_s"
        if self.dynamic:
            lines.append("  %s_c = tensor.cast %s : %s to %s" % (name, name, static, t))
            return name + "_c"
        return name

    def call(self, types):
        it, ft, ot = types
        lines = []
        k = self.k
        i = self.operand(lines, "%%i%d" % k, self.image, self.h, self.w, self.ienc, it)
        f = self.operand(lines, "%%f%d" % k, self.filter, self.kh, self.kw, self.fenc, ft)
        o = self.operand(lines, "%%o%d" % k, self.out, self.oh, self.ow, "dense", ot)
        lines.append("  %%r%d = call @w%d(%s, %s, %s) : (%s, %s, %s) -> %s" % (
            k, k, i, f, o, it, ft, ot, ot))
        pt = "tensor<%sxf64, #E_all2>" % ("?x?" if self.dynamic else "%dx%d" % (self.oh, self.ow))
        lines.append("  %%p%d = sparse_tensor.convert %%r%d : %s to %s" % (k, k, ot, pt))
        lines.append("  sparse_tensor.print %%p%d : %s" % (k, pt))
        return "\n".join(lines)


def program(variants):
    header = ["#E_%s = #sparse_tensor.encoding<{ map = %s }>" % (name, m)
              for name, m in ENC[2].items() if m]
    header.append("#E_all2 = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : dense) }>")
    funcs, calls = [], []
    for v in variants:
        text, types = v.function()
        funcs.append(text)
        calls.append(v.call(types))
    return "\n".join(header + funcs + ["func.func @main() {"] + calls + ["  return", "}"])


def describe(v):
    return "w%d image %dx%d %s, filter %dx%d %s, out %dx%d, stride %d, dilation %d%s" % (
        v.k, v.h, v.w, v.ienc, v.kh, v.kw, v.fenc, v.oh, v.ow, v.s, v.d,
        ", run-time shapes" if v.dynamic else "")


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
    variants = [Window(rng, k) for k in range(args.count)]
    return run_batches(args, rng, variants, program, describe,
                       lambda v, coords, shape: coords[0] * v.ow + coords[1])

if __name__ == "__main__":
    sys.exit(main())
