#!/usr/bin/env python3
"""Compares what two runs of one program printed, entry by entry.

The first file is sa-run's output, the second mlir-runner's output of the
same program compiled by upstream's --sparsifier. Both print with
sparse_tensor.print's text (nse, dim, lvl, pos[l], crd[l], values, levels
in dimension order: imported programs print as upstream does); sa-run's
may also be sparse_array.print's text ('# fill: F', 'rank nnz', the
dimensions, then 1-based coordinates and a value per stored entry). Each printed array becomes a dense
numpy array (implicit entries: the fill, 0 upstream) and the arrays are
compared in order. Upstream prints 6 significant digits, so values match
to a relative 1e-5; NaN matches NaN, and -0.0 matches 0.0 (upstream's
conversion drops stored -0.0 as zero). Exit status 1 on any difference.
"""

import math
import re
import sys

import numpy as np


def value(token):
    """A printed float: NaNs other than nan/-nan print as their bits."""
    if token.lower().startswith("0x"):
        return float(np.array(int(token, 16), dtype=np.uint64).view(np.float64))
    return float(token)


def entries_sa(text):
    """Each printed array as (shape, fill, {coordinates: value})."""
    arrays = []
    lines = [l for l in text.splitlines() if l.strip()]
    i = 0
    while i < len(lines):
        if not lines[i].startswith("# fill:"):
            i += 1
            continue
        fill = value(lines[i].split(":", 1)[1].strip())
        rank, nnz = (int(t) for t in lines[i + 1].split())
        shape = tuple(int(t) for t in lines[i + 2].split()) if rank else ()
        i += 3 if rank else 2
        entries = {}
        for _ in range(nnz):
            parts = lines[i].split()
            entries[tuple(int(c) - 1 for c in parts[:rank])] = value(parts[rank])
            i += 1
        arrays.append((shape, fill, entries))
    return arrays


def dense(array):
    shape, fill, entries = array
    result = np.full(shape, fill)
    for coords, value in entries.items():
        result[coords] = value
    return result


def parse_sa(text):
    return [dense(a) for a in entries_sa(text)]


def numbers(field):
    inner = field[field.index("(") + 1:field.rindex(")")]
    return [float(t) for t in inner.replace(",", " ").split()]


def entries_upstream(text):
    """Each printed tensor as (shape, 0.0, {coordinates: value})."""
    arrays = []
    for block in re.findall(r"---- Sparse Tensor ----\n(.*?)\n----", text,
                            re.S):
        fields = {}
        for line in block.splitlines():
            key, _, value = line.partition(":") if "=" not in line \
                else line.partition("=")
            fields[key.strip()] = value
        dims = [int(d) for d in numbers(fields["dim"])]
        lvls = [int(d) for d in numbers(fields["lvl"])]
        if dims != lvls:
            raise SystemExit("upstream print with a dimension permutation: "
                             "print an identity-ordered format")
        values = numbers(fields["values"])
        # Positions of each level: a list of (coordinates, position).
        current = [((), 0)]
        skip = 0
        for l, size in enumerate(lvls):
            if skip:
                skip -= 1
                continue
            pos = fields.get(f"pos[{l}]")
            crd = fields.get(f"crd[{l}]")
            nxt = []
            if pos is not None:
                pos, crd = numbers(pos), numbers(crd)
                # A trailing COO region as an array of structures: k
                # coordinates per entry, the levels below have no fields.
                k = len(crd) // int(pos[-1]) if int(pos[-1]) else 1
                for coords, p in current:
                    for q in range(int(pos[p]), int(pos[p + 1])):
                        nxt.append((coords + tuple(int(c) for c in crd[q * k:q * k + k]), q))
                skip = k - 1
            elif crd is not None:
                crd = numbers(crd)
                for coords, p in current:
                    nxt.append((coords + (int(crd[p]),), p))
            else:
                for coords, p in current:
                    for c in range(size):
                        nxt.append((coords + (c,), p * size + c))
            current = nxt
        arrays.append((tuple(dims), 0.0,
                       {coords: values[p] for coords, p in current}))
    return arrays


def parse_upstream(text):
    return [dense(a) for a in entries_upstream(text)]


def same(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-5 * max(abs(a), abs(b))


def differences(a, b):
    """Entries where arrays a and b (shape, fill, entries) differ."""
    (shape_a, fill_a, ea), (shape_b, fill_b, eb) = a, b
    if shape_a != shape_b:
        return [("shape", shape_a, shape_b)]
    return [(c, ea.get(c, fill_a), eb.get(c, fill_b))
            for c in set(ea) | set(eb)
            if not same(ea.get(c, fill_a), eb.get(c, fill_b))]


def main():
    first = open(sys.argv[1]).read()
    sa = parse_sa(first) if "# fill:" in first else parse_upstream(first)
    up = parse_upstream(open(sys.argv[2]).read())
    if len(sa) != len(up) or not sa:
        print(f"sa-run printed {len(sa)} arrays, upstream {len(up)}")
        return 1
    bad = 0
    for n, (a, b) in enumerate(zip(sa, up)):
        if a.shape != b.shape:
            print(f"array {n}: shape {a.shape} vs upstream {b.shape}")
            bad += 1
            continue
        for idx in np.ndindex(a.shape):
            if not same(float(a[idx]), float(b[idx])):
                print(f"array {n} at {idx}: sa {a[idx]} upstream {b[idx]}")
                bad += 1
    print(f"{len(sa)} arrays compared, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
