#!/usr/bin/env bash
# Installs what is missing, configures and builds incrementally, then runs
# every test: the lit suite (FileCheck, diagnostics, execution through sa-run),
# the GoogleTest unit tests (run by lit as well) and the Python package's
# pytest suite. Prints one closing line
# "tests: N passed, N failed[, N skipped]"; exit code 0 only if nothing failed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

sa_setup
sa_build_sanitized

out="$SA_BUILD/test.log"
status=0
"$SA_LLVM/bin/lit" -sv --xunit-xml-output "$SA_BUILD/test-results.xml" \
  "$SA_BUILD/test" >"$out" 2>&1 || status=$?
# The runtime's tests again with the AddressSanitizer+UBSan build of sa-io
# (every reader, packer and converter on the corpus and malformed files).
"$SA_LLVM/bin/lit" -sv --param sa_io="$SA_SANITIZE_BUILD/bin/sa-io" \
  "$SA_BUILD/test/Runtime" >>"$out" 2>&1 || status=$?

# The Python package (python/sparse_array, assembled in $SA_BUILD/python by
# the build) against numpy/scipy.
pyout="$SA_BUILD/pytest.log"
pystatus=0
# NumPy's portable loops as the reference (python/tests/numpy_reference.py says why).
NPY_DISABLE_CPU_FEATURES="AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL" \
PYTHONPATH="$SA_BUILD/python" /usr/bin/python3 -m pytest -q -p no:cacheprovider \
  "$SA_ROOT/python/tests" >"$pyout" 2>&1 || pystatus=$?
# pytest's last line: "N passed, N failed, N errors in ...s" (parts omitted
# when 0).
pycount() { tail -1 "$pyout" | grep -o "[0-9]* $1" | cut -d' ' -f1 || true; }
pypassed=$(pycount passed)
pyfailed=$(pycount failed)
pyerrors=$(pycount error)
if [ "$pystatus" -ne 0 ]; then
  cat "$pyout" >&2
  status=$pystatus
fi

# Sums a lit summary count over both runs.
count() { sed -n "s/^ *$1: *\([0-9]*\).*/\1/p" "$out" | awk '{s += $1} END {print s + 0}'; }
passed=$(( $(count Passed || true) + ${pypassed:-0} ))
xfailed=$(( $(count 'Expectedly Failed' || true) + 0 ))
failed=$(( $(count Failed || true) + $(count 'Unexpectedly Passed' || true) + $(count Unresolved || true) + $(count 'Timed Out' || true) + ${pyfailed:-0} + ${pyerrors:-0} ))
skipped=$(( $(count Unsupported || true) + $(count Skipped || true) + $(count Excluded || true) + 0 ))

if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  cat "$out" >&2
  [ "$failed" -eq 0 ] && failed=1
fi
echo "tests: $((passed + xfailed)) passed, $failed failed, $skipped skipped"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
