#!/usr/bin/python3
"""Checks examples/edge-detection.mlir's printed edge map against numpy on
the dense image: ((img >= 204) & roi) ^ ((img >= 192) & roi).

  edge_reference.py IMAGE.mtx ROI.mtx SA_OUTPUT
"""

import sys

import numpy as np
import scipy.io


def main():
    img = scipy.io.mmread(sys.argv[1]).toarray()
    roi = scipy.io.mmread(sys.argv[2]).toarray() != 0
    want = ((img >= 204) & roi) ^ ((img >= 192) & roi)
    lines = open(sys.argv[3]).read().split("\n")
    assert lines[0] == "# fill: 0", lines[0]
    rank, nnz = (int(x) for x in lines[1].split())
    got = np.zeros_like(want)
    for line in lines[3:3 + nnz]:
        y, x, v = (int(t) for t in line.split())
        assert v == 1, line
        got[y - 1, x - 1] = True
    if not np.array_equal(got, want):
        print("differs at %d pixels" % int((got != want).sum()))
        return 1
    print("ok: %d edge pixels of %d in the ROI" % (int(want.sum()), int(roi.sum())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
