#!/usr/bin/env bash
# The hand-written kernels on a GPU machine, after a change to them, in two device calls:
#   scripts/h200_kernels.sh OUT_DIR measure    build, GPU ctest, cv at 2^24/2^28, the kernel sweep
#                                               (cub, ref/*, cuda/* cold, every default size, 5
#                                               randomly interleaved repetitions), rel_err on the
#                                               uniform input, ncu table
#   scripts/h200_kernels.sh OUT_DIR check      build, GPU ctest, compute-sanitizer over the kernel
#                                               tests and over reduce_bench's CUDA rows
# Builds build/kernels (release, without torch and Triton: they take no part here).
set -uo pipefail
out=${1:?usage: scripts/h200_kernels.sh OUT_DIR measure|check}
what=${2:?usage: scripts/h200_kernels.sh OUT_DIR measure|check}
build=build/kernels
B=$build/bench/reduce_bench
mkdir -p "$out"
step() { echo "== $1 (${SECONDS}s)"; }
json() { echo --benchmark_out="$out/$1.json" --benchmark_out_format=json; }

step "build"
cmake --preset release -B "$build" -DRB_ENABLE_TORCH=OFF -DRB_ENABLE_TRITON=OFF >"$out/configure.log" 2>&1 &&
  cmake --build "$build" -j"$(nproc)" >"$out/build.log" 2>&1 || { grep -B3 -A12 -E "error|Error" "$out/build.log" | head -60; exit 1; }

step "GPU tests"
timeout 200 ctest --test-dir "$build" -L gpu --timeout 150 --output-on-failure >"$out/ctest_gpu.log" 2>&1
echo "ctest rc=$?"; grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" "$out/ctest_gpu.log"
if [[ $what == measure ]]; then
  step "cv: 10 repetitions at 2^24 and 2^28"
  "$B" --benchmark_filter='^(cub|cuda/onepass)/.*/cold' --sizes=2^24,2^28 --benchmark_repetitions=10 \
    --benchmark_display_aggregates_only=true $(json cv) 2>&1 | grep -E "_cv "
  step "kernel sweep"
  cmd=("$B" --benchmark_filter='^(cub|ref/launch|ref/read|cuda/[a-z0-9_]+)/[0-9]+/cold' --benchmark_repetitions=5
       --benchmark_enable_random_interleaving=true --benchmark_min_time=0.005s --benchmark_display_aggregates_only=true)
  echo "${cmd[*]} $(json kernels)" >"$out/command.txt"
  start=$SECONDS
  "${cmd[@]}" $(json kernels) >"$out/kernels.log" 2>&1
  echo "sweep rc=$? wall $((SECONDS - start))s" | tee -a "$out/command.txt"; grep -E "runs verified|FAILED" "$out/kernels.log" | tail -3
  step "rel_err on the uniform input (onepass_f64's accuracy target)"
  "$B" --benchmark_filter='^cuda/onepass(_f64)?/.*/cold' --dist=uniform --sizes=2^20,2^24,2^28,2^31 \
    --benchmark_min_time=20x $(json uniform) >"$out/uniform.log" 2>&1
  echo "uniform rc=$?"
  python3 -c 'import json, sys; [print(b["name"], b.get("rel_err")) for b in json.load(open(sys.argv[1]))["benchmarks"]]' "$out/uniform.json"
  step "Nsight Compute: cuda/onepass vs cub at 2^20 and 2^28"
  timeout 150 python3 scripts/ncu_table.py "$build" "$out/ncu_onepass_vs_cub.md" cuda/onepass:2^20 cub:2^20 \
    cuda/onepass:2^28 cub:2^28 >"$out/ncu.log" 2>&1; echo "ncu rc=$?"; cat "$out/ncu_onepass_vs_cub.md" 2>/dev/null
else
  step "compute-sanitizer over the CUDA kernel tests"
  RB_SANITIZE_FILTER='-Huge.*:*BoundarySizes*' timeout 200 scripts/sanitize.sh "$build" >"$out/sanitize_tests.log" 2>&1
  echo "sanitize.sh rc=$?"; tail -5 "$out/sanitize_tests.log"
  step "compute-sanitizer over reduce_bench's CUDA rows (misaligned, odd sizes)"
  for tool in memcheck racecheck initcheck synccheck; do
    timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 86 "$B" --benchmark_filter='^(cub|cuda|ref)/.*/hot' \
      --sizes=1,33,4097,16385,100003,800001,8388611 --offset=1 --dist=uniform --benchmark_min_time=1x >"$out/sanitize_bench_$tool.log" 2>&1
    echo "$tool rc=$? $(grep -E 'ERROR SUMMARY' "$out/sanitize_bench_$tool.log" | tail -1) $(grep -E 'runs verified' "$out/sanitize_bench_$tool.log")"
  done
fi
# The device returns at most 8 files: logs travel as one archive.
(cd "$out" && tar czf logs.tgz --remove-files $(ls *.log 2>/dev/null))
step "done"
