#!/usr/bin/env bash
# The head on the GPU: build (torch, Triton, tests), GPU-labelled tests, the GPU rows of every type
# on an unheld input, the one-type runs of f32, f16 and bf16, the 8 mid-size processes (every type),
# and the uniform twin of the sweep.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS; L=$(mktemp -d)
echo "rev $(cat $D/REV) nproc $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
cmake --preset release -B build/chk -DCMAKE_CUDA_ARCHITECTURES=90 >$L/configure.log 2>&1 && cmake --build build/chk -j16 >$L/build.log 2>&1 || { grep -B2 -A10 error $L/build.log | head -40; tail -20 $L/configure.log; exit 1; }
echo "build $((SECONDS-T0))s"; grep -iE "torch|triton" $L/configure.log | head -4
RB_EXPECT_GPU=1 timeout 280 ctest --test-dir build/chk -L gpu -j4 --timeout 250 --no-tests=error >$L/ctest_gpu.log 2>&1
echo "ctest -L gpu rc=$? $((SECONDS-T0))s"
grep -E "tests passed|tests failed|\*\*\*Failed|Not Run|Timeout" $L/ctest_gpu.log | head -20
echo "skipped: $(grep -c 'Skipped' $L/ctest_gpu.log)"
python3 - <<'P'
import struct, math, random
random.seed(7)
x = [random.uniform(-1, 1) for _ in range(200003)]
for i, v in [(3, math.nan), (100, math.inf), (2000, 70000.0), (2001, -3e9), (2500, 1e-9), (4098, 20.0), (17, -1e6), (150001, 3e30)]:
    x[i] = v
open('/tmp/unheld.bin', 'wb').write(struct.pack(f'<{len(x)}f', *x))
P
B=build/chk/bench/reduce_bench
$B --input=/tmp/unheld.bin --sizes=12,4099,131075,200003 --dtype=all --benchmark_filter='^(cub|cub/acc16|cuda/onepass|cuda/mma|thrust/reduce|torch/sum|torch/sum_f32|triton/onepass|triton/onepass_acc16|ref/read|cpu/accumulate)(@[a-z0-9]+)?/' \
  --max_time=20ms --timeout=20ms --benchmark_out=$L/unheld.json --benchmark_out_format=json >$L/unheld.log 2>$L/unheld.err
echo "unheld rc=$?"; grep -E "measured|FAILED" $L/unheld.err | head -5
mkdir -p $OUT/dt
for t in f32 f16 bf16; do
  s=$SECONDS
  $B --dtype=$t --benchmark_filter="^(cub|cub/acc16|cuda/onepass|cuda/mma|torch/[a-z0-9_]+|triton/[a-z0-9_]+|ref/read)(@$t)?/[0-9]+/cold" \
    --benchmark_out=$OUT/dt/per_type_$t.json --benchmark_out_format=json >/dev/null 2>$L/per_type_$t.err
  echo "per_type $t rc=$? wall $((SECONDS-s))s $(grep -E 'measured' $L/per_type_$t.err | head -2 | tr '\n' ' ')"
done
for p in 1 2 3 4 5 6 7 8; do
  s=$SECONDS
  $B --dtype=all --sizes=2^13..2^18 --benchmark_filter='^(cub|cuda/onepass|ref/read)(@(f64|f16|bf16|i32))?/[0-9]+/cold' \
    --benchmark_out=$OUT/dt/mid_$p.json --benchmark_out_format=json >/dev/null 2>$L/mid_$p.err
  echo "mid $p rc=$? wall $((SECONDS-s))s $(grep -E 'measured' $L/mid_$p.err | head -1)"
done
s=$SECONDS
timeout 120 $B --benchmark_repetitions=1 --benchmark_display_aggregates_only=true --dist=uniform --benchmark_min_time=1x \
  --benchmark_out=$OUT/dt/uniform.json --benchmark_out_format=json >/dev/null 2>$L/uniform.err
echo "uniform rc=$? wall $((SECONDS-s))s"; tail -2 $L/uniform.err | cut -c1-220
gzip -f $OUT/dt/*.json $L/unheld.json $L/ctest_gpu.log
tar czf $OUT/logs.tgz -C $L .
echo "total $((SECONDS-T0))s"
