#!/usr/bin/env bash
# The default sweep with every row's end stamped (where its time goes), then the mid sizes of every
# type with 3 interleaved repetitions.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
echo "rev $(cat $D/REV) nproc $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
cmake --preset release -B build/dev -DCMAKE_CUDA_ARCHITECTURES=90 -DRB_BUILD_TESTS=OFF >$OUT/build.log 2>&1 && cmake --build build/dev -j16 --target reduce_bench >>$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build $((SECONDS-T0))s"; sleep 5
B=$PWD/build/dev/bench/reduce_bench
cd $OUT; s=$SECONDS
$B --benchmark_out=default.json --benchmark_out_format=json 2>default.err | python3 $D/stamp.py >default.log
echo "default wall $((SECONDS-s))s"; head -3 default.err
python3 -c "
import json
js={b['name']:b for b in json.load(open('default.json'))['benchmarks']}
print('accumulate_f64 2^28', js['cpu/accumulate_f64/268435456/hot/manual_time']['real_time']/1e6, 'ms')"
gzip -f default.json
if [ $((SECONDS-T0)) -lt 420 ]; then
  s=$SECONDS
  timeout $((560-(SECONDS-T0))) $B --dtype=all --sizes=2^13..2^18 --benchmark_filter='^(cub|cuda/onepass|ref/read)(@(f64|f16|bf16|i32))?/[0-9]+/cold' \
    --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true \
    --benchmark_out=mid.json --benchmark_out_format=json >mid.log 2>mid.err
  echo "mid rc=$? wall $((SECONDS-s))s"; gzip -f mid.json
fi
