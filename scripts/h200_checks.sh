#!/usr/bin/env bash
# On a GPU machine: build, the whole test suite with RB_EXPECT_GPU=1 (a GPU test that skips
# fails), the mutation table (planted bugs and which check catches them), and the blocking
# backends cold against hot. Writes logs and JSON under OUT; prints a short summary.
#   scripts/h200_checks.sh OUT_DIR [BUILD_DIR]
set -uo pipefail
out=${1:?usage: scripts/h200_checks.sh OUT_DIR [BUILD_DIR]}
build=${2:-build/release}
B=$build/bench/reduce_bench
mkdir -p "$out"
step() { echo "== $1 (${SECONDS}s)"; }

step "build"
cmake --preset release >"$out/configure.log" 2>&1 && cmake --build --preset release -j"$(nproc)" >"$out/build.log" 2>&1 ||
  { grep -B3 -A12 -E "error|Error" "$out/build.log" | head -60; exit 1; }
grep "reduce-bench:" "$out/configure.log"

step "the whole test suite, RB_EXPECT_GPU=1 (mutants run below, with their table)"
RB_EXPECT_GPU=1 timeout 420 ctest --test-dir "$build" -E 'Mutants' --timeout 300 --no-tests=error >"$out/ctest.log" 2>&1
echo "ctest rc=$?"; grep -E "tests passed|tests failed|\*\*\*Failed|\*\*\*Skipped|Not Run|Timeout" "$out/ctest.log" | head -20

step "mutation table"
for side in cpu gpu; do
  RB_EXPECT_GPU=1 timeout 200 "$build/tests/mutants/test_mutants_$side" >"$out/mutants_$side.log" 2>&1
  echo "mutants_$side rc=$?"; grep -E "^\||OK \]|FAILED" "$out/mutants_$side.log"
done

step "blocking backends: cold against hot, event time and host wall time"
"$B" --benchmark_filter='^thrust/' --sizes=2^10,2^20,2^24,2^28 --benchmark_repetitions=5 \
  --benchmark_display_aggregates_only=true --benchmark_out="$out/thrust.json" --benchmark_out_format=json \
  >"$out/thrust.log" 2>&1
echo "thrust rc=$?"; grep -E "_median|measured" "$out/thrust.log"

# The device returns at most 8 files: logs travel as one archive.
(cd "$out" && tar czf logs.tgz --remove-files $(ls *.log 2>/dev/null))
step "done"
