#!/usr/bin/env bash
# Round 25: the slots spread one per 32-byte sector or 128-byte line (_sp32, _sp128) against packed,
# on Mid's FinishEarly, Wide's FinishStaggered and leanread; f32 and f64; two processes.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
echo "rev $(cat $D/REV)+spread nproc $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
T="reduce_bench test_onepass test_onepass_typed"
cmake --preset release -B build/tune -DCMAKE_CUDA_ARCHITECTURES=90 -DRB_TUNING_BACKENDS=ON -DRB_ENABLE_TORCH=OFF -DRB_ENABLE_TRITON=OFF >$OUT/configure.log 2>&1 && cmake --build build/tune -j16 --target $T >$OUT/build.log 2>&1 || { grep -B2 -A10 error $OUT/build.log | head -30; tail $OUT/configure.log; exit 1; }
echo "build $((SECONDS-T0))s"
for t in test_onepass test_onepass_typed; do
  RB_EXPECT_GPU=1 timeout 150 build/tune/tests/kernels/cuda/$t --gtest_brief=1 --gtest_filter='-Huge.*' > $OUT/$t.log 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' $OUT/$t.log | head -2 | tr '\n' ' ')"
done
F='^(cub|cuda/onepass|ref/read|tune/lean/t256_u4_b4(_sp32|_sp128)?|tune/leanread/t256_u4_b4(_sp32|_sp128)?|tune/lean/t256_u8_b4_s64(_sp32|_sp128)?)(@f64)?/[0-9]+/cold'
S=2^13,2^14,2^15,2^16,2^17,2^18,393216,2^19,786432,2^20
mkdir -p $OUT/r25
for p in 1 2; do
  build/tune/bench/reduce_bench --dtype=f32,f64 --sizes=$S --benchmark_filter="$F" --benchmark_repetitions=4 \
    --benchmark_enable_random_interleaving=true --max_time=0.1s --benchmark_out=$OUT/r25/tune_$p.json \
    --benchmark_out_format=json >/dev/null 2>$OUT/r25/tune_$p.err
  echo "process $p rc=$? $(grep -E 'measured' $OUT/r25/tune_$p.err | head -1 | cut -c1-150) $((SECONDS-T0))s"
done
for p in 1 2; do python3 scripts/tune_table.py $OUT/r25/tune_$p.json > $OUT/r25/table_$p.md; done
cat $OUT/r25/table_1.md
grep -E "^\| (cub|cuda/onepass|tune/lean/t256_u4_b4|tune/lean/t256_u8)" $OUT/r25/table_2.md
cd $OUT && tar czf r25.tgz r25 && rm -rf r25
echo "total $((SECONDS-T0))s"
