#!/usr/bin/env python3
"""The element-wise cases on real matrices (seed 000 §8's trick).

For each Matrix Market file and each rank-2 case of elementwise.py, the
first operand has the file's sparsity structure and the second the same
structure with every column coordinate shifted by one (wrapping around),
so the operands overlap only partly and every lattice point runs; a third
operand is shifted by two. f64 operands of the first position are the
file itself (values included, read by the runtime's Matrix Market reader);
the others are written by this script in the text format with values drawn
per element type, including NaN, +-inf and -0.0. The program reads them as
program inputs into rotating formats (CSR, CSC, DCSR, COO, dense), prints
the result, and every printed entry and the fill are compared with numpy's
evaluation of the expression. The reference is evaluated densely at every
coordinate stored in some operand; every other coordinate holds the fill
of every operand, so the dense program's value there is f(fills) — checked
for each of them by requiring it to be the printed fill.

    matrices.py --sa-run BIN --stdlib std.mlir MATRIX.mtx...
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import scipy.io

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elementwise as ew  # noqa: E402

FORMATS2 = ["csr", "csc", "dcsr", "coo", "dense"]


def structure(path):
    a = scipy.io.mmread(path)
    if not hasattr(a, "tocoo"):  # a dense ("array") file
        a = np.asarray(a)
        rows, cols = np.nonzero(np.ones_like(a, dtype=bool))
        return a.shape, rows, cols, a[rows, cols].astype(np.float64)
    a = a.tocoo()
    a.sum_duplicates()
    return a.shape, a.row.astype(np.int64), a.col.astype(np.int64), \
        np.asarray(a.data, dtype=np.float64)


def write_text(path, shape, rows, cols, vals, t, fill):
    with open(path, "w") as f:
        f.write("# fill: %s\n" % ew.fill_literal(fill, t).split(" :")[0])
        f.write("2 %d\n%d %d\n" % (len(rows), shape[0], shape[1]))
        lit = {"f64": lambda v: repr(float(v)),
               "i1": lambda v: "1" if v else "0"}.get(t, lambda v: str(int(v)))
        f.write("".join("%d %d %s\n" % (r + 1, c + 1, lit(v))
                        for r, c, v in zip(rows, cols, vals)))


def parse_block(lines, pos, t, n):
    """One printed rank-2 array: fill, linear keys and values, next line."""
    head = lines[pos]
    assert head.startswith("# fill: "), head
    fill = ew.parse_scalar(head[len("# fill: "):], t)
    rank, nnz = (int(x) for x in lines[pos + 1].split())
    assert rank == 2, lines[pos + 1]
    body = [l.split() for l in lines[pos + 3:pos + 3 + nnz]]
    assert len(body) == nnz, "output ends early"
    keys = np.array([(int(r) - 1) * n + int(c) - 1 for r, c, _ in body], dtype=np.int64)
    vals = np.array([ew.parse_scalar(v, t) for _, _, v in body], dtype=ew.NP_TYPES[t])
    return fill, keys, vals, pos + 3 + nnz


def same_array(a, b, t):
    if t == "f64":
        return (np.isnan(a) & np.isnan(b)) | ((a == b) & (np.signbit(a) == np.signbit(b)))
    return a == b


def same_bits_array(a, b, t):
    if t == "f64":
        return a.view(np.uint64) == b.view(np.uint64)
    return a == b


def run_matrix(args, path, rng, stdlib_text, tmp):
    shape, rows0, cols0, vals0 = structure(path)
    m, n = shape
    name = os.path.basename(path)
    failures, total = [], 0
    inputs = []  # program input paths
    lines = []
    checks = []  # (desc, rtype, sorted linear coordinates, expected there, fill)
    for ci, (case, spec) in enumerate(ew.CASES.items()):
        expr, types, fill_sets, kinds = spec
        kinds = kinds or [None] * len(types)
        for fi, fills in enumerate(fill_sets):
            tag = "c%d_%d" % (ci, fi)
            names, typs, sparse_ops = [], [], []
            for k, t in enumerate(types):
                shift = k
                cols = (cols0 + shift) % n if n else cols0
                fmt = FORMATS2[(ci + fi + k) % len(FORMATS2)]
                typ = ew.array_type((m, n), t, fmt, 2, fills[k]).replace(
                    "%dx%d" % (m, n), "?x?", 1)
                if k == 0 and t == "f64":
                    inp, vals = os.path.abspath(path), vals0
                    read_fmt = "mtx"
                else:
                    # Values equal to the fill are dropped by the reader,
                    # which changes nothing in the dense array.
                    vals = ew.random_values(rng, t, (len(rows0),), fills[k], kinds[k])
                    inp = os.path.join(tmp, "%s_%s_%d.txt" % (name, tag, k))
                    write_text(inp, shape, rows0, cols, vals, t, fills[k])
                    read_fmt = "text"
                inputs.append(inp)
                idx = len(inputs) - 1
                lines.append("  %%i_%s_%d = arith.constant %d : index" % (tag, k, idx))
                lines.append('  %%in_%s_%d = sparse_array.read input %%i_%s_%d {file_format = "%s"} : %s'
                             % (tag, k, tag, k, read_fmt, typ))
                names.append("%%in_%s_%d" % (tag, k))
                typs.append(typ)
                # Sparse form of the operand: linear coordinate -> value.
                sparse_ops.append((rows0 * n + cols, vals,
                                   np.array(fills[k], ew.NP_TYPES[t])))
            out_fmt = FORMATS2[(ci + fi + 3) % len(FORMATS2)]
            fill_args = [f for _, _, f in sparse_ops]
            expected_fill = ew.evaluate(expr, fill_args)[()]
            counter = [0]
            body = []
            res, rtyp = ew.emit_maps(expr, names, typs, "?x?", 2, out_fmt, body, counter,
                                     final_fill=[expected_fill])
            lines.extend(l.replace("%m", "%%m%s_" % tag) for l in body)
            res = res.replace("%m", "%%m%s_" % tag)
            lines.append("  sparse_array.print %s : %s" % (res, rtyp))
            # Reference at every coordinate some operand stores.
            coords = np.unique(np.concatenate([c for c, _, _ in sparse_ops]))
            dense = []
            for (c, v, f), t in zip(sparse_ops, types):
                col = np.full(len(coords), f, dtype=ew.NP_TYPES[t])
                col[np.searchsorted(coords, c)] = v
                dense.append(col)
            expected = ew.evaluate(expr, dense)
            checks.append(("%s on %s fills=%s inputs=%s -> %s" % (
                case, name, fills, [FORMATS2[(ci + fi + k) % 5] for k in range(len(types))],
                out_fmt), ew.result_type_of(expr, types), coords, expected,
                expected_fill))
    program = ew.build_program([], stdlib_text).replace(
        "func.func @main() {\n", "func.func @main() {\n" + "\n".join(lines) + "\n")
    prog = os.path.join(tmp, name + ".mlir")
    with open(prog, "w") as f:
        f.write(program)
    proc = subprocess.run([args.sa_run, prog, "--"] + inputs, capture_output=True,
                          text=True, timeout=600)
    if proc.returncode != 0:
        return ["%s: sa-run failed (%d), program %s:\n%s" % (
            name, proc.returncode, prog, proc.stderr[-3000:])], len(checks)
    out = proc.stdout.splitlines()
    pos = 0
    for desc, rtype, coords, expected, expected_fill in checks:
        total += 1
        try:
            fill, keys, vals, pos = parse_block(out, pos, rtype, n)
        except Exception as exc:  # noqa: BLE001
            failures.append("%s: cannot parse output (%s)" % (desc, exc))
            break
        problems = []
        if not ew.same(fill, expected_fill, rtype):
            problems.append("fill %r, expected %r" % (fill, expected_fill))
        at = np.searchsorted(coords, keys)
        listed = at < len(coords)
        listed[listed] = coords[at[listed]] == keys[listed]
        # Where every operand holds its fill the value is the fill, but a
        # computed NaN under a NaN fill may have other bits (LLVM leaves a
        # computed NaN's sign unspecified) and is then stored.
        outside = ~listed & ~(np.isnan(vals) & np.isnan(fill)
                              if rtype == "f64" else np.zeros(len(keys), bool))
        for key in keys[outside][:3]:
            problems.append("at %s: listed where every operand holds its fill" % (
                divmod(int(key), n),))
        got = np.full(len(coords), fill, dtype=ew.NP_TYPES[rtype])
        got[at[listed]] = vals[listed]
        bad = ~same_array(got, expected, rtype)
        for j in np.nonzero(bad)[0][:5]:
            problems.append("at %s: %r, expected %r" % (
                divmod(int(coords[j]), n), got[j], expected[j]))
        # Bit for bit: a NaN of other bits than a NaN fill is a value.
        for j in np.nonzero(same_bits_array(vals, np.full(len(vals), fill, vals.dtype),
                                            rtype))[0][:3]:
            problems.append("at %s: stored fill value %r" % (divmod(int(keys[j]), n), fill))
        if problems:
            failures.append("%s: %s" % (desc, "; ".join(problems[:5])))
    return failures, total


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sa-run", required=True)
    p.add_argument("--stdlib", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("matrices", nargs="+")
    args = p.parse_args()
    with open(args.stdlib) as f:
        stdlib_text = f.read()
    rng = random.Random(args.seed)
    failures, total = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in args.matrices:
            f, t = run_matrix(args, path, rng, stdlib_text, tmp)
            failures += f
            total += t
            print("%s: %d of %d cases passed" % (os.path.basename(path), t - len(f), t))
            if f:
                keep = tempfile.mkdtemp(prefix="sa-matrices-")
                shutil.copytree(tmp, keep, dirs_exist_ok=True)
                print("inputs and program kept in", keep)
    return ew.report(failures, total)


if __name__ == "__main__":
    sys.exit(main())
