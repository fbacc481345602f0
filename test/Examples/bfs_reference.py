#!/usr/bin/python3
"""BFS level sizes from vertex 0 by scipy (independent of sparse_array), in
the format examples/bfs.mlir prints; or, with --generate, a random directed
graph with a skewed degree distribution written as Matrix Market.

  bfs_reference.py GRAPH.mtx
  bfs_reference.py --generate OUT.mtx --vertices N --edges M [--seed S]
"""

import argparse
import collections
import random

import numpy as np
import scipy.io
import scipy.sparse
import scipy.sparse.csgraph as csgraph


def generate(path, n, m, seed):
    rng = random.Random(seed)
    # Preferential targets: vertex v is chosen with weight 1/(v+1).
    weights = [1.0 / (v + 1) for v in range(n)]
    edges = set()
    while len(edges) < m:
        i = rng.randrange(n)
        j = rng.choices(range(n), weights)[0] if rng.random() < 0.7 else rng.randrange(n)
        if i != j:
            edges.add((i, j))
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real general\n")
        f.write("%d %d %d\n" % (n, n, len(edges)))
        for i, j in sorted(edges):
            f.write("%d %d %.3f\n" % (i + 1, j + 1, 1 + rng.random()))


def levels(path):
    a = scipy.sparse.csr_matrix(scipy.io.mmread(path))
    a.eliminate_zeros()
    dist = csgraph.shortest_path(a, unweighted=True, directed=True, indices=0)
    reached = dist[np.isfinite(dist)].astype(int)
    for level, count in sorted(collections.Counter(reached).items()):
        print("%d %d" % (level, count))
    print("reached %d" % len(reached))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("graph", nargs="?")
    p.add_argument("--generate")
    p.add_argument("--vertices", type=int, default=2000)
    p.add_argument("--edges", type=int, default=10000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if args.generate:
        generate(args.generate, args.vertices, args.edges, args.seed)
    else:
        levels(args.graph)


if __name__ == "__main__":
    main()
