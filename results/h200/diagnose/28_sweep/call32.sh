#!/usr/bin/env bash
# i32's one-type run and the 8th mid-size process (their files did not come back from call30), then
# the --dtype=all sweep at the head, timed.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS; L=$(mktemp -d)
echo "rev $(cat $D/REV) nproc $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
cmake --preset release -B build/dev -DCMAKE_CUDA_ARCHITECTURES=90 -DRB_BUILD_TESTS=OFF >$L/configure.log 2>&1 && cmake --build build/dev -j16 --target reduce_bench >$L/build.log 2>&1 || { grep -B2 -A10 error $L/build.log | head -40; exit 1; }
echo "build $((SECONDS-T0))s"; grep -ciE "torch|triton" $L/configure.log
B=build/dev/bench/reduce_bench
s=$SECONDS
$B --dtype=i32 --benchmark_filter="^(cub|cub/acc16|cuda/onepass|cuda/mma|torch/[a-z0-9_]+|triton/[a-z0-9_]+|ref/read)(@i32)?/[0-9]+/cold" \
  --benchmark_out=$OUT/per_type_i32.json --benchmark_out_format=json >/dev/null 2>$OUT/per_type_i32.err
echo "per_type i32 rc=$? wall $((SECONDS-s))s $(grep -E 'measured' $OUT/per_type_i32.err | head -1)"
s=$SECONDS
$B --dtype=all --sizes=2^13..2^18 --benchmark_filter='^(cub|cuda/onepass|ref/read)(@(f64|f16|bf16|i32))?/[0-9]+/cold' \
  --benchmark_out=$OUT/mid_8.json --benchmark_out_format=json >/dev/null 2>$OUT/mid_8.err
echo "mid 8 rc=$? wall $((SECONDS-s))s $(grep -E 'measured' $OUT/mid_8.err | head -1)"
gzip -f $OUT/per_type_i32.json $OUT/mid_8.json
echo "load before the sweep $(cut -d' ' -f1-3 /proc/loadavg)"
s=$SECONDS
timeout 380 $B --dtype=all --benchmark_out=$L/run.json --benchmark_out_format=json >/dev/null 2>$OUT/run.err
echo "dtype=all rc=$? wall $((SECONDS-s))s"; tail -3 $OUT/run.err | cut -c1-240
gzip -c $L/run.json > $OUT/run.json.gz
echo "total $((SECONDS-T0))s"
