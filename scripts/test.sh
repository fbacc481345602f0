#!/usr/bin/env bash
# Installs what is missing, configures and builds incrementally, then runs
# every test: the lit suite (FileCheck, diagnostics, execution through sa-run)
# and the GoogleTest unit tests (run by lit as well). Prints one closing line
# "tests: N passed, N failed[, N skipped]"; exit code 0 only if nothing failed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

sa_setup

out="$SA_BUILD/test.log"
status=0
"$SA_LLVM/bin/lit" -sv --xunit-xml-output "$SA_BUILD/test-results.xml" \
  "$SA_BUILD/test" >"$out" 2>&1 || status=$?

count() { sed -n "s/^ *$1: *\([0-9]*\).*/\1/p" "$out" | tail -n 1; }
passed=$(( $(count Passed || true) + 0 ))
xfailed=$(( $(count 'Expectedly Failed' || true) + 0 ))
failed=$(( $(count Failed || true) + $(count 'Unexpectedly Passed' || true) + $(count Unresolved || true) + $(count 'Timed Out' || true) + 0 ))
skipped=$(( $(count Unsupported || true) + $(count Skipped || true) + $(count Excluded || true) + 0 ))

if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  cat "$out" >&2
  [ "$failed" -eq 0 ] && failed=1
fi
echo "tests: $((passed + xfailed)) passed, $failed failed, $skipped skipped"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
