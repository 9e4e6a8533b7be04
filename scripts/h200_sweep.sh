#!/usr/bin/env bash
# The measurements behind results/<gpu>/, after a release build (scripts/h200_checks.sh builds):
# the Nsight Compute table, the cv check, two identical sweeps through the regression gate, and
# the committed baseline sweep (every available backend, cold and hot, default sizes, repetitions).
#   scripts/h200_sweep.sh OUT_DIR [BUILD_DIR]
# Then, anywhere with matplotlib: scripts/plot.py OUT_DIR/baseline.json --out-dir results/<gpu>/
set -uo pipefail
out=${1:?usage: scripts/h200_sweep.sh OUT_DIR [BUILD_DIR]}
build=${2:-build/release}
B=$build/bench/reduce_bench
mkdir -p "$out"
step() { echo "== $1 (${SECONDS}s)"; }

step "Nsight Compute: cuda/onepass vs cub at 2^20 and 2^28"
timeout 150 python3 scripts/ncu_table.py "$build" "$out/ncu_onepass_vs_cub.md" cuda/onepass:2^20 cub:2^20 cuda/onepass:2^28 cub:2^28 \
  >"$out/ncu.log" 2>&1; echo "ncu rc=$?"; cat "$out/ncu_onepass_vs_cub.md" 2>/dev/null

step "stability: 10 repetitions at 2^24 and 2^28 (cv)"
"$B" --benchmark_filter='^(cub|cuda/onepass)/.*/cold' --sizes=2^24,2^28 --benchmark_repetitions=10 \
  --benchmark_display_aggregates_only=true --benchmark_out="$out/cv.json" --benchmark_out_format=json 2>&1 | grep -E "_cv "

step "two identical sweeps for the regression gate"
for i in 1 2; do
  "$B" --benchmark_filter='^(cub|cuda/onepass|cuda/onepass_f64|triton/onepass|torch/sum|ref/read)/.*/cold' \
    --sizes=2^16,2^20,2^24,2^28 --benchmark_repetitions=5 --benchmark_min_time=0.01s \
    --benchmark_out="$out/regress_$i.json" --benchmark_out_format=json >/dev/null 2>&1
done
python3 scripts/regress "$out/regress_1.json" "$out/regress_2.json" >"$out/regress.txt" 2>&1; echo "regress rc=$?"; tail -3 "$out/regress.txt"
step "baseline sweep"
cmd=("$B" --benchmark_repetitions=3 --benchmark_min_time=0.005s
     --benchmark_display_aggregates_only=true --benchmark_out="$out/baseline.json" --benchmark_out_format=json)
echo "${cmd[*]}" >"$out/command.txt"
start=$SECONDS
"${cmd[@]}" >"$out/baseline.log" 2>&1
rc=$?
echo "sweep rc=$rc wall $((SECONDS - start))s" | tee -a "$out/command.txt"
grep -E "runs verified|FAILED" "$out/baseline.log" | tail -5
# The device returns at most 8 files: logs travel as one archive.
(cd "$out" && tar czf logs.tgz --remove-files $(ls *.log 2>/dev/null))
exit $rc
