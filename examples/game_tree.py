#!/usr/bin/python3
"""Writes a sampled game tree as an order-o FROSTT tensor (seed 000
§8.4.2): coordinate k of an entry is the move made at ply k, the value a
heuristic of the leaf position in [-100, 100]. Dimensions follow the seed:
20 x 20 x 43^(o-2) (chess: 20 opening moves, then 43 on average); the
tree is sampled sparsely, and every position it does not list is pruned
(the array's fill).

  examples/game_tree.py OUT.tns --order O [--branching B] [--seed S]
"""

import argparse
import random


def dims(order):
    return [20, 20] + [43] * (order - 2)


def sample(order, branching, seed):
    """Leaves as (path, value), paths sorted."""
    rng = random.Random(seed)
    sizes = dims(order)
    leaves = []

    def grow(prefix):
        depth = len(prefix)
        if depth == order:
            leaves.append((tuple(prefix), rng.randint(-100, 100)))
            return
        if depth == 0:
            k = sizes[0] // 2            # half the opening moves explored
        elif depth == 1 and rng.random() < 0.5:
            k = sizes[1]                 # every reply to some openings
        else:
            k = rng.randint(1, branching)
        for move in sorted(rng.sample(range(sizes[depth]), min(k, sizes[depth]))):
            grow(prefix + [move])

    grow([])
    return leaves


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--order", type=int, required=True)
    p.add_argument("--branching", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    with open(args.out, "w") as f:
        f.write("# game tree, order %d, dims %s\n" % (
            args.order, "x".join(str(d) for d in dims(args.order))))
        for path, value in sample(args.order, args.branching, args.seed):
            f.write(" ".join(str(c + 1) for c in path) + " %d\n" % value)


if __name__ == "__main__":
    main()
