#!/usr/bin/env bash
# Build, GPU tests, the randomized property test and compute-sanitizer on a GPU machine, in one
# go (the H200 session's "checks" run). Writes logs under OUT; prints a short summary.
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
grep "reduce-bench: CUDA" "$out/configure.log"

step "GPU tests (ctest -L gpu, property test run separately below)"
timeout 240 ctest --preset release -L gpu -E RandomizedGpu --timeout 200 >"$out/ctest_gpu.log" 2>&1
echo "ctest rc=$?"; grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" "$out/ctest_gpu.log"

step "randomized property test over every GPU backend"
timeout 200 "$build/tests/test_all_backends" --gtest_filter='AllBackends.RandomizedGpu' >"$out/property_gpu.log" 2>&1
echo "property rc=$?"; grep -E "\[ property|PASSED|FAILED" "$out/property_gpu.log" | head -5

step "compute-sanitizer over every GPU backend through reduce_bench (misaligned, odd sizes)"
for tool in memcheck racecheck initcheck synccheck; do
  timeout 80 compute-sanitizer --tool "$tool" --error-exitcode 86 "$B" --benchmark_filter='/hot' \
    --sizes=1,33,4097,100003 --offset=1 --dist=uniform --benchmark_min_time=1x >"$out/sanitize_bench_$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY' "$out/sanitize_bench_$tool.log" | tail -1) $(grep -E 'runs verified' "$out/sanitize_bench_$tool.log")"
done

step "compute-sanitizer over the CUDA kernel tests (scripts/sanitize.sh; no >2^31 or 2^24 boundary sizes)"
RB_SANITIZE_FILTER='-Huge.*:*BoundarySizes*' timeout 110 scripts/sanitize.sh "$build" >"$out/sanitize_tests.log" 2>&1
echo "sanitize.sh rc=$?"; tail -5 "$out/sanitize_tests.log"

# The device returns at most 8 files: logs travel as one archive.
(cd "$out" && tar czf logs.tgz --remove-files $(ls *.log 2>/dev/null))
step "done"
