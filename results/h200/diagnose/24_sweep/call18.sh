#!/usr/bin/env bash
# The failed timing test alone, three times; then the default sweep with each row's end stamped.
set -u
D=$PWD/build/devscripts; T0=$SECONDS
for k in 1 2 3; do
  RB_EXPECT_GPU=1 build/chk/tests/bench/test_gpu_runner --gtest_filter='GpuRunner.BlockingBackendColdIsNotFasterThanHot' > $OUT/blocking_$k.log 2>&1
  echo "blocking run $k rc=$?"; grep -E "cold .* us, hot|FAILED|OK \]" $OUT/blocking_$k.log | head -5
done
grep -B3 -A12 "BlockingBackendColdIsNotFasterThanHot" build/chk/Testing/Temporary/LastTest.log | grep -E "cold|Failure|Expected|Which" | head -12
B=build/chk/bench/reduce_bench
s=$SECONDS
$B --benchmark_out=$OUT/default.json --benchmark_out_format=json 2>$OUT/default.err | python3 $D/stamp.py >$OUT/default.log
echo "default rc=$? wall $((SECONDS-s))s"; tail -4 $OUT/default.err | cut -c1-200
head -9 $OUT/default.log | tail -2 | cut -c1-120
gzip -f $OUT/default.json $OUT/default.log
echo "total $((SECONDS-T0))s"
