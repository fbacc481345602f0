#!/usr/bin/env bash
# The IR sparse-array-pipeline generates for every program of the test
# suite, the examples and any extra directories, one file per program, so
# that a refactoring of code generation can be compared before and after:
#
#   scripts/ir-snapshot.sh /tmp/before [DIR...]   # on the old build
#   scripts/ir-snapshot.sh /tmp/after [DIR...]    # on the new one
#   diff -r /tmp/before /tmp/after
#
# Programs the pipeline rejects are recorded with their diagnostics.
# A fuzz corpus for DIR: elementwise.py/reductions.py --keep DIR.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SA_BUILD_DIR:-$root/build}
out=${1:?usage: ir-snapshot.sh OUTDIR [DIR...]}
shift
mkdir -p "$out"
dirs=("$root/test/Integration" "$root/test/Conversion" "$root/examples" "$@")
n=0
while IFS= read -r -d '' f; do
  name=${f#"$root"/}
  name=${name//\//_}
  "$build/bin/sa-opt" "$f" --sparse-array-pipeline >"$out/$name" 2>&1
  n=$((n + 1))
done < <(find "${dirs[@]}" -name '*.mlir' -print0 | sort -z)
echo "$n programs in $out"
