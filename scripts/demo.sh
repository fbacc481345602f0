#!/usr/bin/env bash
# Installs what is missing, configures and builds incrementally, then runs
# the flagship example on data it generates itself.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

sa_setup

bin="$SA_BUILD/bin"
cd "$SA_ROOT"

echo "== sparse_array: array types with formats and fill values"
echo "   sa-opt examples/array-types.mlir (parsed, verified, printed canonically)"
"$bin/sa-opt" examples/array-types.mlir
echo
echo "== all-pairs shortest paths, (min, +) with fill +inf, JIT-compiled with OpenMP"
echo "   sa-run examples/shortest-paths-dense.mlir"
"$bin/sa-run" examples/shortest-paths-dense.mlir
