#!/usr/bin/python3
"""Kernels planned parallel, run with 1, 2 and 4 threads and checked.

Random CSR matrices and dense operands (f64 values with NaN, ±inf and
-0.0; i64 values near the wrap-around) go through kernels whose outermost
loop sparse-array-plan-parallel shares out among threads: mxv with the
standard library's exact add and mul (a left fold of every product, the
implicit zeros' included: 0 · inf is NaN), row maxima, i64 row sums that
wrap, an element-wise add of a CSR and a dense matrix, and the same with a
declared result fill the derivation does not give (every point computed);
sparse results assembled by parallel rows in chained parts (claimed in
order, each copied to where the one before it ended; two phases — count,
scan, fill — or parts joined after the loop with --assembly): CSR + CSR
into CSR with cancelling entries (dropped: no result
stores its fill), CSR + dense into CSC; CSR + CSR into DCSR, COO and
[compressed, dense] in parts (each part's rows on their own, the buffers
joined in order); DCSR + DCSR and COO + COO (rows that are stored
coordinates: ranges of them cut at A's, each range's segments found by
bisection) into DCSR, CSR, dense and COO, DCSR and COO plus a dense
matrix (every row visited, U: equal ranges of rows), DCSR row sums into a
compressed vector; a row-wise product (i64 SpGEMM,
wrapping: rows in parts of equal products, a workspace per part, the
parts' entries joined in order), and under a complemented mask; a
compressed vector result (masked i64 mxv) assembled in parts; scalar
reductions in parts combined in order (wrapping i64 sum, f64 max, i64 min
exiting early at -2**63, and the exact f64 add, which stays sequential);
column sums and maxima (scatter reductions: each part of the rows
accumulates per column on its own, combined in part order) of CSR and
DCSR into dense and compressed vectors, with an identity, with counts of
implicit entries and without an identity.
Every sparse result's stored count is checked too (print hides stored
fills).
Each output is compared entry by entry with an independent reference
(numpy on scalars, folding left in column order) and, bit for bit, with
the other thread counts' outputs: nothing is reassociated across rows.
Sizes are static in one half of the variants and known only at run time
(sparse_array.convert to ?-sized types) in the other, where the plan's
min_extent is checked at run time.

  parallel.py --sa-run build/bin/sa-run --stdlib stdlib/std.mlir \\
      [--count 8] [--seed 1] [--threads 1,2,4] [--min-extent 0]
      [--tsan build/lib/libsparse_array_runtime.so [--race-check]]

With --tsan the same programs are compiled ahead of time (sa-opt,
mlir-translate, clang -fsanitize=thread) and run under ThreadSanitizer with
LLVM's Archer OpenMP tool: any reported race fails, and --race-check shows
the set-up reports one in a loop written to race.
"""

import argparse
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Elementwise"))
import elementwise as ew  # noqa: E402

SPECIAL = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0]


def f64_values(rng, n):
    vals = [round(rng.uniform(-8, 8), 3) for _ in range(n)]
    for k in range(n):
        if rng.random() < 0.02:
            vals[k] = rng.choice(SPECIAL)
    return vals


def sparse_matrix(rng, rows, cols, t, density):
    arr = np.zeros((rows, cols), dtype=ew.NP_TYPES[t])
    stored = np.zeros((rows, cols), dtype=bool)
    for i in range(rows):
        for j in range(cols):
            if rng.random() < density:
                stored[i, j] = True
                if t == "f64":
                    arr[i, j] = f64_values(rng, 1)[0]
                else:
                    arr[i, j] = rng.choice([2**62, -2**62, 2**63 - 1, 7, -3])
    return arr, stored


def fold(values, fn):
    acc = values[0]
    for v in values[1:]:
        acc = fn(acc, v)
    return acc


def exact_add(a, b):
    with np.errstate(all="ignore"):
        return float(np.float64(a) + np.float64(b))


def exact_max(a, b):
    # maximumf: NaN if either is NaN; +0.0 above -0.0.
    if math.isnan(a) or math.isnan(b):
        return float("nan")
    if a == b == 0:
        return 0.0 if math.copysign(1, a) > 0 or math.copysign(1, b) > 0 else -0.0
    return max(a, b)


def wrap_add(a, b):
    s = (int(a) + int(b)) & (2**64 - 1)
    return s - 2**64 if s >= 2**63 else s


def define(lines, name, tag, text, typ, dyn_typ):
    """%name_tag = text (of type typ), converted to dyn_typ (sizes known only
    at run time) unless that is None: (its reference, its type)."""
    ref = "%%%s_%s" % (name, tag)
    lines.append("  %s = %s" % (ref, text))
    if dyn_typ is None:
        return ref, typ
    lines.append("  %s_dyn = sparse_array.convert %s : %s to %s" % (ref, ref, typ, dyn_typ))
    return ref + "_dyn", dyn_typ


def variant(rng, tag, dynamic):
    """(program lines, [(name, type, element type, dense expected)])."""
    rows = rng.choice([300, 520, 700])
    cols = rng.choice([40, 90])
    density = rng.choice([0.05, 0.3])
    a, sa = sparse_matrix(rng, rows, cols, "f64", density)
    if rng.random() < 0.5:
        # Rows past the last entry: the last part of a balanced loop
        # must still reach them.
        a[-10:], sa[-10:] = 0, False
    if rng.random() < 0.5:
        # Rows before A's first: the first range of stored rows starts at 0.
        a[:3], sa[:3] = 0, False
    ai, sai = sparse_matrix(rng, rows, cols, "i64", density)
    x = np.array(f64_values(rng, cols))
    d = np.array(f64_values(rng, rows * cols)).reshape(rows, cols)
    q = "?" if dynamic else None
    shape2 = [q or rows, q or cols]
    csr = ew.array_type([rows, cols], "f64", "csr", 2, 0.0)
    csri = ew.array_type([rows, cols], "i64", "csr", 2, 0)
    dm = ew.array_type([rows, cols], "f64", "dense", 2, 0.0)
    dv = ew.array_type([cols], "f64", "dense", 1, 0.0)
    lines = [
        "  %%a_%s = %s" % (tag, ew.sparse_constant(a, sa, "f64", csr, 0.0)),
        "  %%ai_%s = %s" % (tag, ew.sparse_constant(ai, sai, "i64", csri, 0)),
        "  %%x_%s = %s" % (tag, ew.constant(x, "f64", "dense", dv)),
        "  %%d_%s = %s" % (tag, ew.constant(d, "f64", "dense", dm)),
    ]
    names = {"a": (csr, "f64"), "ai": (csri, "i64"), "x": (dv, "f64"), "d": (dm, "f64")}
    if dynamic:
        for n, (typ, t) in list(names.items()):
            fmt = {"a": "csr", "ai": "csr", "x": "dense", "d": "dense"}[n]
            shp = shape2 if n != "x" else [q]
            dtyp = ew.array_type(shp, t, fmt, len(shp), 0 if t == "i64" else 0.0)
            lines.append("  %%%s_%s_dyn = sparse_array.convert %%%s_%s : %s to %s" % (
                n, tag, n, tag, typ, dtyp))
            names[n] = (dtyp, t)
    ref = lambda n: "%%%s_%s%s" % (n, tag, "_dyn" if dynamic else "")
    typ = lambda n: names[n][0]
    yv = ew.array_type([q or rows], "f64", "dense", 1, 0.0)
    yi = ew.array_type([q or rows], "i64", "dense", 1, 0)
    ym = ew.array_type([q or rows], "f64", "dense", 1, float("-inf"))
    outs = []
    # mxv with exact add/mul: every product, implicit zeros' too.
    lines += [
        "  %%y_%s = sparse_array.kernel ins(%s, %s : %s, %s) -> %s {" % (
            tag, ref("a"), ref("x"), typ("a"), typ("x"), yv),
        "  ^bb0(%i: index, %j: index, %A: " + typ("a") + ", %X: " + typ("x") + "):",
        "    %aij = sparse_array.access %A[%i, %j] : " + typ("a"),
        "    %xj = sparse_array.access %X[%j] : " + typ("x"),
        "    %p = sparse_array.apply @mul_f64(%aij, %xj) : (f64, f64) -> f64",
        "    %s = sparse_array.reduce_over [%j] %p with @add_f64 : f64",
        "    sparse_array.yield %s : f64",
        "  }"]
    with np.errstate(all="ignore"):
        prods = [[float(np.float64(a[i, j]) * np.float64(x[j])) for j in range(cols)]
                 for i in range(rows)]
    outs.append(("%%y_%s" % tag, yv, "f64",
                 np.array([fold(r, exact_add) for r in prods]), 0.0))
    # Row maxima (NaN wins, +0.0 over -0.0), result fill -inf.
    lines.append("  %%m_%s = sparse_array.reduce @max_f64 %s dims [1] : %s -> %s" % (
        tag, ref("a"), typ("a"), ym))
    outs.append(("%%m_%s" % tag, ym, "f64",
                 np.array([fold(list(map(float, a[i])), exact_max) for i in range(rows)]),
                 float("-inf")))
    # i64 row sums, wrapping.
    lines.append("  %%s_%s = sparse_array.reduce @add_i64 %s dims [1] : %s -> %s" % (
        tag, ref("ai"), typ("ai"), yi))
    outs.append(("%%s_%s" % tag, yi, "i64",
                 np.array([fold([int(v) for v in ai[i]], wrap_add) for i in range(rows)],
                          dtype=np.int64), 0))
    # CSR + dense into dense; then with a declared fill of 7 (every point).
    rm = ew.array_type(shape2, "f64", "dense", 2, 0.0)
    r7 = ew.array_type(shape2, "f64", "dense", 2, 7.0)
    summed = np.array([[exact_add(a[i, j], d[i, j]) for j in range(cols)]
                       for i in range(rows)])
    for name, rt, fill in (("e", rm, 0.0), ("f", r7, 7.0)):
        lines.append("  %%%s_%s = sparse_array.map @add_f64(%s, %s) : (%s, %s) -> %s" % (
            name, tag, ref("a"), ref("d"), typ("a"), typ("d"), rt))
        outs.append(("%%%s_%s" % (name, tag), rt, "f64", summed, fill))
    # Sparse results assembled by parallel rows in two phases: CSR + CSR
    # into CSR (entries summing to 0.0, the fill, dropped), CSR + dense
    # into CSC (its loops run over columns).
    b2, sb2 = sparse_matrix(rng, rows, cols, "f64", density)
    for i, j in zip(*np.nonzero(sa)):
        if rng.random() < 0.2:  # cancelling entries
            b2[i, j], sb2[i, j] = -a[i, j], True
    b2ref, b2typ = define(lines, "b2", tag, ew.sparse_constant(b2, sb2, "f64", csr, 0.0),
                          csr, typ("a") if dynamic else None)
    rcsr = ew.array_type(shape2, "f64", "csr", 2, 0.0)
    rcsc = ew.array_type(shape2, "f64", "csc", 2, 0.0)
    lines.append("  %%g_%s = sparse_array.map @add_f64(%s, %s) : (%s, %s) -> %s" % (
        tag, ref("a"), b2ref, typ("a"), b2typ, rcsr))
    outs.append(("%%g_%s" % tag, rcsr, "f64",
                 np.array([[exact_add(a[i, j], b2[i, j]) for j in range(cols)]
                           for i in range(rows)]), 0.0))
    lines.append("  %%h_%s = sparse_array.map @add_f64(%s, %s) : (%s, %s) -> %s" % (
        tag, ref("a"), ref("d"), typ("a"), typ("d"), rcsc))
    outs.append(("%%h_%s" % tag, rcsc, "f64", summed, 0.0))
    # Other sparse results in parts (each part's rows assembled on their
    # own, the buffers joined in order): CSR + CSR into DCSR, COO and a
    # compressed-over-dense layout; cancelled entries dropped.
    for fmt in ("dcsr", "coo", "cd"):
        rt = ew.array_type(shape2, "f64", fmt, 2, 0.0)
        lines.append("  %%g%s_%s = sparse_array.map @add_f64(%s, %s) : (%s, %s) -> %s" % (
            fmt, tag, ref("a"), b2ref, typ("a"), b2typ, rt))
        outs.append(("%%g%s_%s" % (fmt, tag), rt, "f64",
                     np.array([[exact_add(a[i, j], b2[i, j]) for j in range(cols)]
                               for i in range(rows)]), 0.0))
    # Inputs whose rows are stored coordinates (DCSR, COO): the outermost
    # loop's coordinates cut into ranges at A's stored rows, each range's
    # segments found by bisection; results in parts (DCSR, COO, CSR) or in
    # place (dense). B2 keeps rows A lacks (the first range starts at 0).
    summed2 = np.array([[exact_add(a[i, j], b2[i, j]) for j in range(cols)]
                        for i in range(rows)])
    stored_refs = {}
    for fmt in ("dcsr", "coo"):
        st = ew.array_type(shape2, "f64", fmt, 2, 0.0)
        stored_refs[fmt] = [st]
        for src in ("a", "b2"):
            r = "%%%s%s_%s" % (src, fmt, tag)
            lines.append("  %s = sparse_array.convert %s : %s to %s" % (
                r, ref("a") if src == "a" else b2ref,
                typ("a") if src == "a" else b2typ, st))
            stored_refs[fmt].append(r)
    for fmt, rfmt in (("dcsr", "dcsr"), ("dcsr", "csr"), ("dcsr", "dense"),
                      ("coo", "coo"), ("coo", "dcsr")):
        st, ra, rb = stored_refs[fmt]
        rt = ew.array_type(shape2, "f64", rfmt, 2, 0.0)
        name = "%%r%s%s_%s" % (fmt, rfmt, tag)
        lines.append("  %s = sparse_array.map @add_f64(%s, %s) : (%s, %s) -> %s" % (
            name, ra, rb, st, st, rt))
        outs.append((name, rt, "f64", summed2, 0.0))
    # Stored rows plus a dense matrix: the outermost loop visits every
    # row (U) and steps A's stored rows, in equal ranges of rows (no cut
    # input), each range's counted loop over its rows only; into dense,
    # DCSR and CSR.
    for fmt, rfmt in (("dcsr", "dense"), ("dcsr", "dcsr"), ("coo", "csr")):
        st, ra, _ = stored_refs[fmt]
        rt = ew.array_type(shape2, "f64", rfmt, 2, 0.0)
        name = "%%u%s%s_%s" % (fmt, rfmt, tag)
        lines.append("  %s = sparse_array.map @add_f64(%s, %s) : (%s, %s) -> %s" % (
            name, ra, ref("d"), st, typ("d"), rt))
        outs.append((name, rt, "f64", summed, 0.0))
    # Row sums (wrapping i64) of a DCSR into a compressed vector: rows
    # A stores, in ranges.
    aid = ew.array_type(shape2, "i64", "dcsr", 2, 0)
    ysi = ew.array_type([q or rows], "i64", "sparse", 1, 0)
    lines.append("  %%aid_%s = sparse_array.convert %s : %s to %s" % (
        tag, ref("ai"), typ("ai"), aid))
    lines.append("  %%sd_%s = sparse_array.reduce @add_i64 %%aid_%s dims [1] : %s -> %s" % (
        tag, tag, aid, ysi))
    outs.append(("%%sd_%s" % tag, ysi, "i64",
                 np.array([fold([int(v) for v in ai[i]], wrap_add) for i in range(rows)],
                          dtype=np.int64), 0))
    # A row-wise (Gustavson) product, i64 wrapping: rows in parts of equal
    # products, a workspace each; products wrapping to 0 are dropped.
    p2 = rng.choice([30, 70])
    bi, sbi = sparse_matrix(rng, cols, p2, "i64", density)
    bcsr = ew.array_type([cols, p2], "i64", "csr", 2, 0)
    biref, bityp = define(lines, "bi", tag, ew.sparse_constant(bi, sbi, "i64", bcsr, 0), bcsr,
                          ew.array_type([q, q], "i64", "csr", 2, 0) if dynamic else None)
    rci = ew.array_type([q or rows, q or p2], "i64", "csr", 2, 0)
    lines += [
        "  %%c_%s = sparse_array.kernel ins(%s, %s : %s, %s) -> %s {" % (
            tag, ref("ai"), biref, typ("ai"), bityp, rci),
        "  ^bb0(%i: index, %j: index, %k: index, %A: " + typ("ai") + ", %B: " + bityp + "):",
        "    %aik = sparse_array.access %A[%i, %k] : " + typ("ai"),
        "    %bkj = sparse_array.access %B[%k, %j] : " + bityp,
        "    %p = sparse_array.apply @mul_i64(%aik, %bkj) : (i64, i64) -> i64",
        "    %s = sparse_array.reduce_over [%k] %p with @add_i64 : i64",
        "    sparse_array.yield %s : i64",
        "  }"]
    prod = np.zeros((rows, p2), dtype=np.int64)
    for i in range(rows):
        for j in range(p2):
            acc = sum(int(ai[i, k]) * int(bi[k, j]) for k in range(cols))
            acc &= 2**64 - 1
            prod[i, j] = acc - 2**64 if acc >= 2**63 else acc
    outs.append(("%%c_%s" % tag, rci, "i64", prod, 0))
    # The same under the complement of a mask stored by rows (C<¬M> = A B):
    # each part scatters the mask's rows into marks of its own.
    mask = np.array([[rng.random() < 0.4 for _ in range(p2)] for _ in range(rows)])
    mtyp = ew.array_type([rows, p2], "i1", "csr", 2, False)
    mref, mtyp = define(lines, "mk", tag, ew.sparse_constant(mask, mask, "i1", mtyp, False),
                        mtyp, ew.array_type([q, q], "i1", "csr", 2, False) if dynamic else None)
    lines += [
        "  %%cm_%s = sparse_array.kernel ins(%s, %s, %s : %s, %s, %s) -> %s {" % (
            tag, ref("ai"), biref, mref, typ("ai"), bityp, mtyp, rci),
        "  ^bb0(%i: index, %j: index, %k: index, %A: " + typ("ai") + ", %B: " + bityp +
        ", %M: " + mtyp + "):",
        "    %aik = sparse_array.access %A[%i, %k] : " + typ("ai"),
        "    %bkj = sparse_array.access %B[%k, %j] : " + bityp,
        "    %p = sparse_array.apply @mul_i64(%aik, %bkj) : (i64, i64) -> i64",
        "    %s = sparse_array.reduce_over [%k] %p with @add_i64 : i64",
        "    %mij = sparse_array.access %M[%i, %j] : " + mtyp,
        "    %r = sparse_array.apply @keep_unless_i64(%mij, %s) : (i1, i64) -> i64",
        "    sparse_array.yield %r : i64",
        "  }"]
    outs.append(("%%cm_%s" % tag, rci, "i64", np.where(mask, 0, prod), 0))
    # A compressed vector result (y<¬m> = A x, i64 wrapping): the rows'
    # parts append to buffers of their own, joined in order.
    # Products of ±2**62 with 4, 0 or 2**62 wrap to 0, 5 times 4 or 2**62
    # does not: many rows sum to 0, a computed fill to drop.
    xi = np.array([rng.choice([4, 0, 2**62]) for _ in range(cols)], dtype=np.int64)
    av = np.zeros((rows, cols), dtype=np.int64)
    for i, j in zip(*np.nonzero(sai)):
        av[i, j] = rng.choice([2**62, -2**62, 5, 2**62])
    avref, avtyp = define(lines, "av", tag, ew.sparse_constant(av, sai, "i64", csri, 0), csri,
                          typ("ai") if dynamic else None)
    mv = np.array([rng.random() < 0.3 for _ in range(rows)])
    xtyp = ew.array_type([cols], "i64", "dense", 1, 0)
    mvtyp = ew.array_type([rows], "i1", "dense", 1, False)
    xref, xtyp = define(lines, "xi", tag, ew.constant(xi, "i64", "dense", xtyp), xtyp,
                        ew.array_type([q], "i64", "dense", 1, 0) if dynamic else None)
    mvref, mvtyp = define(lines, "mv", tag, ew.constant(mv, "i1", "dense", mvtyp), mvtyp,
                          ew.array_type([q], "i1", "dense", 1, False) if dynamic else None)
    ysp = ew.array_type([q or rows], "i64", "sparse", 1, 0)
    lines += [
        "  %%yv_%s = sparse_array.kernel ins(%s, %s, %s : %s, %s, %s) -> %s {" % (
            tag, mvref, avref, xref, mvtyp, avtyp, xtyp, ysp),
        "  ^bb0(%i: index, %j: index, %M: " + mvtyp + ", %A: " + avtyp +
        ", %X: " + xtyp + "):",
        "    %mi = sparse_array.access %M[%i] : " + mvtyp,
        "    %aij = sparse_array.access %A[%i, %j] : " + avtyp,
        "    %xj = sparse_array.access %X[%j] : " + xtyp,
        "    %p = sparse_array.apply @mul_i64(%aij, %xj) : (i64, i64) -> i64",
        "    %s = sparse_array.reduce_over [%j] %p with @add_i64 : i64",
        "    %r = sparse_array.apply @keep_unless_i64(%mi, %s) : (i1, i64) -> i64",
        "    sparse_array.yield %r : i64",
        "  }"]
    yref = np.zeros(rows, dtype=np.int64)
    for i in range(rows):
        acc = sum(int(av[i, j]) * int(xi[j]) for j in range(cols)) & (2**64 - 1)
        yref[i] = 0 if mv[i] else (acc - 2**64 if acc >= 2**63 else acc)
    outs.append(("%%yv_%s" % tag, ysp, "i64", yref, 0))
    # Scatter reductions (column sums of CSR: each row's entries combine
    # into the result entries of their columns): each part of the rows
    # accumulates on its own, the parts combined per entry in order.
    # Wrapping i64 sums (identity 0) into a dense and a compressed vector
    # (columns summing to 0 dropped), from CSR and, in ranges of stored
    # rows, from DCSR; f64 maxima (implicit zeros counted per entry, NaN
    # wins, +0.0 over -0.0); i64 sums of a matrix with fill 1 (the implicit
    # ones added per entry from counts); an associative sum without an
    # identity (each entry's first point starts it: parts that reach none
    # are skipped); the exact f64 add stays sequential.
    cols_wrap = np.array([fold([int(v) for v in ai[:, j]], wrap_add) for j in range(cols)],
                         dtype=np.int64)
    yci = ew.array_type([q or cols], "i64", "dense", 1, 0)
    ycs = ew.array_type([q or cols], "i64", "sparse", 1, 0)
    for name, src, styp, rt in (("cs", ref("ai"), typ("ai"), yci),
                                ("cv", ref("ai"), typ("ai"), ycs),
                                ("cd", "%%aid_%s" % tag, aid, yci)):
        lines.append("  %%%s_%s = sparse_array.reduce @add_i64 %s dims [0] : %s -> %s" % (
            name, tag, src, styp, rt))
        outs.append(("%%%s_%s" % (name, tag), rt, "i64", cols_wrap, 0))
    ycm = ew.array_type([q or cols], "f64", "dense", 1, float("-inf"))
    lines.append("  %%cx_%s = sparse_array.reduce @max_f64 %s dims [0] : %s -> %s" % (
        tag, ref("a"), typ("a"), ycm))
    outs.append(("%%cx_%s" % tag, ycm, "f64",
                 np.array([fold(list(map(float, a[:, j])), exact_max) for j in range(cols)]),
                 float("-inf")))
    ones = np.where(sai, ai, 1)
    c1typ = ew.array_type([rows, cols], "i64", "csr", 2, 1)
    c1ref, c1typ = define(lines, "c1", tag, ew.sparse_constant(ones, sai, "i64", c1typ, 1),
                          c1typ, ew.array_type([q, q], "i64", "csr", 2, 1) if dynamic else None)
    for name, fn in (("co", "add_i64"), ("cn", "add_noid_i64")):
        lines.append("  %%%s_%s = sparse_array.reduce @%s %s dims [0] : %s -> %s" % (
            name, tag, fn, c1ref, c1typ, yci))
        outs.append(("%%%s_%s" % (name, tag), yci, "i64",
                     np.array([fold([int(v) for v in ones[:, j]], wrap_add)
                               for j in range(cols)], dtype=np.int64), 0))
    ycf = ew.array_type([q or cols], "f64", "dense", 1, 0.0)
    lines.append("  %%cf_%s = sparse_array.reduce @add_f64 %s dims [0] : %s -> %s" % (
        tag, ref("a"), typ("a"), ycf))
    outs.append(("%%cf_%s" % tag, ycf, "f64",
                 np.array([fold(list(map(float, a[:, j])), exact_add) for j in range(cols)]),
                 0.0))
    # Scalar reductions: the first loop in parts, the parts' results
    # combined in order. Wrapping i64 sums (exact in any grouping), f64 max
    # (NaN wins, +0.0 over -0.0; implicit zeros count), i64 min that exits
    # early at its annihilator -2**63 (in some parts only), and the
    # standard library's exact f64 add (not associative: sequential).
    s0i = "!sparse_array.array<i64>"
    s0f = "!sparse_array.array<f64>"
    lines.append("  %%ts_%s = sparse_array.reduce @add_i64 %s dims [0, 1] : %s -> %s" % (
        tag, ref("ai"), typ("ai"), s0i))
    total = sum(int(v) for v in ai.flat) & (2**64 - 1)
    outs.append(("%%ts_%s" % tag, s0i, "i64",
                 np.array(total - 2**64 if total >= 2**63 else total, dtype=np.int64), 0))
    lines.append("  %%tm_%s = sparse_array.reduce @max_f64 %s dims [0, 1] : %s -> %s" % (
        tag, ref("a"), typ("a"), s0f))
    outs.append(("%%tm_%s" % tag, s0f, "f64",
                 np.array(fold([float(v) for v in a.flat], exact_max)), 0.0))
    ev = np.array([rng.choice([5, -7, 2**62, -2**62]) for _ in range(rows * 40)],
                  dtype=np.int64)
    if rng.random() < 0.7:
        ev[rng.randrange(len(ev))] = -2**63
    evtyp = ew.array_type([len(ev)], "i64", "dense", 1, 0)
    evref, evtyp = define(lines, "ev", tag, ew.constant(ev, "i64", "dense", evtyp), evtyp,
                          ew.array_type([q], "i64", "dense", 1, 0) if dynamic else None)
    lines.append("  %%tn_%s = sparse_array.reduce @min_i64 %s dims [0] : %s -> %s" % (
        tag, evref, evtyp, s0i))
    outs.append(("%%tn_%s" % tag, s0i, "i64", np.array(int(ev.min()), dtype=np.int64), 0))
    lines.append("  %%tf_%s = sparse_array.reduce @add_f64 %s dims [0, 1] : %s -> %s" % (
        tag, ref("a"), typ("a"), s0f))
    outs.append(("%%tf_%s" % tag, s0f, "f64",
                 np.array(fold([float(v) for v in a.flat], exact_add)), 0.0))
    for name, rt, t, _, _ in outs:
        lines.append("  sparse_array.print %s : %s" % (name, rt))
        if "compressed" in rt:
            # print shows entries that are not the fill; the stored count
            # shows whether computed fills were dropped.
            sfx = name[1:]
            lines += [
                "  %%sv_%s = sparse_array.values %s : %s -> memref<?x%s>" % (sfx, name, rt, t),
                "  %%sn_%s = memref.dim %%sv_%s, %%c0_idx : memref<?x%s>" % (sfx, sfx, t),
                "  %%sl_%s = arith.index_cast %%sn_%s : index to i64" % (sfx, sfx),
                "  func.call @sa_rt_print_i64(%%sl_%s) : (i64) -> ()" % sfx,
                "  func.call @sa_rt_print_newline() : () -> ()"]
    return lines, outs


# C<¬M>: the product where the mask is false, else the fill.
KEEP_UNLESS = """
sparse_array.func @keep_unless_i64(%m: i1, %x: i64) -> i64
    attributes {algebra = #sparse_array.algebra<intersect(complement(0), 1),
                                                fills = [false, 0 : i64]>} {
  %z = arith.constant 0 : i64
  %r = arith.select %m, %z, %x : i64
  sparse_array.yield %r : i64
}
"""


# A wrapping sum declared associative with no identity: a scatter
# reduction's entry starts at its first point.
ADD_NOID = """
sparse_array.func @add_noid_i64(%x: i64, %y: i64) -> i64
    attributes {commutative, associative} {
  %r = arith.addi %x, %y : i64
  sparse_array.yield %r : i64
}
"""


PRINT_DECLS = """
func.func private @sa_rt_print_i64(i64)
func.func private @sa_rt_print_newline()
"""


def run(args, program, threads):
    if args.tsan:
        return run_tsan(args, program, threads)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(program)
        path = f.name
    flags = ["--disable-openmp"] if threads == 0 else ["--num-threads=%d" % threads]
    if args.min_extent:
        flags.append("--parallel-min-extent=%d" % args.min_extent)
    if args.min_work:
        flags.append("--parallel-min-work=%d" % args.min_work)
    flags.append("--parallel-assembly=" + args.assembly)
    proc = subprocess.run([args.sa_run] + flags + [path], capture_output=True,
                          text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit("sa-run %s failed (%d), program kept at %s:\n%s" % (
            " ".join(flags), proc.returncode, path, proc.stderr[-3000:]))
    os.unlink(path)
    return proc.stdout.splitlines()


# ThreadSanitizer (--tsan): the program compiled ahead of time with every
# function instrumented (the JIT's code is not), OpenMP's synchronization
# made visible to TSan by LLVM's Archer tool (libarcher), and a reported
# race is a failure.
DRIVER = "void sa_program_main(void);\nint main(void) { sa_program_main(); return 0; }\n"
_tsan_programs = {}


def tsan_executable(args, program):
    if program in _tsan_programs:
        return _tsan_programs[program]
    work = tempfile.mkdtemp(prefix="sa-tsan-")
    src = os.path.join(work, "program.mlir")
    with open(src, "w") as f:
        f.write(program)
    pipeline = "--sparse-array-pipeline=parallel-assembly=" + args.assembly
    if args.min_extent:
        pipeline += " parallel-min-extent=%d" % args.min_extent
    if args.min_work:
        pipeline += " parallel-min-work=%d" % args.min_work
    low = os.path.join(work, "program.llvm.mlir")
    steps = [[args.sa_opt, src, pipeline, "-o", low]]
    for cmd in steps:
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit("%s failed:\n%s" % (" ".join(cmd), proc.stderr[-3000:]))
    proc = subprocess.run(["mlir-translate", "--mlir-to-llvmir", low],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("mlir-translate failed:\n%s" % proc.stderr[-3000:])
    # TSan instruments only functions that ask for it; OpenMP's outlined
    # bodies are functions too.
    ir = re.sub(r"^(define .*\)[^{\n]*) \{$", r"\1 sanitize_thread {", proc.stdout,
                flags=re.M)
    ir = ir.replace("@main(", "@sa_program_main(")
    if ir.count("sanitize_thread {") < 2:
        sys.exit("no function definitions instrumented")
    with open(os.path.join(work, "program.ll"), "w") as f:
        f.write(ir)
    with open(os.path.join(work, "driver.c"), "w") as f:
        f.write(DRIVER)
    lib = os.path.dirname(os.path.abspath(args.tsan))
    exe = os.path.join(work, "program")
    cmd = [args.clang, "-O1", "-fsanitize=thread", "-fopenmp", "-Wno-override-module",
           os.path.join(work, "program.ll"), os.path.join(work, "driver.c"),
           args.tsan, "-Wl,-rpath," + lib, "-lm", "-o", exe]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(cmd), proc.stderr[-3000:]))
    _tsan_programs[program] = exe
    return exe


def remove_tsan_builds():
    for exe in _tsan_programs.values():
        shutil.rmtree(os.path.dirname(exe), ignore_errors=True)


def run_tsan(args, program, threads):
    exe = tsan_executable(args, program)
    env = dict(os.environ, OMP_NUM_THREADS=str(max(threads, 1)),
               OMP_TOOL_LIBRARIES=args.archer,
               TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1 "
                            "exitcode=66")
    proc = subprocess.run([exe], capture_output=True, text=True, env=env, timeout=1200)
    if proc.returncode != 0 or "ThreadSanitizer" in proc.stderr:
        sys.exit("under ThreadSanitizer with %d threads (exit %d), kept in %s:\n%s" % (
            threads, proc.returncode, os.path.dirname(exe), proc.stderr[-4000:]))
    return proc.stdout.splitlines()


def race_check(args):
    """The checker must see a race: every iteration of a parallel loop
    updates one memref element."""
    program = """func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4096 : index
  %m = memref.alloc() : memref<1xindex>
  memref.store %c0, %m[%c0] : memref<1xindex>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %m[%c0] : memref<1xindex>
    %w = arith.addi %v, %i : index
    memref.store %w, %m[%c0] : memref<1xindex>
  }
  memref.dealloc %m : memref<1xindex>
  return
}
"""
    exe = tsan_executable(args, program)
    env = dict(os.environ, OMP_NUM_THREADS="4", OMP_TOOL_LIBRARIES=args.archer,
               TSAN_OPTIONS="ignore_noninstrumented_modules=1 exitcode=66")
    proc = subprocess.run([exe], capture_output=True, text=True, env=env, timeout=600)
    seen = "WARNING: ThreadSanitizer: data race" in proc.stderr
    print("race in a racy loop %s" % ("reported" if seen else "NOT reported"))
    if seen:
        remove_tsan_builds()
    return 0 if seen else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sa-run", required=True)
    p.add_argument("--stdlib", required=True)
    p.add_argument("--count", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", default="0,1,2,4",
                   help="thread counts to compare (0: OpenMP disabled)")
    p.add_argument("--min-extent", type=int, default=0,
                   help="sa-run --parallel-min-extent (0: the plan's defaults)")
    p.add_argument("--min-work", type=int, default=0,
                   help="sa-run --parallel-min-work (0: the plan's defaults)")
    p.add_argument("--assembly", default="auto",
                   help="sa-run --parallel-assembly: how parallel CSR/CSC rows "
                        "are assembled (auto, two-phase, parts, chained)")
    p.add_argument("--tsan", default="",
                   help="the runtime library (libsparse_array_runtime.so): "
                        "compile ahead of time under ThreadSanitizer instead of sa-run")
    p.add_argument("--sa-opt", default="sa-opt")
    p.add_argument("--clang", default="clang-22")
    p.add_argument("--archer", default="/usr/lib/llvm-22/lib/libarcher.so")
    p.add_argument("--race-check", action="store_true",
                   help="with --tsan: only check that a racy loop is reported")
    args = p.parse_args()
    if args.race_check:
        return race_check(args)
    rng = random.Random(args.seed)
    body, checks = [], []
    for k in range(args.count):
        lines, outs = variant(rng, "v%d" % k, dynamic=k % 2 == 1)
        body += lines
        checks += outs
    program = open(args.stdlib).read() + KEEP_UNLESS + ADD_NOID + PRINT_DECLS + \
        "\nfunc.func @main() {\n  %c0_idx = arith.constant 0 : index\n" + \
        "\n".join(body) + "\n  return\n}\n"
    failures, printed = [], {}
    for threads in [int(t) for t in args.threads.split(",")]:
        out = run(args, program, threads)
        printed[threads] = out
        pos = 0
        for name, rt, t, expected, fill in checks:
            got_fill, entries, pos = ew.parse_printed(out, pos, t)
            if "compressed" in rt:
                stored, pos = int(out[pos]), pos + 1
                want = ew.stored_values(expected, fill, t, rt)
                # NaNs of other bits than a NaN fill are stored (LLVM's bits).
                most = ew.stored_values(expected, fill, t, rt, nan_stored=True)
                if not want <= stored <= most:
                    failures.append("%s threads=%d: stores %d entries, expected %d "
                                    "(the entries that are not the fill)" % (
                                        name, threads, stored, want))
            if not ew.same(got_fill, fill, t):
                failures.append("%s threads=%d: fill %r, expected %r" % (
                    name, threads, got_fill, fill))
            for idx, val in entries.items():
                if ew.same_bits(val, got_fill, t):
                    failures.append("%s threads=%d at %s: stores the fill %r" % (
                        name, threads, idx, val))
                    break
            got = np.full(expected.shape, got_fill, dtype=ew.NP_TYPES[t])
            for idx, val in entries.items():
                got[idx] = val
            bad = np.argwhere(~ew.same_array(got, expected, t))
            if len(bad):
                idx = tuple(bad[0])
                failures.append("%s threads=%d at %s: %r, expected %r" % (
                    name, threads, idx, got[idx], expected[idx]))
    # Bit for bit across thread counts (the printed text is the bits), but
    # for the sign of computed NaNs, which LLVM leaves unspecified.
    counts = sorted(printed)
    specs = [(name, t, "compressed" in rt) for name, rt, t, _, _ in checks]
    for c in counts[1:]:
        differs = ew.alike_outputs(specs, printed[counts[0]], printed[c])
        if differs:
            failures.append("output with %d threads differs from %d threads' at %s" % (
                c, counts[0], differs))
    for f in failures[:20]:
        print("FAIL", f)
    total = len(checks) * len(counts)
    print("%d of %d outputs passed" % (total - min(total, len(failures)), total))
    if not failures:
        remove_tsan_builds()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
