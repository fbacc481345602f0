"""Independent reference for examples/shortest-paths-dense.mlir: builds the
same generated graph and runs Floyd-Warshall in Python, printing the distance
matrix in the runtime's number format (shortest exact digits, plain when
possible, inf for unreachable)."""

import math

N = 8
d = [[math.inf] * N for _ in range(N)]
for i in range(N):
    d[i][i] = 0.0
    d[i][(i + 1) % N] = float(1 + i % 3)
    if i % 2 == 0:
        d[i][(i + 3) % N] = 4.0
for k in range(N):
    for i in range(N):
        for j in range(N):
            d[i][j] = min(d[i][j], d[i][k] + d[k][j])


def fmt(x):
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return "%d" % x if x == int(x) and abs(x) < 1e16 else repr(x)


for row in d:
    print("".join(fmt(x) + " " for x in row))
