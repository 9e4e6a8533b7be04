#!/usr/bin/env bash
# Mid sizes of every type in 8 separate processes (cub's cold state is drawn per process), then the
# default sweep with each row's end stamped.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
echo "rev $(cat $D/REV) nproc $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
cmake --preset release -B build/dev -DCMAKE_CUDA_ARCHITECTURES=90 -DRB_BUILD_TESTS=OFF >$OUT/build.log 2>&1 && cmake --build build/dev -j16 --target reduce_bench >>$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build $((SECONDS-T0))s"
B=$PWD/build/dev/bench/reduce_bench
mkdir -p $OUT/p && cd $OUT/p
for p in 1 2 3 4 5 6 7 8; do
  s=$SECONDS
  $B --dtype=all --sizes=2^13..2^18 --benchmark_filter='^(cub|cuda/onepass|ref/read)(@(f64|f16|bf16|i32))?/[0-9]+/cold' \
    --benchmark_out=mid_$p.json --benchmark_out_format=json >mid_$p.log 2>mid_$p.err
  echo "mid_$p rc=$? $((SECONDS-s))s"
done
python3 $D/pooled.py mid_*.json | tee ../pooled.txt
tar czf ../mid.tgz *.json *.err; cd ..; rm -rf p
if [ $((SECONDS-T0)) -lt 400 ]; then
  s=$SECONDS
  $B --benchmark_out=default.json --benchmark_out_format=json 2>default.err | python3 $D/stamp.py >default.log
  echo "default wall $((SECONDS-s))s"; tail -3 default.err
  gzip -f default.json default.log
fi
