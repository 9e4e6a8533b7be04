#!/usr/bin/env bash
# What sets CUB's cold mode at mid sizes: the same instance, one process per variant, rounds alternating.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
echo "rev $(cat $D/REV) nproc $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
cmake --preset release -B build/dev -DCMAKE_CUDA_ARCHITECTURES=90 -DRB_BUILD_TESTS=OFF >$OUT/build.log 2>&1 && cmake --build build/dev -j16 --target reduce_bench >>$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build $((SECONDS-T0))s"
B=$PWD/build/dev/bench/reduce_bench
cd $OUT
F='^(cub|cuda/onepass|ref/read)/[0-9]+/cold'
M='--sizes=2^13..2^18'
run() { local tag=$1; shift; local s=$SECONDS
  $B "$@" --benchmark_out=$tag.json --benchmark_out_format=json >$tag.log 2>$tag.err; echo "$tag rc=$? $((SECONDS-s))s"; }
for r in 1 2 3; do
  [ $((SECONDS-T0)) -gt 470 ] && break
  run seq_$r $M --benchmark_filter="$F"
  run il3_$r $M --benchmark_filter="$F" --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true
  run rep3_$r $M --benchmark_filter="$F" --benchmark_repetitions=3
  run cubonly_$r $M --benchmark_filter='^cub/[0-9]+/cold'
  run big_$r --sizes=2^13..2^18,2^31 --benchmark_filter="$F"
  run allsz_$r --benchmark_filter='^(cub|cuda/onepass|ref/read)/'
  run shuf_$r $M --benchmark_filter="$F" --benchmark_enable_random_interleaving=true
done
python3 $D/modes.py *.json
tar czf modes.tgz *.json *.log *.err; rm -f *.json *.log
