#!/usr/bin/python3
"""Writes a synthetic MRI-like slice and a region-of-interest mask as Matrix
Market files for examples/edge-detection.mlir: an elliptic "head" of
grayscale tissue (0-255, brighter towards a rim and a few bright blobs,
with noise) on a black background (the fill 0), and a disc ROI.

  examples/mri_phantom.py IMAGE.mtx ROI.mtx [--size N] [--seed S]
"""

import argparse
import math
import random


def phantom(n, rng):
    img = {}
    cy, cx = n / 2, n / 2
    ry, rx = 0.42 * n, 0.34 * n
    blobs = [(cy + rng.uniform(-0.2, 0.2) * n, cx + rng.uniform(-0.15, 0.15) * n,
              rng.uniform(0.03, 0.07) * n) for _ in range(4)]
    for y in range(n):
        for x in range(n):
            r = math.hypot((y - cy) / ry, (x - cx) / rx)
            if r > 1:
                continue
            v = 120 + 110 * r ** 6          # tissue, bright skull rim
            for by, bx, br in blobs:
                if math.hypot(y - by, x - bx) < br:
                    v += 90
            v += rng.gauss(0, 12)
            v = int(max(0, min(255, round(v))))
            if v:
                img[(y, x)] = v
    return img


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("image")
    p.add_argument("roi")
    p.add_argument("--size", type=int, default=256)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = random.Random(args.seed)
    n = args.size
    img = phantom(n, rng)
    with open(args.image, "w") as f:
        f.write("%%MatrixMarket matrix coordinate integer general\n")
        f.write("%d %d %d\n" % (n, n, len(img)))
        for (y, x), v in sorted(img.items()):
            f.write("%d %d %d\n" % (y + 1, x + 1, v))
    roi = [(y, x) for y in range(n) for x in range(n)
           if math.hypot(y - 0.45 * n, x - 0.55 * n) < 0.3 * n]
    with open(args.roi, "w") as f:
        f.write("%%MatrixMarket matrix coordinate pattern general\n")
        f.write("%d %d %d\n" % (n, n, len(roi)))
        for y, x in roi:
            f.write("%d %d\n" % (y + 1, x + 1))


if __name__ == "__main__":
    main()
