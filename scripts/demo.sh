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
echo "== the masked power A = B^C * not(D) of seed 000 Fig. 2, inputs with fill 0"
echo "   sa-opt examples/masked-power.mlir --sparse-array-fuse --sparse-array-derive-algebra=emit-remarks"
echo "   (three maps fuse into one kernel; the compiler derives where to iterate and the result's fill)"
"$bin/sa-opt" examples/masked-power.mlir --sparse-array-fuse \
  --sparse-array-derive-algebra=emit-remarks --mlir-print-local-scope 2>&1 |
  sed -n 's/^.*remark: /   derived: /p'
echo "   (operands 0, 1, 2 are B, C, D: only B ∪ C ∪ D is computed, every other entry is 1)"
echo
graph="$SA_BUILD/demo-graph.mtx"
python3 examples/generate_graph.py "$graph" --vertices 20000 --edges 120000 --seed 7
echo "== breadth-first search, pull: next = mask(¬seen, Aᵀ ∨.∧ frontier), on a generated"
echo "   20000-vertex, 120000-edge graph. The plan sparse-array-build-lattices made (per loop:"
echo "   the inputs coiterated and the lattice points) and the dot product's reduction:"
"$bin/sa-opt" examples/bfs.mlir --sparse-array-fuse --sparse-array-derive-algebra \
  --sparse-array-build-lattices |
  grep -o '#sparse_array.lattice<[^>]*>\|reduce_over.*with @or {[^}]*}' | sed 's/^/   /'
echo "   (seen vertices are an omitter: skipped before their dot product, which coiterates"
echo "   in-edges with the frontier and stops at the first hit)"
echo "   sa-run examples/bfs.mlir -- demo-graph.mtx    (level, vertices reached at it)"
"$bin/sa-run" examples/bfs.mlir -- "$graph" | sed 's/^/   /'
echo
echo "== single-source shortest paths, Bellman-Ford over (min, +) with fill +inf, same graph"
echo "   sa-run examples/sssp.mlir -- demo-graph.mtx    (rounds, then the first distances)"
distances=$("$bin/sa-run" examples/sssp.mlir -- "$graph")
printf '%s\n' "$distances" | sed -n '1,8s/^/   /p'
echo
echo "== power iteration on the same graph, kernels planned parallel (OpenMP): y = A x over"
echo "   the stored edges (rows in parts of equal edges), x = y / sum(y); 200 steps"
"$bin/sa-opt" examples/power-iteration.mlir --sparse-array-fuse --sparse-array-derive-algebra \
  --sparse-array-build-lattices --sparse-array-plan-parallel |
  sed -n '/func.func @step/,/return/p' | grep -o '#sparse_array.parallel<[^>]*>' | sed 's/^/   plan: /'
one=$("$bin/sa-run" --num-threads 1 examples/power-iteration.mlir -- "$graph" | head -1)
all=$("$bin/sa-run" examples/power-iteration.mlir -- "$graph" | head -1)
cores=$(nproc)
python3 -c "import sys; o, a = float(sys.argv[1]), float(sys.argv[2]); \
print('   1 thread: %.1f ms, %s threads: %.1f ms, speed-up x%.2f' % (o * 1e3, sys.argv[3], a * 1e3, o / a))" \
  "$one" "$all" "$cores"
echo
echo "== the same kind of program from Python (python/sparse_array, docs/python.md): shortest"
echo "   paths by (min, +) products over a scipy matrix whose missing edges are +inf"
echo "   python3 python/examples/shortest_paths.py"
PYTHONPATH="$SA_BUILD/python" /usr/bin/python3 python/examples/shortest_paths.py
echo
echo "== beyond one process (sparse_array.dask, docs/python.md): shortest paths and PageRank on a"
echo "   power-law graph in row blocks on a local Dask cluster of 2 workers, checked against one process"
echo "   python3 python/examples/dask_graphs.py --vertices 20000 --row-chunk 5000 --check"
PYTHONPATH="$SA_BUILD/python" /usr/bin/python3 python/examples/dask_graphs.py --vertices 20000 \
  --row-chunk 5000 --check | sed 's/^/   /'
