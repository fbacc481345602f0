#!/usr/bin/python3
"""Checks examples/sssp.mlir's output against Dijkstra's algorithm in plain
Python (heapq) on the same graph: edge i -> j of length |A(i, j)| for every
stored entry, distances from vertex 0. Every reachable vertex must be
listed with exactly the same double, no unreachable one listed, the fill
must be inf, and the round count at most the number of vertices.

  sssp_reference.py GRAPH.mtx SA_OUTPUT
"""

import heapq
import math
import sys

import scipy.io
import scipy.sparse


def dijkstra(path):
    a = scipy.sparse.coo_matrix(scipy.io.mmread(path))
    n = a.shape[0]
    adj = [[] for _ in range(n)]
    for i, j, w in zip(a.row, a.col, a.data):
        adj[i].append((j, abs(float(w))))
    dist = [math.inf] * n
    dist[0] = 0.0
    heap = [(0.0, 0)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in adj[u]:
            if d + w < dist[v]:
                dist[v] = d + w
                heapq.heappush(heap, (dist[v], v))
    return n, dist


def main():
    graph, output = sys.argv[1], sys.argv[2]
    n, dist = dijkstra(graph)
    lines = open(output).read().split("\n")
    assert lines[0].startswith("rounds "), lines[0]
    rounds = int(lines[0].split()[1])
    problems = []
    if not 1 <= rounds <= n:
        problems.append("rounds %d for %d vertices" % (rounds, n))
    if lines[1] != "# fill: inf":
        problems.append("fill line %r" % lines[1])
    rank, nnz = (int(x) for x in lines[2].split())
    got = {}
    for line in lines[4:4 + nnz]:
        i, d = line.split()
        got[int(i) - 1] = float(d)
    for v in range(n):
        want = dist[v]
        have = got.get(v, math.inf)
        if want != have:
            problems.append("vertex %d: %r, expected %r" % (v, have, want))
    if problems:
        print("\n".join(problems[:10]))
        return 1
    print("ok: %d vertices, %d reachable, %d rounds" % (n, sum(1 for d in dist if d < math.inf), rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
