#!/usr/bin/env bash
# A fuzz campaign beyond what CI runs: every harness (element-wise
# expressions at depth 2 and 3, fused chains of 6-12 operands, reductions
# and contractions incl. wide row-wise products, shape operators alone,
# run-time sizes that may not fit, sequence expressions, mutated test
# programs that must not crash the compiler or the runtime) on a
# range of seeds, with every sa-run option drawn at random per batch and a
# watchdog. Prints one line per run and a total; exit code 0 only when every
# variant passed.
#
#   scripts/fuzz-campaign.sh [--scale K] [--first-seed S] [--options-set base]
#                            [--threads N[,N...]] [--only dialect|python]
#
# --scale multiplies the variant counts (1: about 12,000 dialect variants and
# 5,000 Python programs, each run three ways; about 90 min on 2 cores);
# --first-seed moves every seed; --options-set base draws only the
# options an older sa-run understands (to run today's harnesses against an
# earlier build: SA_BUILD_DIR=/path/to/old/build); --threads N runs the
# element-wise, shape and reduction harnesses with N OpenMP threads and
# every kernel the parallel plan allows run in parallel however small (a
# list such as 1,2,4: the dialect harnesses run each program with every
# count and compare the outputs, the Python runs take the counts in turn);
# --scale may be a fraction (0.5); --only runs one half, so that two
# campaigns can share the cores.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SA_BUILD_DIR:-$root/build}
scale=1 first=1000 optset=all threads=0 only=all
while [ $# -gt 0 ]; do
  case $1 in
    --scale) scale=$2; shift 2 ;;
    --first-seed) first=$2; shift 2 ;;
    --options-set) optset=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
py=/usr/bin/python3
run=$build/bin/sa-run opt=$build/bin/sa-opt std=$root/stdlib/std.mlir
ew=$root/test/Integration/Elementwise/elementwise.py
red=$root/test/Integration/Reductions/reductions.py
seq=$root/test/Integration/Sequences/sequences.py
total=0 passed=0 failed_runs=0

# run LABEL COMMAND...: the harness prints "N of M variants passed" (or
# "expressions") last.
run() {
  local label=$1; shift
  local out line n m
  out=$("$@" 2>&1)
  line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ of [0-9]+ (variants|expressions|mutants|programs) passed' | tail -n 1)
  if [ -z "$line" ]; then
    printf '%-52s no summary (crashed harness)\n' "$label"
    printf '%s\n' "$out" | tail -n 20
    failed_runs=$((failed_runs + 1))
    return
  fi
  n=${line%% of *}; m=${line#* of }; m=${m%% *}
  total=$((total + m)); passed=$((passed + n))
  printf '%-52s %s\n' "$label" "$line"
  if [ "$n" != "$m" ]; then
    failed_runs=$((failed_runs + 1))
    printf '%s\n' "$out" | grep -E 'FAIL|HANG|CRASH|error' | head -n 20
  fi
}

# n COUNT: COUNT variants at this scale (at least 1).
n() { awk -v c="$1" -v s="$scale" 'BEGIN { k = int(c * s); print (k < 1 ? 1 : k) }'; }
if [ "$only" != python ]; then
opts=(--random-options --options-set "$optset" --timeout 600)
[ "$threads" != 0 ] && opts+=(--threads "$threads")
for i in 0 1 2 3 4 5 6 7; do
  s=$((first + i))
  run "elementwise depth 2 seed $s" $py "$ew" --sa-run "$run" --stdlib "$std" \
    --fuzz $(n 500) --depth 2 --batch 25 --seed $s "${opts[@]}"
done
for i in 0 1 2 3; do
  s=$((first + 10 + i))
  run "elementwise depth 3 seed $s" $py "$ew" --sa-run "$run" --stdlib "$std" \
    --fuzz $(n 500) --depth 3 --batch 25 --seed $s "${opts[@]}"
done
for i in 0 1 2 3; do
  s=$((first + 15 + i))
  run "elementwise with slices seed $s" $py "$ew" --sa-run "$run" --stdlib "$std" \
    --fuzz $(n 300) --depth $((2 + i % 2)) --batch 25 --seed $s --slices 0.6 "${opts[@]}"
done
for i in 0 1; do
  s=$((first + 26 + i))
  run "elementwise rank 4 with slices seed $s" $py "$ew" --sa-run "$run" --stdlib "$std" \
    --fuzz $(n 200) --depth 2 --batch 20 --seed $s --ranks 4 --slices 0.6 "${opts[@]}"
done
mv=$root/test/Integration/Shape/moves.py
for i in 0 1; do
  s=$((first + 28 + i))
  run "shape operators alone seed $s" $py "$mv" --sa-run "$run" --stdlib "$std" \
    --fuzz $(n 500) --batch 25 --seed $s "${opts[@]}"
done
xt=$root/test/Integration/Shape/extents.py
if [ "$optset" = all ]; then
  s=$((first + 31))
  run "run-time sizes that may not fit seed $s" $py "$xt" --sa-run "$run" \
    --stdlib "$std" --fuzz $(n 300) --seed $s --timeout 600
fi
for i in 0 1 2 3; do
  s=$((first + 20 + i))
  run "elementwise chains seed $s" $py "$ew" --sa-run "$run" --stdlib "$std" \
    --chains $(n 100) --batch 25 --seed $s --compile-budget 60 "${opts[@]}"
done
for i in 0 1 2 3 4 5; do
  s=$((first + 30 + i))
  # Odd seeds read half the operands through shape operators (fused).
  views=$([ $((i % 2)) = 1 ] && echo 0.5 || echo 0)
  run "reductions seed $s (views $views)" $py "$red" --sa-run "$run" --stdlib "$std" \
    --count $(n 500) --batch 25 --seed $s --views $views "${opts[@]}"
done
for ws in hash auto; do
  s=$((first + 40))
  run "reductions wide ($ws) seed $s" $py "$red" --sa-run "$run" --stdlib "$std" \
    --count $(n 200) --batch 25 --seed $s --wide --workspace $ws --timeout 600
done
if [ "$optset" = all ]; then
  for i in 0 1 2 3; do
    s=$((first + 50 + i))
    run "sequences depth 2 seed $s" $py "$seq" --sa-opt "$opt" --sa-run "$run" \
      --count $(n 150) --depth 2 --batch 10 --seed $s --timeout 600
  done
  for i in 0 1; do
    s=$((first + 60 + i))
    run "sequences depth 3 (bounds-checked) seed $s" $py "$seq" --sa-opt "$opt" \
      --sa-run "$run" --count $(n 50) --depth 3 --max-leaves 7 --seed $s \
      --bounds-checks --timeout 600
  done
fi
if [ "$optset" = all ]; then
  s=$((first + 70))
  run "mutated test programs seed $s" $py "$root/test/Robustness/mutate.py" \
    --sa-opt "$opt" --sa-run "$run" --corpus "$root/test" \
    --count $(n 3000) --seed $s
fi
fi
# The Python package: random NumPy programs and idioms against NumPy, each
# eagerly, lazily and mixed, with random compiler options (the package's
# SPARSE_ARRAY_OPTIONS) and, with --threads, OpenMP builds for every input
# however small.
pyopts() {
  local o="opt=$((RANDOM % 4));workspace=$(printf 'auto\ndense\nhash' | shuf -n 1)"
  o+=";linear_threshold=$((2 + RANDOM % 5));branchless_merge=$((RANDOM % 2))"
  o+=";vector_gathers=$(printf 'auto\non\noff' | shuf -n 1)"
  [ $((RANDOM % 4)) = 0 ] && o+=";bounds_checks=1"
  [ "$threads" != 0 ] && o+=";parallel_min_extent=2;parallel_min_work=1"
  printf '%s' "$o"
}
if [ "$only" != dialect ]; then
pycache=$(mktemp -d /tmp/sa-fuzz-kernels.XXXXXX)
pyenv=(env PYTHONPATH="$build/python" SPARSE_ARRAY_CACHE_DIR="$pycache")
IFS=, read -r -a pythreads <<<"$threads"
[ "$threads" != 0 ] && pyenv+=(SPARSE_ARRAY_PARALLEL_MIN_ENTRIES=1)
for i in 0 1 2 3; do
  s=$((first + 80 + i))
  [ "$threads" != 0 ] && export OMP_NUM_THREADS=${pythreads[i % ${#pythreads[@]}]}
  o=$(pyopts)
  run "python programs seed $s threads ${OMP_NUM_THREADS:-default} ($o)" "${pyenv[@]}" SPARSE_ARRAY_OPTIONS="$o" $py \
    "$root/python/tests/fuzz_programs.py" --count $(n 250) --seed $s
  o=$(pyopts)
  run "python idioms seed $s threads ${OMP_NUM_THREADS:-default} ($o)" "${pyenv[@]}" SPARSE_ARRAY_OPTIONS="$o" $py \
    "$root/python/tests/fuzz_idioms.py" --count $(n 1000) --seed $s --trace
done
rm -rf "$pycache"
fi
echo "campaign: $passed of $total variants passed, $failed_runs runs with failures"
[ "$failed_runs" -eq 0 ] && [ "$passed" -eq "$total" ]
