#!/usr/bin/env bash
# The --dtype=all sweep at the head.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
echo "rev $(cat $D/REV) nproc $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ! -x build/dev/bench/reduce_bench ]; then
  cmake --preset release -B build/dev -DCMAKE_CUDA_ARCHITECTURES=90 -DRB_BUILD_TESTS=OFF >$OUT/build.log 2>&1 && cmake --build build/dev -j16 --target reduce_bench >>$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
fi
echo "build $((SECONDS-T0))s load $(cut -d' ' -f1-3 /proc/loadavg)"
B=$PWD/build/dev/bench/reduce_bench
cd $OUT; s=$SECONDS
$B --dtype=all --benchmark_out=run.json --benchmark_out_format=json >all.log 2>all.err
echo "dtype=all rc=$? wall $((SECONDS-s))s"; head -3 all.err
python3 -c "
import json
js={b['name']:b for b in json.load(open('run.json'))['benchmarks']}
print('accumulate_f64 2^28', js['cpu/accumulate_f64/268435456/hot/manual_time']['real_time']/1e6, 'ms')"
gzip -f run.json; gzip -f all.log
