#!/usr/bin/env python3
"""Bad input never crashes: the project's own programs, mutated.

Each mutant is one of the repository's .mlir tests with a size, level
format, element type or fill replaced wherever it occurs (the types stay
consistent), or one to three small edits on lines that hold sparse_array
operations or types: an integer changed (a size, a dimension, a slice
bound, a level width) to a neighbour, 0, -1, a huge or a negative value; a
size made dynamic (`?`); a level format, an element type or a fill value
replaced by another; an operand swapped for another value of the
function; a line deleted or repeated.
Most mutants no longer verify: what matters is how they fail.

`sa-opt --split-input-file --sparse-array-pipeline` (or, half the time, the
passes one of the file's RUN lines names, alone) must end with exit 0 or 1
(diagnostics); a mutant that compiles and has a `main` (and frees no array
itself: a swapped operand may free one twice) also goes through `sa-run`
(compile and execute, with options drawn at random, the bounds-checked mode
among them), which may stop with a run-time error (exit 2), or trap with
SIGFPE where a function of the program divides integers (the dense
program's undefined behaviour). Any other signal, an assertion, `LLVM
ERROR`, `UNREACHABLE` or a stack dump is a crash; sa-opt not answering
within the time limit is a hang (sa-run's long runs are only counted: a
mutated size may make a program run long). Each is written out (mutant and
stderr) and named; exit status 1 when any was found.

    mutate.py --sa-opt BIN --sa-run BIN --corpus DIR [--corpus DIR ...]
              --count N --seed S [--run-fraction 0.3] [--keep DIR]
"""

import argparse
import collections
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Integration", "Elementwise"))
from elementwise import random_sa_run_options  # noqa: E402

SA_LINE = re.compile(r"sparse_array\.|!sparse_array|#sparse_array")
# An integer that is not part of a name, an SSA value, a float or a type
# width (f64, i32, 4x3 sizes are separate tokens and mutated on purpose).
INT = re.compile(r"(?<![\w#%@.^])-?\d+(?![\w.])")
SIZE = re.compile(r"(?<=[<x])(\d+|\?)(?=x)")
LEVELS = ["dense", "compressed", "singleton", "compressed(nonunique)",
          "compressed(nonordered)", "singleton(nonunique)", "range", "hashed",
          "compressed(nonunique, nonordered)", "bogus"]
LEVEL = re.compile(r"\b(dense|compressed|singleton)(\([a-z, ]*\))?")
ELT = re.compile(r"\b(f64|f32|f16|bf16|i64|i32|i16|i8|i1|index)\b")
ELTS = ["f64", "f32", "f16", "i64", "i32", "i8", "i1", "index", "ui32",
        "complex<f64>"]
FILL = re.compile(r"fill = [^,>}]+")
FILLS = ["fill = 0.0 : f64", "fill = nan : f64", "fill = -0.0 : f64",
         "fill = inf : f64", "fill = 1 : i64", "fill = 0 : i1",
         "fill = 42 : i32", "fill = 1.0 : f32", "fill = 0x7FF0000000000001 : f64",
         "fill = \"x\"", "fill = 1.0"]
VALUE = re.compile(r"%[\w.$-]+")
USER_DIVISION = re.compile(r"arith\.(div|rem|ceildiv|floordiv)[su]i")
# The bounds-checked mode's report is generated code reading outside a
# buffer: a crash that happened to be caught.
CRASH = re.compile(r"Stack dump|PLEASE submit|Assertion|LLVM ERROR|"
                   r"but the buffer has|"
                   r"UNREACHABLE|Segmentation fault|AddressSanitizer|"
                   r"terminate called|(malloc|free|realloc)\(\):")


def mutate_line(rng, line, values):
    """One edit of `line` (None when no edit of the chosen kind applies)."""
    kind = rng.choice(["int", "int", "int", "size", "level", "elt", "fill",
                       "value"])
    if kind == "int":
        ms = list(INT.finditer(line))
        if not ms:
            return None
        m = rng.choice(ms)
        v = int(m.group())
        nv = rng.choice([v + 1, v - 1, 0, -1, -v, 2 * v, 1 << 40, -(1 << 62),
                         (1 << 63) - 1, 1, 3, 7])
        return line[:m.start()] + str(nv) + line[m.end():]
    if kind == "size":
        ms = list(SIZE.finditer(line))
        if not ms:
            return None
        m = rng.choice(ms)
        new = rng.choice(["?", "0", "1", "2", "5", "1099511627776"])
        return line[:m.start()] + new + line[m.end():]
    if kind == "level":
        ms = list(LEVEL.finditer(line))
        if not ms:
            return None
        m = rng.choice(ms)
        return line[:m.start()] + rng.choice(LEVELS) + line[m.end():]
    if kind == "elt":
        ms = list(ELT.finditer(line))
        if not ms:
            return None
        m = rng.choice(ms)
        return line[:m.start()] + rng.choice(ELTS) + line[m.end():]
    if kind == "fill":
        ms = list(FILL.finditer(line))
        if not ms:
            return None
        m = rng.choice(ms)
        return line[:m.start()] + rng.choice(FILLS) + line[m.end():]
    ms = [m for m in VALUE.finditer(line) if m.start() > line.find("=")]
    if not ms or not values:
        return None
    m = rng.choice(ms)
    return line[:m.start()] + rng.choice(values) + line[m.end():]


DROPPED_FLAGS = {"-verify-diagnostics", "--verify-diagnostics",
                 "-split-input-file", "--split-input-file",
                 "--verify-roundtrip", "-verify-roundtrip"}


def own_pass_lists(text):
    """The sa-opt flags of the file's RUN lines (its passes run alone, on
    IR they may not expect)."""
    runs = re.sub(r"\\\n\s*//\s*RUN:", " ", text)
    out = []
    for m in re.finditer(r"RUN:(?:\s*not)?\s*sa-opt\b([^|\n]*)", runs):
        flags = [f for f in m.group(1).split()
                 if re.match(r"--?[a-z]", f) and f not in DROPPED_FLAGS]
        if flags:
            out.append(flags)
    return out


def global_edit(rng, text):
    """A size, level format, element type or fill replaced wherever it
    occurs: the types stay consistent, so more mutants verify and run."""
    kind = rng.choice(["size", "size", "level", "elt", "fill"])
    if kind == "size":
        ms = list(re.finditer(r"(?<=[<x])(\d+|\?)x", text))
        if not ms:
            return None
        old = rng.choice(ms).group()
        new = rng.choice(["?", "0", "1", "2", "3", "5", "16", "4096"]) + "x"
        return re.sub(r"(?<=[<x])" + re.escape(old), new, text)
    pattern, pool = {"level": (LEVEL, LEVELS), "elt": (ELT, ELTS),
                     "fill": (FILL, FILLS)}[kind]
    ms = list(pattern.finditer(text))
    if not ms:
        return None
    old = rng.choice(ms).group()
    return text.replace(old, rng.choice(pool))


def mutant(rng, text):
    if rng.random() < 0.4:
        return global_edit(rng, text)
    lines = text.split("\n")
    cand = [i for i, l in enumerate(lines)
            if SA_LINE.search(l) and not l.lstrip().startswith("//")]
    if not cand:
        return None
    values = sorted(set(VALUE.findall(text)))
    edits = 0
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        i = rng.choice(cand)
        r = rng.random()
        if r < 0.05:
            lines[i] = ""
        elif r < 0.08:
            lines.insert(i, lines[i])
            cand = [c + (c >= i) for c in cand]
        else:
            new = mutate_line(rng, lines[i], values)
            if new is None or new == lines[i]:
                continue
            lines[i] = new
        edits += 1
    return "\n".join(lines) if edits else None


def limit_memory():
    # Large mutated sizes must fail as an allocation the runtime reports,
    # not take the machine's memory.
    gib = 1 << 30
    resource.setrlimit(resource.RLIMIT_AS, (8 * gib, 8 * gib))


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        return None, ""
    return p.returncode, p.stderr


def crashed(code, err, allowed):
    if code not in allowed:
        return True
    # An allowed signal comes with LLVM's stack dump.
    return code >= 0 and bool(CRASH.search(err))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sa-opt", required=True)
    p.add_argument("--sa-run", required=True)
    p.add_argument("--corpus", action="append", required=True)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--run-fraction", type=float, default=0.3,
                   help="share of compiling mutants with a main also run")
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--keep", default="")
    args = p.parse_args()

    files = []
    for d in args.corpus:
        for root, _, names in os.walk(d):
            files += [os.path.join(root, n) for n in names if n.endswith(".mlir")]
    files.sort()
    if not files:
        sys.exit("no .mlir files under " + ", ".join(args.corpus))
    rng = random.Random(args.seed)
    keep = args.keep or tempfile.mkdtemp(prefix="sa-mutate-")
    os.makedirs(keep, exist_ok=True)
    path = os.path.join(keep, "mutant.mlir")
    stats = {"compiled": 0, "rejected": 0, "ran": 0, "stopped": 0,
             "hangs": 0}
    stopped = collections.Counter()  # run-time errors, for triage
    failures = 0
    done = 0
    while done < args.count:
        src = rng.choice(files)
        with open(src) as f:
            text = mutant(rng, f.read())
        if text is None:
            continue
        done += 1
        with open(path, "w") as f:
            f.write(text)
        # The pipeline, or half the time the passes the file's own RUN
        # lines name (a pass alone must reject what it cannot handle).
        own = own_pass_lists(text)
        flags = (rng.choice(own) if own and rng.random() < 0.5
                 else ["--sparse-array-pipeline"])
        code, err = run([args.sa_opt, "--split-input-file"] + flags +
                        [path, "-o", os.devnull], args.timeout)
        stage = "sa-opt"
        if code is None:
            # The compiler must answer: a hang there is a failure.
            err = "no answer within %g s" % args.timeout
            code = "timeout"
        if code != "timeout" and not crashed(code, err, (0, 1)):
            stats["compiled" if code == 0 else "rejected"] += 1
            # A program freeing arrays itself may free one twice once
            # mutated (an operand swapped): the user's error, not run.
            if (code != 0 or flags != ["--sparse-array-pipeline"]
                    or "func.func @main" not in text
                    or "sparse_array.dealloc" in text
                    or "// -----" in text or rng.random() >= args.run_fraction):
                continue
            stats["ran"] += 1
            stage = "sa-run"
            code, err = run([args.sa_run] + random_sa_run_options(rng) +
                            [path], args.timeout)
            if code is None:
                # A mutated size may make a program run long: noted only.
                stats["hangs"] += 1
                print("HANG sa-run mutant %d of %s" % (done, src))
                continue
            # 1: a diagnostic or a file that is not there; 2: a run-time
            # error the runtime reports.
            allowed = (0, 1, 2)
            # A function of the program dividing integers by zero traps as
            # the dense program does (arith's division by zero is undefined
            # behaviour); the generated code's own index arithmetic must not.
            if USER_DIVISION.search(text):
                allowed += (-signal.SIGFPE,)
            if not crashed(code, err, allowed):
                if code == 2:
                    stats["stopped"] += 1
                    reason = re.sub(r"-?\d+", "N", err.strip().split("\n")[-1])
                    stopped[reason[:100]] += 1
                continue
        failures += 1
        out = os.path.join(keep, "crash%d.mlir" % done)
        with open(out, "w") as f:
            f.write(text)
        with open(out + ".err", "w") as f:
            f.write(err)
        first = next((l for l in err.split("\n") if CRASH.search(l)),
                     err.strip().split("\n")[0] if err.strip() else "")
        print("CRASH %s (exit %s) mutant %d of %s: %s -> %s" % (
            stage, code, done, os.path.relpath(src), first[:200], out),
            flush=True)
    for reason, n in stopped.most_common(8):
        print("  stopped %dx: %s" % (n, reason))
    print("%(compiled)d compiled, %(rejected)d rejected with a diagnostic, "
          "%(ran)d run (%(stopped)d stopped with a run-time error), "
          "%(hangs)d runs past the time limit" % stats)
    print("%d of %d mutants passed (handled without a crash)" % (
        done - failures, done))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
