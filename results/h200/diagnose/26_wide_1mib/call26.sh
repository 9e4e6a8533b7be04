#!/usr/bin/env bash
# The Wide path from 1 MiB (new: kOnepassWideMinN = 2^18 floats) against from 1.5 MiB (old, shipped):
# cub and cuda/onepass of f32, i32 and f16, cold, 512 KiB ... 2.5 MiB, 5 processes of each build,
# alternating.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
echo "rev $(cat $D/REV) nproc $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
O="-DCMAKE_CUDA_ARCHITECTURES=90 -DRB_ENABLE_TORCH=OFF -DRB_ENABLE_TRITON=OFF -DRB_BUILD_TESTS=OFF"
cmake --preset release -B build/old $O >$OUT/configure.log 2>&1 && cmake --build build/old -j16 --target reduce_bench >$OUT/build_old.log 2>&1 || { grep -B2 -A10 error $OUT/build_old.log | head -30; exit 1; }
echo "build old $((SECONDS-T0))s"
cp kernels/cuda/tuning.cuh $OUT/tuning_old.cuh
sed -i 's/kOnepassWideMinN = std::int64_t{3} << 17;/kOnepassWideMinN = std::int64_t{1} << 18;/' kernels/cuda/tuning.cuh
grep -n "kOnepassWideMinN =" kernels/cuda/tuning.cuh
cmake --preset release -B build/new $O >>$OUT/configure.log 2>&1 && cmake --build build/new -j16 --target reduce_bench >$OUT/build_new.log 2>&1 || { grep -B2 -A10 error $OUT/build_new.log | head -30; exit 1; }
cp $OUT/tuning_old.cuh kernels/cuda/tuning.cuh && rm $OUT/tuning_old.cuh
echo "build new $((SECONDS-T0))s"
mkdir -p $OUT/ab
for p in 1 2 3 4 5; do
  for b in old new; do
    build/$b/bench/reduce_bench --dtype=f32,i32,f16 --sizes=2^17,196608,2^18,327680,2^19,655360 \
      --benchmark_filter='^(cub|cuda/onepass)(@(i32|f16))?/[0-9]+/cold' \
      --benchmark_out=$OUT/ab/${b}_$p.json --benchmark_out_format=json >/dev/null 2>$OUT/ab/${b}_$p.err
    echo "$b $p rc=$? $(grep -o '[0-9]* failed' $OUT/ab/${b}_$p.err | head -1) $((SECONDS-T0))s"
  done
done
python3 $D/ab.py $OUT/ab/*.json | tee $OUT/ab.txt
cd $OUT && tar czf ab.tgz ab && rm -rf ab
echo "total $((SECONDS-T0))s"
