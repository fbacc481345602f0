#!/usr/bin/python3
"""Regenerates scatter-rows.mlir's program and CHECK lines (reductions along
a middle storage level into sparse results of rank >= 2), expected values
from left folds over the dense numpy arrays in the dense program's order:
  python3 Inputs/scatter_rows_expected.py scatter-rows.mlir > new.mlir
keeps the file's lines above `func.func @main() {` and writes the rest."""
import math, struct, sys
import numpy as np

rng = np.random.default_rng(2027)
SPECIAL = [1.5, -2.0, 3.25, -0.0, 0.0, float("nan"), float("inf"), float("-inf"), 0.5, -7.0]

def make(shape, density, empty_rows=(), specials=True):
    a = np.zeros(shape)
    stored = np.zeros(shape, dtype=bool)
    for idx in np.ndindex(*shape):
        if idx[0] in empty_rows or rng.random() >= density:
            continue
        stored[idx] = True
        pool = SPECIAL if specials else [1.5, -2.0, 3.25, 0.5, -7.0, -0.0]
        a[idx] = pool[rng.integers(len(pool))]
    return a, stored

def lit(v):
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if math.isnan(v): return "0x7FF8000000000000"
    if math.isinf(v): return "0x7FF0000000000000" if v > 0 else "0xFFF0000000000000"
    return repr(float(v))

def const(a, stored, typ, elt):
    idx = [list(i) for i in np.ndindex(*a.shape) if stored[i]]
    vals = [lit(a[tuple(i)] if elt == "f64" else int(a[tuple(i)])) for i in idx]
    return "sparse<%s, [%s]> : tensor<%s>" % (str(idx).replace(" ", ""), ", ".join(vals),
                                              "x".join(map(str, a.shape)) + "x" + elt)

def fmt(v):
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    v = float(v)
    if math.isnan(v): return "nan"
    if math.isinf(v): return "inf" if v > 0 else "-inf"
    r = repr(v)
    return r[:-2] if r.endswith(".0") else r

def bits(v):
    return struct.pack("<d", v)

def differs(v, fill):
    if isinstance(fill, int):
        return int(v) != fill
    return bits(float(v)) != bits(float(fill))

def maximumf(a, b):
    if math.isnan(a) or math.isnan(b): return float("nan")
    if a == b == 0.0:
        return 0.0 if (math.copysign(1, a) > 0 or math.copysign(1, b) > 0) else -0.0
    return max(a, b)

def fold(a, dims, start, op):
    keep = [d for d in range(a.ndim) if d not in dims]
    out = np.empty([a.shape[d] for d in keep], dtype=object)
    for kidx in np.ndindex(*out.shape):
        acc = start
        for ridx in np.ndindex(*[a.shape[d] for d in dims]):  # reduced, in order
            full = [0] * a.ndim
            for d, c in zip(keep, kidx): full[d] = c
            for d, c in zip(dims, ridx): full[d] = c
            acc = op(acc, a[tuple(full)])
        out[kidx] = acc
    return out

def check(out, fill, lines):
    entries = [(i, v) for i, v in np.ndenumerate(out) if differs(v, fill)]
    lines.append("// CHECK: # fill: %s" % fmt(fill))
    lines.append("// CHECK-NEXT: %d %d" % (out.ndim, len(entries)))
    lines.append("// CHECK-NEXT: %s" % " ".join(map(str, out.shape)))
    for i, v in entries:
        lines.append("// CHECK-NEXT: %s %s" % (" ".join(str(c + 1) for c in i), fmt(v)))
    # The stored count: entries equal to the fill are dropped.
    lines.append("// CHECK-NEXT: %d" % len(entries))

T, Ts = make((3, 4, 5), 0.4, empty_rows=(1,))
I = np.ones((3, 4, 5), dtype=np.int64); Is = np.zeros((3, 4, 5), dtype=bool)
for idx in np.ndindex(3, 4, 5):
    if idx[0] != 1 and rng.random() < 0.35:
        Is[idx] = True; I[idx] = int(rng.integers(-9, 10))
Q, Qs = make((2, 3, 4, 3), 0.3, specials=False)
# Wide rows touching few columns: drained from the sorted list of touched
# slots (the rows above touch over an eighth of theirs: scanned in order).
W, Ws = make((3, 4, 40), 0.03)

fadd = lambda x, y: x + y
add_i = lambda x, y: int(x) + int(y)
prog, checks = [], []
def emit(name, src, srctyp, func, dims, rtyp, expected, fill):
    prog.append("  %%%s = sparse_array.reduce @%s %s dims %s : %s -> %s" % (name, func, src, dims, srctyp, rtyp))
    prog.append("  sparse_array.print %%%s : %s" % (name, rtyp))
    elt = "i64" if rtyp.startswith("!ri") else "f64"
    prog.append("  %%v_%s = sparse_array.values %%%s : %s -> memref<?x%s>" % (name, name, rtyp, elt))
    prog.append("  %%n_%s = memref.dim %%v_%s, %%c0 : memref<?x%s>" % (name, name, elt))
    prog.append("  %%l_%s = arith.index_cast %%n_%s : index to i64" % (name, name))
    prog.append("  func.call @sa_rt_print_i64(%%l_%s) : (i64) -> ()" % name)
    prog.append("  func.call @sa_rt_print_newline() : () -> ()")
    check(expected, fill, checks)

exactT = fold(T, [1], -0.0, fadd)   # add_f64: identity -0.0, fills +0.0
emit("r1", "%tc", "!t_csf", "fadd", "[1]", "!r_csr", fold(T, [1], 0.0, fadd), 0.0)
emit("r2", "%tc", "!t_csf", "add_f64", "[1]", "!r_csr", exactT, 0.0)
emit("r3", "%tc", "!t_csf", "max_f64", "[1]", "!r_csr", fold(T, [1], float("-inf"), maximumf), 0.0)
emit("r4", "%td", "!t_dcsf", "add_f64", "[1]", "!r_dcsr", exactT, 0.0)
emit("r5", "%to", "!t_coo", "add_f64", "[1]", "!r_csr", exactT, 0.0)
emit("r6", "%tc", "!t_csf", "fadd", "[1]", "!r_csr_no", fold(T, [1], 0.0, fadd), 0.0)
emit("r7", "%id", "!i_dcsf", "add_i64", "[1]", "!ri_csr4", fold(I, [1], 0, add_i), 4)
emit("r8", "%id", "!i_dcsf", "add_i64", "[1]", "!ri_csr0", fold(I, [1], 0, add_i), 0)
emit("r9", "%qc", "!q4", "add_f64", "[1]", "!q3a", fold(Q, [1], -0.0, fadd), 0.0)
emit("r10", "%qc", "!q4", "add_f64", "[2]", "!q3b", fold(Q, [2], -0.0, fadd), 0.0)
emit("r11", "%qc", "!q4", "fadd", "[1, 2]", "!q2", fold(Q, [1, 2], 0.0, fadd), 0.0)
emit("r12", "%qc", "!q4", "max_f64", "[1]", "!q3c", fold(Q, [1], float("-inf"), maximumf), 0.0)
emit("r13", "%wc", "!w_csf", "add_f64", "[1]", "!rw_csr", fold(W, [1], -0.0, fadd), 0.0)
emit("r14", "%wc", "!w_csf", "max_f64", "[1]", "!rw_csr_no", fold(W, [1], float("-inf"), maximumf), 0.0)

lines = open(sys.argv[1]).read().split("\n")
header = "\n".join(lines[:lines.index("func.func @main() {")]) + "\n"
body = ["func.func @main() {", "  %c0 = arith.constant 0 : index",
        "  %tc = sparse_array.constant " + const(T, Ts, "!t_csf", "f64") + " : !t_csf",
        "  %td = sparse_array.constant " + const(T, Ts, "!t_dcsf", "f64") + " : !t_dcsf",
        "  %to = sparse_array.constant " + const(T, Ts, "!t_coo", "f64") + " : !t_coo",
        "  %id = sparse_array.constant " + const(I, Is, "!i_dcsf", "i64") + " : !i_dcsf",
        "  %qc = sparse_array.constant " + const(Q, Qs, "!q4", "f64") + " : !q4",
        "  %wc = sparse_array.constant " + const(W, Ws, "!w_csf", "f64") + " : !w_csf"]
print(header + "\n".join(body + prog + ["  return", "}", ""] + checks))
