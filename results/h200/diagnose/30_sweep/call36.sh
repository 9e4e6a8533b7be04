#!/usr/bin/env bash
# The head under compute-sanitizer (memcheck, synccheck) on FinishFixed's tests and the typed Mid
# paths, then the default sweep timed with each row's end stamped.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS; L=$(mktemp -d)
echo "rev $(cat $D/REV) nproc $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
cmake --preset release -B build/chk -DCMAKE_CUDA_ARCHITECTURES=90 >$L/configure.log 2>&1 && cmake --build build/chk -j16 --target reduce_bench test_finish_fixed >$L/build.log 2>&1 || { grep -B2 -A10 error $L/build.log | head -40; exit 1; }
echo "build $((SECONDS-T0))s"
T=build/chk/tests/kernels/cuda
for tool in memcheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $T/test_finish_fixed >$L/san_${tool}_fixed.log 2>&1
  echo "$tool test_finish_fixed rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $L/san_${tool}_fixed.log | tr '\n' ' ') $((SECONDS-T0))s"
done
B=build/chk/bench/reduce_bench
echo "load before the sweep $(cut -d' ' -f1-3 /proc/loadavg)"
s=$SECONDS
timeout $((290 - (SECONDS - T0))) $B --benchmark_out=$L/default.json --benchmark_out_format=json 2>$L/default.err | python3 $D/stamp.py >$L/default.log
echo "default rc=$? wall $((SECONDS-s))s"; tail -4 $L/default.err | cut -c1-220
gzip -f $L/default.json $L/default.log
tar czf $OUT/logs.tgz -C $L .
echo "total $((SECONDS-T0))s"
