#!/usr/bin/env bash
# warp_sum<long long> through redux.sync (new) against the shuffle butterfly (old): kernel tests of
# the new build, then cub, cuda/onepass and ref/read of f32 and i32 cold, 2^10 ... 2^22, in 4
# processes of each build, alternating.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
echo "rev $(cat $D/REV) nproc $(nproc)"
T="reduce_bench test_warp_sum test_onepass_typed test_onepass test_ref"
cmake --preset release -B build/new -DCMAKE_CUDA_ARCHITECTURES=90 -DRB_ENABLE_TORCH=OFF -DRB_ENABLE_TRITON=OFF >$OUT/configure.log 2>&1 && cmake --build build/new -j16 --target $T >$OUT/build_new.log 2>&1 || { grep -B2 -A10 error $OUT/build_new.log | head -30; exit 1; }
echo "build new $((SECONDS-T0))s"
for t in test_warp_sum test_onepass_typed test_onepass test_ref; do
  RB_EXPECT_GPU=1 timeout 200 build/new/tests/kernels/cuda/$t --gtest_brief=1 --gtest_filter='-Huge.*' > $OUT/$t.log 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' $OUT/$t.log | head -2 | tr '\n' ' ')"
done
cp kernels/cuda/warp_sum.cuh $OUT/new_warp_sum.cuh; cp $D/old_warp_sum.cuh kernels/cuda/warp_sum.cuh
cmake --preset release -B build/old -DCMAKE_CUDA_ARCHITECTURES=90 -DRB_ENABLE_TORCH=OFF -DRB_ENABLE_TRITON=OFF >>$OUT/configure.log 2>&1 && cmake --build build/old -j16 --target reduce_bench >$OUT/build_old.log 2>&1 || { grep -B2 -A10 error $OUT/build_old.log | head -30; exit 1; }
cp $OUT/new_warp_sum.cuh kernels/cuda/warp_sum.cuh
echo "build old $((SECONDS-T0))s"
mkdir -p $OUT/ab
for p in 1 2 3 4; do
  for b in old new; do
    build/$b/bench/reduce_bench --dtype=f32,i32 --sizes=2^10..2^22 --benchmark_filter='^(cub|cuda/onepass|ref/read)(@i32)?/[0-9]+/cold' \
      --benchmark_out=$OUT/ab/${b}_$p.json --benchmark_out_format=json >/dev/null 2>$OUT/ab/${b}_$p.err
    echo "$b $p rc=$? $(grep -o '[0-9]* failed' $OUT/ab/${b}_$p.err | head -1) $((SECONDS-T0))s"
  done
done
python3 $D/ab.py $OUT/ab/*.json | tee $OUT/ab.txt | grep -E "@i32|processes|row" 
cd $OUT && tar czf ab.tgz ab && rm -rf ab
echo "total $((SECONDS-T0))s"
