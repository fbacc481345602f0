#!/usr/bin/python3
"""Checks examples/power-iteration.mlir's output (seconds, then x[0:8])
against the same 200 steps computed with scipy: y = A x, x = y / sum(y)."""

import sys

import numpy as np
import scipy.io

A = scipy.io.mmread(sys.argv[1]).tocsr()
x = np.ones(A.shape[0])
for _ in range(200):
    y = A @ x
    x = y / y.sum()
lines = open(sys.argv[2]).read().split("\n")
float(lines[0])  # the seconds
entries = {}
for line in lines[4:]:
    parts = line.split()
    if len(parts) == 2:
        entries[int(parts[0]) - 1] = float(parts[1])
for i in range(8):
    got = entries.get(i, 0.0)
    if abs(got - x[i]) > 1e-9 * abs(x[i]):
        sys.exit("x[%d] = %r, expected %r" % (i, got, x[i]))
print("ok: %d vertices" % A.shape[0])
