#!/usr/bin/python3
"""Checks examples/minimax-O.mlir's output: every array it prints (after the
last ply's reduction, per opening move, the game's value) against the dense
semantics computed here from the tree file: a position's value is max (or
min, alternating from ply 0 = max) over all its moves, pruned ones holding
the fill 0.

  minimax_reference.py TREE.tns ORDER SA_OUTPUT
"""

import sys

FILL = 0


def dims(order):
    return [20, 20] + [43] * (order - 2)


def reduce_level(values, depth, size):
    """values: {path of length depth+1: value}; reduce the last coordinate
    with ply `depth`'s operator."""
    op = max if depth % 2 == 0 else min
    children = {}
    for path, v in values.items():
        children.setdefault(path[:-1], []).append(v)
    out = {}
    for prefix, vs in children.items():
        if len(vs) < size:
            vs = vs + [FILL]
        out[prefix] = op(vs)
    return out


def parse(lines, pos):
    assert lines[pos].startswith("# fill: "), lines[pos]
    fill = int(lines[pos][len("# fill: "):])
    rank, nnz = (int(x) for x in lines[pos + 1].split())
    entries = {}
    for line in lines[pos + 3:pos + 3 + nnz]:
        parts = [int(x) for x in line.split()]
        entries[tuple(c - 1 for c in parts[:rank])] = parts[rank]
    return fill, entries, pos + 3 + nnz


def main():
    tree, order, output = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    leaves = {}
    for line in open(tree):
        if line.startswith("#") or not line.strip():
            continue
        parts = [int(x) for x in line.split()]
        leaves[tuple(c - 1 for c in parts[:-1])] = parts[-1]
    sizes = dims(order)
    levels = {order: leaves}
    for depth in range(order - 1, -1, -1):
        levels[depth] = reduce_level(levels[depth + 1], depth, sizes[depth])
    lines = open(output).read().split("\n")
    pos, problems = 0, []
    for rank in (order - 1, 1, 0):
        fill, entries, pos = parse(lines, pos)
        want = {p: v for p, v in levels[rank].items() if v != FILL}
        if fill != FILL:
            problems.append("rank %d: fill %d" % (rank, fill))
        if entries != want:
            diff = set(entries.items()) ^ set(want.items())
            problems.append("rank %d: %d entries differ, e.g. %s" % (rank, len(diff), sorted(diff)[:3]))
    if problems:
        print("\n".join(problems))
        return 1
    print("ok: order %d, %d leaves, %d positions before the last move, value %d" % (
        order, len(leaves), len(levels[order - 1]), levels[0].get((), FILL)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
