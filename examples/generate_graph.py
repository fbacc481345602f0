#!/usr/bin/python3
"""Writes a random directed graph with a skewed (power-law-like) in-degree
distribution as Matrix Market: edge i -> j, weight in [1, 2).

  examples/generate_graph.py OUT.mtx [--vertices N] [--edges M] [--seed S]
"""

import argparse
import random


def generate(path, n, m, seed):
    rng = random.Random(seed)
    # Preferential targets: vertex v is chosen with weight 1/(v+1).
    cumulative, total = [], 0.0
    for v in range(n):
        total += 1.0 / (v + 1)
        cumulative.append(total)
    edges = set()
    m = min(m, n * (n - 1))
    while len(edges) < m:
        i = rng.randrange(n)
        if rng.random() < 0.7:
            j = rng.choices(range(n), cum_weights=cumulative)[0]
        else:
            j = rng.randrange(n)
        if i != j:
            edges.add((i, j))
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real general\n")
        f.write("%d %d %d\n" % (n, n, len(edges)))
        for i, j in sorted(edges):
            f.write("%d %d %.3f\n" % (i + 1, j + 1, 1 + rng.random()))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--vertices", type=int, default=2000)
    p.add_argument("--edges", type=int, default=10000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    generate(args.out, args.vertices, args.edges, args.seed)


if __name__ == "__main__":
    main()
