#!/usr/bin/env python3
"""Random sequence expressions (seed 001 §5.1) through their lattices and
iterators (sparse-array-test-sequence-loops), checked entry by entry
against a dense evaluation in Python.

Each expression ranges over vectors (each leaf its own argument, sparse or
dense) combined by union, intersection, product, concatenation and slices
with sizes that agree. The test lowering adds, at every coordinate of the
expression's set, the values of the leaves stored there (for a product, of
both factors at the coordinate's quotient and remainder); the reference
computes the same from the definitions of the combinators:

    union:  A ∪ B                 product:  {a·|B| + b}
    inter:  A ∩ B                 concat:   A ∪ (|A| + B)
    slice:  {(c - s) / r : c in A, s <= c < e, r | c - s}

    sequences.py --sa-opt BIN --sa-run BIN --count 200 --seed 1
"""

import argparse
import random
import subprocess
import sys
import tempfile


class Leaf:
    def __init__(self, index, size, dense, values):
        self.index, self.size, self.dense, self.values = index, size, dense, values

    def text(self):
        return ("d%d" if self.dense else "s%d") % self.index

    def member(self, x):
        return x in self.values

    def present(self, x):
        return {self.index: self.values[x]} if x in self.values else {}


class Node:
    def __init__(self, kind, children, size, params=()):
        self.kind, self.children, self.size, self.params = kind, children, size, params

    def text(self):
        if self.kind == "slice":
            s, e, r = self.params
            return "slice(%s, %d, %d, %d)" % (self.children[0].text(), s, e, r)
        return "%s(%s)" % (self.kind, ", ".join(c.text() for c in self.children))

    def member(self, x):
        k = self.children
        if self.kind == "union":
            return any(c.member(x) for c in k)
        if self.kind == "intersect":
            return all(c.member(x) for c in k)
        if self.kind == "product":
            nb = k[1].size
            return k[0].member(x // nb) and k[1].member(x % nb)
        if self.kind == "concat":
            na = k[0].size
            return k[0].member(x) if x < na else k[1].member(x - na)
        s, e, r = self.params
        return k[0].member(s + x * r)

    def present(self, x):
        """{leaf: value} of every leaf stored at x's coordinate in it: every
        operand of a union or intersection (seed 000: a function sees the
        values of all its stored operands), the factors of a product that
        holds x, the part of a concatenation x falls in."""
        k = self.children
        if self.kind in ("union", "intersect"):
            out = {}
            for c in k:
                out.update(c.present(x))
            return out
        if self.kind == "product":
            # A product holds x only where both factors do.
            nb = k[1].size
            if not (k[0].member(x // nb) and k[1].member(x % nb)):
                return {}
            return {**k[0].present(x // nb), **k[1].present(x % nb)}
        if self.kind == "concat":
            na = k[0].size
            return k[0].present(x) if x < na else k[1].present(x - na)
        s, e, r = self.params
        return k[0].present(s + x * r)


class Gen:
    def __init__(self, rng, reversed_slices=False):
        self.rng = rng
        self.reversed_slices = reversed_slices
        self.leaves = []

    def leaf(self, size, sparse=False):
        rng = self.rng
        dense = not sparse and rng.random() < 0.25
        density = rng.choice([0.0, 0.2, 0.5, 0.9])
        values = {}
        for c in range(size):
            if dense or rng.random() < density:
                # Small positive integers: sums are exact and never 0.
                values[c] = float(rng.randint(1, 9))
        leaf = Leaf(len(self.leaves), size, dense, values)
        self.leaves.append(leaf)
        return leaf

    def expr(self, size, depth):
        rng = self.rng
        if depth == 0 or rng.random() < 0.25:
            return self.leaf(size)
        choices = ["union", "intersect", "slice"]
        if size >= 2:
            choices.append("concat")
        divisors = [d for d in range(2, size) if size % d == 0]
        if divisors:
            choices.append("product")
        kind = rng.choice(choices)
        if kind in ("union", "intersect"):
            n = rng.choice([2, 2, 3])
            return Node(kind, [self.expr(size, depth - 1) for _ in range(n)], size)
        if kind == "concat":
            first = rng.randint(1, size - 1)
            return Node(kind, [self.expr(first, depth - 1),
                               self.expr(size - first, depth - 1)], size)
        if kind == "product":
            outer = rng.choice(divisors)
            return Node(kind, [self.expr(outer, depth - 1),
                               self.expr(size // outer, depth - 1)], size)
        # Counting down (a reversal) over a sparse leaf, read backwards.
        if self.reversed_slices and rng.random() < 0.3:
            step = -rng.choice([1, 1, 2, 3])
            start = (size - 1) * -step + rng.randint(0, 3)
            whole = start + 1 + rng.randint(0, 3)
            last = start + step * (size - 1)
            # Exclusive: below the last, above the next one down (-1 or
            # less past coordinate 0).
            stop = last - 1 - rng.randint(0, -step - 1)
            leaf = self.leaf(whole, sparse=True)
            return Node(kind, [leaf], size, (start, stop, step))
        # A slice with `size` elements of an operand that extends past it.
        step = rng.choice([1, 1, 2, 3])
        start = rng.randint(0, 3)
        stop = start + (size - 1) * step + 1
        whole = stop + rng.randint(0, 3)
        return Node(kind, [self.expr(whole, depth - 1)], size,
                    (start, stop + rng.randint(0, step - 1), step))


def vector_type(leaf):
    fmt = "dense" if leaf.dense else "compressed"
    return "!sparse_array.array<%dxf64, #sparse_array.format<[%s]>>" % (leaf.size, fmt)


def constant(leaf, name):
    t = vector_type(leaf)
    if leaf.dense:
        vals = ", ".join("%.1f" % leaf.values[c] for c in range(leaf.size))
        return "  %s = sparse_array.constant dense<[%s]> : tensor<%dxf64> : %s" % (
            name, vals, leaf.size, t)
    if not leaf.values:
        return "  %s = sparse_array.constant sparse<[], []> : tensor<%dxf64> : %s" % (
            name, leaf.size, t)
    crds = ", ".join("[%d]" % c for c in sorted(leaf.values))
    vals = ", ".join("%.1f" % leaf.values[c] for c in sorted(leaf.values))
    return "  %s = sparse_array.constant sparse<[%s], [%s]> : tensor<%dxf64> : %s" % (
        name, crds, vals, leaf.size, t)


def run_batch(args, cases):
    funcs, body = [], []
    dv = "!sparse_array.array<?xf64, #sparse_array.format<[dense]>>"
    for n, (expr, leaves) in enumerate(cases):
        params = ", ".join("%%a%d: %s" % (l.index, vector_type(l)) for l in leaves)
        funcs.append('func.func private @f%d(%s) -> %s\n'
                     '    attributes {sparse_array.test_sequence = "%s"}'
                     % (n, params, dv, expr.text()))
        names = []
        for l in leaves:
            name = "%%c%d_%d" % (n, l.index)
            body.append(constant(l, name))
            names.append(name)
        body.append("  %%r%d = call @f%d(%s) : (%s) -> %s" % (
            n, n, ", ".join(names), ", ".join(vector_type(l) for l in leaves), dv))
        body.append("  sparse_array.print %%r%d : %s" % (n, dv))
    program = "\n".join(funcs) + "\nfunc.func @main() {\n" + "\n".join(body) + \
        "\n  return\n}\n"
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(program)
        path = f.name
    lowered = subprocess.run([args.sa_opt, "--sparse-array-test-sequence-loops", path],
                             capture_output=True, text=True, timeout=args.timeout)
    if lowered.returncode != 0:
        return ["lowering failed:\n" + lowered.stderr + "\n" + program]
    flags = ["--bounds-checks"] if args.bounds_checks else []
    try:
        run = subprocess.run([args.sa_run] + flags + ["-"], input=lowered.stdout,
                             capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return ["run failed: no result within %d s (a hang):\n%s" % (args.timeout, program)]
    if run.returncode != 0:
        return ["run failed (%d):\n%s\n%s" % (run.returncode, run.stderr, program)]
    lines = run.stdout.splitlines()
    pos, failures = 0, []
    for expr, _ in cases:
        assert lines[pos].startswith("# fill: "), lines[pos]
        _, nnz = (int(x) for x in lines[pos + 1].split())
        size = int(lines[pos + 2])
        got = {}
        for k in range(nnz):
            i, v = lines[pos + 3 + k].split()
            got[int(i) - 1] = float(v)
        pos += 3 + nnz
        want = {x: sum(expr.present(x).values())
                for x in range(expr.size) if expr.member(x)}
        if size != expr.size or got != want:
            failures.append("%s (size %d): got %s, want %s%s" % (
                expr.text(), size, sorted(got.items()), sorted(want.items()),
                ("\n" + program) if args.verbose else ""))
    return failures


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sa-opt", required=True)
    p.add_argument("--sa-run", required=True)
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--batch", type=int, default=20)
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--max-leaves", type=int, default=9,
                   help="redraw larger expressions (a lattice over n levels "
                        "has up to 2^n points: compile time)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--reversed", action="store_true",
                   help="also slices with negative steps over sparse leaves "
                        "(read backwards)")
    p.add_argument("--bounds-checks", action="store_true")
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--verbose", action="store_true",
                   help="print the program of each failure")
    args = p.parse_args()
    rng = random.Random(args.seed)
    failures, passed = [], 0
    for start in range(0, args.count, args.batch):
        cases = []
        for _ in range(min(args.batch, args.count - start)):
            while True:
                gen = Gen(rng, args.reversed)
                expr = gen.expr(rng.randint(1, 12), args.depth)
                if len(gen.leaves) <= args.max_leaves:
                    break
            cases.append((expr, gen.leaves))
        batch_failures = run_batch(args, cases)
        failures += batch_failures
        passed += len(cases) - len(batch_failures) if all(
            not f.startswith(("lowering failed", "run failed")) for f in batch_failures) else 0
    for f in failures:
        print("FAIL:", f)
    print("%d of %d expressions passed" % (passed, args.count))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
