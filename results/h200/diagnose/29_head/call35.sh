#!/usr/bin/env bash
# The head (same build as call34 when the machine is still warm): the one-type runs of f32, f16
# and bf16, the 8th mid-size process, the uniform twin, the default sweep of 3 repetitions (the
# baseline), then the --dtype=all sweep in the time left. Every JSON comes back in one archive.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS; L=$(mktemp -d); mkdir -p $L/dt
echo "rev $(cat $D/REV) nproc $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ ! -x build/chk/bench/reduce_bench ]]; then
  cmake --preset release -B build/chk -DCMAKE_CUDA_ARCHITECTURES=90 -DRB_BUILD_TESTS=OFF >$L/configure.log 2>&1 && cmake --build build/chk -j16 --target reduce_bench >$L/build.log 2>&1 || { grep -B2 -A10 error $L/build.log | head -40; exit 1; }
fi
echo "build $((SECONDS-T0))s"
B=build/chk/bench/reduce_bench
pack() { (cd $L && gzip -kf dt/*.json 2>/dev/null; tar czf $OUT/dt.tgz dt/*.json.gz *.err *.log 2>/dev/null); }
for t in f32 f16 bf16; do
  s=$SECONDS
  $B --dtype=$t --benchmark_filter="^(cub|cub/acc16|cuda/onepass|cuda/mma|torch/[a-z0-9_]+|triton/[a-z0-9_]+|ref/read)(@$t)?/[0-9]+/cold" \
    --benchmark_out=$L/dt/per_type_$t.json --benchmark_out_format=json >/dev/null 2>$L/per_type_$t.err
  echo "per_type $t rc=$? wall $((SECONDS-s))s $(grep -E 'measured' $L/per_type_$t.err | head -1)"
done
s=$SECONDS
$B --dtype=all --sizes=2^13..2^18 --benchmark_filter='^(cub|cuda/onepass|ref/read)(@(f64|f16|bf16|i32))?/[0-9]+/cold' \
  --benchmark_out=$L/dt/mid_8.json --benchmark_out_format=json >/dev/null 2>$L/mid_8.err
echo "mid 8 rc=$? wall $((SECONDS-s))s $(grep -E 'measured' $L/mid_8.err | head -1)"
s=$SECONDS
timeout 120 $B --benchmark_repetitions=1 --benchmark_display_aggregates_only=true --dist=uniform --benchmark_min_time=1x \
  --benchmark_out=$L/dt/uniform.json --benchmark_out_format=json >/dev/null 2>$L/uniform.err
echo "uniform rc=$? wall $((SECONDS-s))s"; tail -2 $L/uniform.err | cut -c1-200
pack
echo "load before the baseline $(cut -d' ' -f1-3 /proc/loadavg)"
s=$SECONDS
timeout 300 $B --benchmark_repetitions=3 --benchmark_display_aggregates_only=true \
  --benchmark_out=$L/dt/baseline.json --benchmark_out_format=json >$L/baseline.log 2>$L/baseline.err
echo "baseline rc=$? wall $((SECONDS-s))s"; tail -3 $L/baseline.err | cut -c1-220
pack
left=$((585 - (SECONDS - T0)))
echo "time left for dtype=all: ${left}s; load $(cut -d' ' -f1-3 /proc/loadavg)"
if ((left > 280)); then
  s=$SECONDS
  timeout $left $B --dtype=all --benchmark_out=$L/dt/run.json --benchmark_out_format=json >/dev/null 2>$L/run.err
  echo "dtype=all rc=$? wall $((SECONDS-s))s"; tail -3 $L/run.err | cut -c1-240
  pack
fi
echo "total $((SECONDS-T0))s"
