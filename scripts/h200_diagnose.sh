#!/usr/bin/env bash
# Two investigations in one device call (results/h200/diagnose/README.md has what they showed):
#  1. CUB cold at 2^24 settles into one of two modes per run. Per-iteration samples (RB_SAMPLES),
#     the SM clock per run (sm_mhz), a second flush pass (RB_FLUSH_PASSES=2), and Nsight Compute
#     per kernel launch (duration, DRAM bytes, L2 hit rate) show where the microsecond goes.
#  2. The onepass completion and small-n paths: tune/onepass/* and tune/cluster/* beside cub,
#     ref/read and cuda/onepass, cold, randomly interleaved repetitions.
#   scripts/h200_diagnose.sh OUT_DIR [cub|tune|all]   (builds build/tune with the tuning backends)
# The flush experiment ran with one pass, the default then; it is 2 now, so `cub` forces 1.
set -uo pipefail
out=${1:?usage: scripts/h200_diagnose.sh OUT_DIR [cub|tune|all]}
what=${2:-all}
mkdir -p "$out"
step() { echo "== $1 (${SECONDS}s)"; }
j() { echo --benchmark_out="$out/$1.json" --benchmark_out_format=json; }
step "build"
cmake --preset release -B build/tune -DRB_TUNING_BACKENDS=ON -DRB_ENABLE_TORCH=OFF -DRB_ENABLE_TRITON=OFF >"$out/build.log" 2>&1 &&
  cmake --build build/tune -j16 --target reduce_bench test_onepass test_sum_variants test_onepass_f64 >>"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
B=build/tune/bench/reduce_bench
step "kernel tests"
for t in test_onepass test_sum_variants test_onepass_f64; do
  build/tune/tests/kernels/cuda/$t --gtest_brief=1 >"$out/$t.log" 2>&1; echo "$t rc=$?"; tail -2 "$out/$t.log"
done
if [[ $what != tune ]]; then
export RB_FLUSH_PASSES=1
step "cub 2^24 cold: samples, clocks"
RB_SAMPLES="$out/samples.csv" "$B" --benchmark_filter='^(cub|cuda/onepass)/16777216/cold' --sizes=2^24 \
  --benchmark_repetitions=6 --benchmark_min_time=300x $(j cub_samples) >"$out/cub_samples.log" 2>&1
RB_SAMPLES="$out/samples.csv" "$B" --benchmark_filter='^cub/16384/cold' --sizes=2^14 \
  --benchmark_repetitions=6 --benchmark_min_time=300x >"$out/cub_small.log" 2>&1
step "cub 2^24 cold, two flush passes"
RB_FLUSH_PASSES=2 "$B" --benchmark_filter='^cub/16777216/cold' --sizes=2^24 --benchmark_repetitions=6 \
  --benchmark_min_time=300x $(j cub_flush2) >"$out/cub_flush2.log" 2>&1
step "ncu per launch"
timeout 200 ncu --clock-control none --cache-control none -k regex:Reduce --csv --page raw \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,launch__grid_size \
  "$B" --benchmark_filter='^cub/16777216/cold' --sizes=2^24 --benchmark_repetitions=6 --benchmark_min_time=15x \
  >"$out/ncu_cub.csv" 2>"$out/ncu.log"; echo "ncu rc=$?"
unset RB_FLUSH_PASSES
fi
if [[ $what != cub ]]; then
step "cub cold, 10 repetitions, default flush"
RB_SAMPLES="$out/samples.csv" "$B" --benchmark_filter='^cub/.*/cold' --sizes=2^14,2^20,2^24 --benchmark_repetitions=10 \
  --benchmark_min_time=300x $(j cub_cv) >"$out/cub_cv.log" 2>&1
step "tuning sweep"
"$B" --benchmark_filter="${RB_TUNE_FILTER:-^(cub|ref/read|ref/launch|cuda/onepass|tune/onepass/t(256_u4_b4|512_u8_b2)(_ticket|_fenced)?)/[0-9]+/cold}" \
  --sizes=${RB_TUNE_SIZES:-2^12,2^14..2^22,2^24,2^26,2^28} \
  --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true --benchmark_min_time=400x \
  --benchmark_display_aggregates_only=true $(j tune) >"$out/tune.log" 2>&1; echo "tune rc=$?"
fi
step "SASS size of the one-block kernels"
cuobjdump -sass "$B" 2>/dev/null | awk '/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{c[f]++} END{for(k in c) print c[k], k}' |
  grep -E "SingleTile|single_block|onepass_kernelIfNS0_11LaunchShapeILi128ELi8" | sort -n >"$out/sass_sizes.txt"
cat "$out/sass_sizes.txt" | cut -c1-160
(cd "$out" && tar czf logs.tgz --remove-files $(ls *.log 2>/dev/null) && gzip -f samples.csv)
step "summary"
python3 scripts/diagnose_summary.py "$out"
