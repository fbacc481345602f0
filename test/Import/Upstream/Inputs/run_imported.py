#!/usr/bin/env python3
"""Runs one of upstream MLIR's sparse_tensor integration tests through the
importer instead of upstream's sparsifier, and checks the output with the
file's own CHECK lines.

The file is read where it lies (../shared/upstream-sparse-tensor): it is
reference data, never copied into the project. Its DEFINE / REDEFINE / RUN
lines are interpreted in order, as lit does and as that folder's
run_upstream.sh does, with one change: `mlir-opt %s --sparsifier="..."`
becomes `sa-opt %s --sparse-array-from-sparse-tensor-pipeline` (the
sparsifier's options choose among upstream's code generators; they do not
change the program's meaning), and the runner loads the project's runtime
and libomp besides upstream's runner libraries. RUN lines that need ArmSVE
or an emulator are skipped. RUN lines that become the same command run once.

  run_imported.py --sa-opt PATH --runtime LIB --libomp LIB --llvm-bin DIR
                  --llvm-lib DIR [--rename OLD=NEW ...] FILE.mlir

--rename replaces a spelling MLIR has since renamed (a level format's
name) in a copy of the file, for the tests in not-upstream-22/ that fail
upstream for that reason alone; the data folder is still found beside the
original (its folder's or its parent's data/).

Exit status 0 when every RUN line passes; otherwise the failing line, the
producer's last error lines and FileCheck's first error are printed.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile


def directives(path):
    """(kind, text) for each DEFINE/REDEFINE/RUN line, '\\' continuations
    joined."""
    out, pending = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\s*//\s*(DEFINE|REDEFINE|RUN):\s?(.*?)\s*$", line)
            if not m:
                if pending:
                    out.append(pending)
                    pending = None
                continue
            kind, text = m.group(1), m.group(2)
            if pending and pending[0] == kind:
                text = pending[1] + " " + text
                pending = None
            elif pending:
                out.append(pending)
                pending = None
            if text.endswith("\\"):
                pending = (kind, text[:-1].rstrip())
            else:
                out.append((kind, text))
    if pending:
        out.append(pending)
    return out


def expand(text, subs):
    for _ in range(50):
        new = re.sub(r"%\{(\w+)\}",
                     lambda m: subs.get(m.group(1), m.group(0)), text)
        if new == text:
            break
        text = new
    return text


def data_dir(original):
    here = os.path.dirname(os.path.abspath(original))
    for d in (here, os.path.dirname(here)):
        if os.path.isdir(os.path.join(d, "data")):
            return os.path.join(d, "data")
    return os.path.join(here, "data")


def concretize(cmd, path, args):
    here = os.path.dirname(os.path.abspath(path))
    lib = args.llvm_lib
    c = cmd.replace("%mlir_src_dir/test/Integration/data/", data_dir(args.file) + "/")
    c = c.replace("%mlir_c_runner_utils",
                  ",".join([os.path.join(lib, "libmlir_c_runner_utils.so"),
                            args.runtime, args.libomp]))
    c = c.replace("%mlir_runner_utils",
                  os.path.join(lib, "libmlir_runner_utils.so"))
    for key, value in (("%ENABLE_VLA", "false"), ("%VLA_ARCH_ATTR_OPTIONS", ""),
                       ("%shlibext", ".so")):
        c = c.replace(key, value)
    c = re.sub(r"%s\b", path, c)
    c = re.sub(r"%S\b", here, c)
    # The one change: the importer's pipeline in place of the sparsifier.
    c = re.sub(r'(?<![\w/.-])mlir-opt(?![\w-])(.*?)--sparsifier(="[^"]*"|=\S+)?',
               lambda m: args.sa_opt + m.group(1) +
               "--sparse-array-from-sparse-tensor-pipeline", c)
    c = re.sub(r"(?<![\w/.-])mlir-(cpu-)?runner(?![\w-])",
               os.path.join(args.llvm_bin, "mlir-runner"), c)
    c = re.sub(r"(?<![\w/.-])FileCheck(?![\w-])",
               os.path.join(args.llvm_bin, "FileCheck"), c)
    return c


def skipped(raw, expanded, concrete):
    if "%if" in raw or "_sve" in raw or "%lli" in expanded or \
            "mlir-translate" in expanded or "%mcr_aarch64_cmd" in expanded:
        return "needs ArmSVE or an emulator"
    left = sorted(set(re.findall(r"%[\w{]+", concrete)))
    if left:
        return "unknown substitution " + ",".join(left)
    return None


def run_line(cmd, timeout):
    m = re.match(r"^(.*)\|\s*(\S*FileCheck)\s+(.*)$", cmd)
    if not m:
        return "no FileCheck in the RUN line"
    producer, filecheck, fc_args = m.groups()
    try:
        p = subprocess.run(["bash", "-o", "pipefail", "-c", producer],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timed out after %d s" % timeout
    if p.returncode != 0:
        tail = "\n".join(p.stderr.strip().splitlines()[-8:])
        return "the program failed (status %d):\n%s" % (p.returncode, tail)
    q = subprocess.run(["bash", "-c", filecheck + " " + fc_args],
                       input=p.stdout, capture_output=True, text=True)
    if q.returncode != 0:
        return "FileCheck failed:\n" + "\n".join(q.stderr.splitlines()[:12])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sa-opt", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--libomp", required=True)
    ap.add_argument("--llvm-bin", required=True)
    ap.add_argument("--llvm-lib", required=True)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--rename", action="append", default=[], metavar="OLD=NEW")
    ap.add_argument("file")
    args = ap.parse_args()
    path = os.path.abspath(args.file)
    if args.rename:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for pair in args.rename:
            old, new = pair.split("=", 1)
            if old not in text:
                print("--rename: %r does not occur in %s" % (old, path))
                return 1
            text = text.replace(old, new)
        fd, path = tempfile.mkstemp(suffix=".mlir", prefix="renamed-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
    subs, runs = {}, []
    for kind, text in directives(path):
        if kind == "RUN":
            runs.append((text, dict(subs)))
            continue
        m = re.match(r"^%\{(\w+)\}\s*=\s*(.*)$", text)
        if m:
            subs[m.group(1)] = m.group(2).strip()
    seen, failures, ran = set(), 0, 0
    for i, (raw, s) in enumerate(runs, 1):
        e = expand(raw, s)
        cmd = concretize(e, path, args)
        why = skipped(raw, e, cmd)
        if why:
            print("RUN %d: skipped (%s)" % (i, why))
            continue
        if cmd in seen:
            print("RUN %d: the same command as an earlier line" % i)
            continue
        seen.add(cmd)
        ran += 1
        error = run_line(cmd, args.timeout)
        if error:
            failures += 1
            print("RUN %d: FAIL\n  %s\n%s" % (i, cmd, error))
        else:
            print("RUN %d: PASS" % i)
    if args.rename:
        os.unlink(path)
    if ran == 0:
        print("no RUN line could run")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
