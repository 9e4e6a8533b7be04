#!/usr/bin/env bash
# The committed sweep behind results/<gpu>/ (every available backend, cold and hot, default
# sizes, 3 repetitions), after a release build (scripts/h200_checks.sh builds). NAME defaults to
# baseline; extra arguments go to reduce_bench (for example --dist=uniform --benchmark_min_time=1x
# for an accuracy-only sweep).
#   scripts/h200_sweep.sh OUT_DIR [NAME [reduce_bench args...]]
# Then, anywhere with matplotlib: scripts/plot.py OUT_DIR/baseline.json --out-dir results/<gpu>/
set -uo pipefail
out=${1:?usage: scripts/h200_sweep.sh OUT_DIR [NAME [reduce_bench args...]]}
name=${2:-baseline}
shift $(($# > 1 ? 2 : 1))
build=${RB_BUILD:-build/release}
mkdir -p "$out"
cmd=("$build/bench/reduce_bench" --benchmark_repetitions=3 --benchmark_min_time=0.005s
     --benchmark_display_aggregates_only=true --benchmark_out="$out/$name.json" --benchmark_out_format=json "$@")
echo "${cmd[*]}" >"$out/$name.command.txt"
start=$SECONDS
"${cmd[@]}" >"$out/$name.log" 2>&1
rc=$?
echo "sweep rc=$rc wall $((SECONDS - start))s" | tee -a "$out/$name.command.txt"
grep -E "measured|FAILED|nothing" "$out/$name.log" | tail -5 | tee -a "$out/$name.command.txt"
gzip -f "$out/$name.log"
exit $rc
