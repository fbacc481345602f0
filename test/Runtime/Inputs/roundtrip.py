#!/usr/bin/env python3
"""Round-trips arrays through every storage format and checks the text output.

  roundtrip.py matrices --sa-io SA_IO [--sa-run SA_RUN] DIR
      Every well-formed Matrix Market file in DIR is read into dense, CSR,
      CSC, DCSR, DCSC, COO (row- and column-major), 32-bit-index CSR and,
      where small blocks divide its shape, block formats (BCSR, BCSC, COO
      of blocks, DCSR of sparse blocks), both
      directly and by converting from COO; all printed texts must be
      identical and must equal scipy.io.mmread's matrix (an independent
      reader) entry for entry. With --sa-run, a compiled program reads each
      file and prints it after converting through all formats as well.

  roundtrip.py tensors --sa-io SA_IO [--sa-run SA_RUN] WORKDIR
      Generated order-3 tensors (FROSTT .tns) through CSF, COO-3, dense and
      mode-permuted formats, against the generator's own entries.

Prints one line per file and exits non-zero on the first mismatch.
"""

import argparse
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

MATRIX_FORMATS = {
    "dense": "levels=dense,dense",
    "csr": "levels=dense,compressed",
    "csc": "levels=dense,compressed;order=1,0",
    "dcsr": "levels=compressed,compressed",
    "dcsc": "levels=compressed,compressed;order=1,0",
    "coo": "levels=compressed(nonunique),singleton",
    "coo-colmajor": "levels=compressed(nonunique),singleton;order=1,0",
    "csr32": "levels=dense,compressed;pos=32;crd=32",
}

TENSOR_FORMATS = {
    "dense3": "levels=dense,dense,dense",
    "csf": "levels=compressed,compressed,compressed",
    "coo3": "levels=compressed(nonunique),singleton(nonunique),singleton",
    "dense-csf": "levels=dense,compressed,compressed",
    "csf-201": "levels=compressed,compressed,compressed;order=2,0,1",
    "coo3-120": "levels=compressed(nonunique),singleton(nonunique),singleton;"
                "order=1,2,0",
    "dense-dense-compressed32": "levels=dense,dense,compressed;pos=32;crd=32",
}



def smallest_divisor(n):
    """The smallest block size 2..8 dividing n, or 1 (unblocked)."""
    for b in range(2, min(n, 8) + 1):
        if n % b == 0:
            return b
    return 1


def blocked_formats(shape):
    """Block formats (BCSR and kin, seed 002) whose blocks divide `shape`:
    a blocked dimension at two levels (block, then place in the block);
    blocks of 3 or 4 where they divide, else the smallest up to 8."""
    blocks = [smallest_divisor(n) for n in shape]
    for i, n in enumerate(shape):
        for b in (4, 3):
            if n % b == 0 and n >= 2 * b:
                blocks[i] = b
                break
    if all(b == 1 for b in blocks):
        return {}
    spec = ",".join(str(b) for b in blocks)
    def fmt(outer, order, inner="dense"):
        dims = list(order)
        levels = list(outer)
        for d in order:
            if blocks[d] > 1:
                dims.append(d)
                levels.append(inner)
        return "levels=%s;order=%s;blocks=%s" % (
            ",".join(levels), ",".join(str(d) for d in dims), spec)
    return {
        "bsr": fmt(["dense", "compressed"], [0, 1]),
        "bsc": fmt(["dense", "compressed"], [1, 0]),
        "block-coo": fmt(["compressed(nonunique)", "singleton"], [0, 1]),
        "block-dcsr-sparse-inner": fmt(["compressed", "compressed"], [0, 1],
                                       "compressed"),
    }


SA_RUN_FILES = {"A.mtx", "cover.mtx", "bcsstk13.mtx", "skew_fp64.mtx",
                "empty.mtx", "lp_afiro.mtx", "full_symmetric.mtx"}

# Element type per Matrix Market field; pattern files hold ones.
FIELD_ELEM = {"real": "f64", "double": "f64", "integer": "i64", "pattern": "i8"}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        fail("%s exited with %d:\n%s" % (" ".join(cmd), result.returncode,
                                         result.stderr))
    return result.stdout


def parse_text(text, what):
    """The text format: '# fill: v', 'rank nnz', dims, entries."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# fill: "):
        fail("%s: output does not start with '# fill:'" % what)
    fill = lines[0][len("# fill: "):]
    rank, nnz = (int(x) for x in lines[1].split())
    dims = [int(x) for x in lines[2].split()]
    if len(dims) != rank:
        fail("%s: %d dims for rank %d" % (what, len(dims), rank))
    entries = []
    for line in lines[3:]:
        fields = line.split()
        if len(fields) != rank + 1:
            fail("%s: bad entry line %r" % (what, line))
        entries.append((tuple(int(x) - 1 for x in fields[:rank]), fields[rank]))
    if len(entries) != nnz:
        fail("%s: header says %d entries, found %d" % (what, nnz, len(entries)))
    coords = [c for c, _ in entries]
    if coords != sorted(coords) or len(set(coords)) != len(coords):
        fail("%s: entries not in strictly increasing lexicographic order" % what)
    return fill, dims, entries


def same_float(a, b):
    """Same value as a dense program sees it: bitwise, NaNs all alike."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return struct.pack("<d", a) == struct.pack("<d", b)


def is_fill_zero(value):
    return value == 0 and math.copysign(1.0, value) > 0


def mm_header(path):
    with open(path, "rb") as f:
        banner = f.readline().decode("latin-1").split()
    return [w.lower() for w in banner]


def sa_run_program(elem, rank, formats):
    """An MLIR program: read input 0 in the first format, then convert
    through every format and print each."""
    def ty(levels_spec):
        parts = dict(p.split("=", 1) for p in levels_spec.split(";"))
        # Re-join level properties that the comma split cut apart.
        joined, depth, cur = [], 0, ""
        for piece in parts["levels"].split(","):
            cur = piece if not cur else cur + ", " + piece
            depth += piece.count("(") - piece.count(")")
            if depth == 0:
                joined.append(cur)
                cur = ""
        extra = ""
        if "order" in parts:
            extra += ", order = [%s]" % ", ".join(parts["order"].split(","))
        if "pos" in parts:
            extra += ", pos_width = %s" % parts["pos"]
        if "crd" in parts:
            extra += ", crd_width = %s" % parts["crd"]
        if "blocks" in parts:
            extra += ", blocks = [%s]" % ", ".join(parts["blocks"].split(","))
        shape = "x".join(["?"] * rank)
        return "!sparse_array.array<%sx%s, #sparse_array.format<[%s]%s>>" % (
            shape, elem, ", ".join(joined), extra)

    names = list(formats)
    lines = ["func.func @main() {", "  %c0 = arith.constant 0 : index"]
    prev_name, prev_ty = "a0", ty(formats[names[0]])
    lines.append("  %%a0 = sparse_array.read input %%c0 : %s" % prev_ty)
    lines.append("  sparse_array.print %%a0 : %s" % prev_ty)
    for i, name in enumerate(names[1:], 1):
        t = ty(formats[name])
        lines.append("  %%a%d = sparse_array.convert %%%s : %s to %s" %
                     (i, prev_name, prev_ty, t))
        lines.append("  sparse_array.print %%a%d : %s" % (i, t))
        prev_name, prev_ty = "a%d" % i, t
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def check_all_formats(path, elem, formats, sa_io, sa_run, workdir, rank):
    texts = {}
    first = None
    for name, levels in formats.items():
        spec = "elem=%s;%s" % (elem, levels)
        direct = run([sa_io, path, spec])
        texts[name] = direct
        if first is None:
            first = (name, direct)
        elif direct != first[1]:
            fail("%s: %s prints differently from %s" % (path, name, first[0]))
    # Converting into every format from three sources of different level
    # orders and kinds gives the same text.
    names = list(formats)
    for a in (names[0], names[len(names) // 2], names[-2]):
        for b in names:
            out = run([sa_io, path, "elem=%s;%s" % (elem, formats[a]),
                       "elem=%s;%s" % (elem, formats[b])])
            if out != first[1]:
                fail("%s: %s -> %s conversion prints differently" % (path, a, b))
    if sa_run:
        program = os.path.join(workdir, "roundtrip-%s-%d-%d.mlir" %
                               (elem, rank, hash(tuple(formats.values()))))
        if not os.path.exists(program):
            with open(program, "w") as f:
                f.write(sa_run_program(elem, rank, formats))
        out = run([sa_run, program, "--", path])
        if out != first[1] * len(formats):
            fail("%s: the compiled program (%s) prints differently" %
                 (path, program))
    return first[1]


def check_matrices(args):
    import numpy as np
    import scipy.io
    files = sorted(f for f in os.listdir(args.dir) if f.endswith(".mtx"))
    checked = 0
    workdir = tempfile.mkdtemp(prefix="sa-roundtrip-")
    for name in files:
        path = os.path.join(args.dir, name)
        header = mm_header(path)
        if name.startswith("mangled") or len(header) != 5:
            continue
        try:
            reference = scipy.io.mmread(path)
        except Exception as e:  # scipy refuses it: not well formed
            print("skipped (scipy.io.mmread rejects it: %s): %s" % (e, name))
            continue
        field = header[3]
        elem = FIELD_ELEM[field]
        # The compiled path is the same for every file of an element type;
        # it runs on a few files that differ in symmetry and shape.
        compiled = args.sa_run if name in SA_RUN_FILES else None
        formats = dict(MATRIX_FORMATS)
        formats.update(blocked_formats(reference.shape))
        text = check_all_formats(path, elem, formats, args.sa_io,
                                 compiled, workdir, 2)
        fill, dims, entries = parse_text(text, name)
        if fill != "0":
            fail("%s: fill %s, expected 0" % (name, fill))
        dense = (reference.toarray() if hasattr(reference, "toarray")
                 else np.asarray(reference))
        if list(dense.shape) != dims:
            fail("%s: dims %s, scipy says %s" % (name, dims, dense.shape))
        listed = set()
        for (i, j), text_value in entries:
            listed.add((i, j))
            expected = dense[i, j]
            if elem == "f64":
                if not same_float(float(text_value), float(expected)):
                    fail("%s: (%d, %d) is %s, scipy says %r" %
                         (name, i + 1, j + 1, text_value, expected))
                if is_fill_zero(float(text_value)):
                    fail("%s: (%d, %d) lists the fill value" % (name, i + 1, j + 1))
            else:
                if int(text_value) != int(expected) or int(text_value) == 0:
                    fail("%s: (%d, %d) is %s, scipy says %r" %
                         (name, i + 1, j + 1, text_value, expected))
        # Every entry scipy has that differs from the fill is listed.
        for i, j in zip(*np.nonzero(dense)):
            if (int(i), int(j)) not in listed:
                fail("%s: (%d, %d) = %r is missing" % (name, i + 1, j + 1,
                                                       dense[i, j]))
        if elem == "f64":
            for i, j in zip(*np.nonzero(np.signbit(dense) & (dense == 0))):
                if (int(i), int(j)) not in listed:
                    fail("%s: -0.0 at (%d, %d) is missing" % (name, i + 1, j + 1))
        checked += 1
        print("ok %s: %s, %dx%d, %d entries, %d formats%s" %
              (name, elem, dims[0], dims[1], len(entries), len(formats),
               ", compiled program too" if compiled else ""))
    if checked == 0:
        fail("no Matrix Market file was checked")
    print("checked %d files" % checked)


def random_tensor(rng, dims, count):
    entries = {}
    if 0 in dims:
        return entries
    for _ in range(count):
        c = tuple(rng.randrange(d) for d in dims)
        entries[c] = rng.choice([rng.uniform(-10, 10), float(rng.randrange(-5, 6)),
                                 float("inf"), -0.0, 1e-300, 123456789.125])
    return entries


def check_tensors(args):
    rng = random.Random(20261121)
    os.makedirs(args.dir, exist_ok=True)
    cases = [((4, 5, 6), 40), ((1, 1, 1), 1), ((3, 0, 2), 0), ((7, 3, 2), 0),
             ((50, 40, 30), 2000), ((2, 2, 2), 8), ((1000, 1, 700), 300)]
    for n, (dims, count) in enumerate(cases):
        entries = random_tensor(rng, dims, count)
        path = os.path.join(args.dir, "tensor%d.tns" % n)
        items = list(entries.items())
        rng.shuffle(items)  # FROSTT files need not be sorted
        with open(path, "w") as f:
            f.write("# generated by roundtrip.py\n")
            for c, v in items:
                f.write("%s %r\n" % (" ".join(str(x + 1) for x in c), v))
        dims_spec = "dims=%s" % ",".join(str(d) for d in dims)
        formats = {k: dims_spec + ";" + v for k, v in TENSOR_FORMATS.items()}
        text = check_all_formats(path, "f64", formats, args.sa_io, None,
                                 args.dir, 3)
        fill, got_dims, listed = parse_text(text, path)
        if got_dims != list(dims):
            fail("%s: dims %s, expected %s" % (path, got_dims, dims))
        expected = sorted((c, v) for c, v in entries.items()
                          if not is_fill_zero(v))
        if len(listed) != len(expected):
            fail("%s: %d entries, expected %d" % (path, len(listed), len(expected)))
        for (c, text_value), (ec, ev) in zip(listed, expected):
            if c != ec or not same_float(float(text_value), ev):
                fail("%s: entry %s = %s, expected %s = %r" %
                     (path, c, text_value, ec, ev))
        print("ok tensor%d: %s, %d entries" % (n, "x".join(map(str, dims)),
                                               len(listed)))
        if args.sa_run and n == 0:
            dyn = {k: v for k, v in TENSOR_FORMATS.items()}
            program = os.path.join(args.dir, "tensor-roundtrip.mlir")
            with open(program, "w") as f:
                f.write(sa_run_program("f64", 3, dyn))
            out = run([args.sa_run, program, "--", path])
            if out != text * len(dyn):
                fail("%s: the compiled program prints differently" % path)
            print("ok tensor0 through sa-run")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["matrices", "tensors"])
    parser.add_argument("dir")
    parser.add_argument("--sa-io", required=True)
    parser.add_argument("--sa-run")
    args = parser.parse_args()
    if args.mode == "matrices":
        check_matrices(args)
    else:
        check_tensors(args)


if __name__ == "__main__":
    main()
