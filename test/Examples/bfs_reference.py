#!/usr/bin/python3
"""BFS level sizes from vertex 0 by scipy (independent of sparse_array), in
the format examples/bfs.mlir prints.

  bfs_reference.py GRAPH.mtx
"""

import collections
import sys

import numpy as np
import scipy.io
import scipy.sparse
import scipy.sparse.csgraph as csgraph


def levels(path):
    a = scipy.sparse.csr_matrix(scipy.io.mmread(path))
    a.eliminate_zeros()
    dist = csgraph.shortest_path(a, unweighted=True, directed=True, indices=0)
    reached = dist[np.isfinite(dist)].astype(int)
    for level, count in sorted(collections.Counter(reached).items()):
        print("%d %d" % (level, count))
    print("reached %d" % len(reached))


def main():
    levels(sys.argv[1])


if __name__ == "__main__":
    main()
