#!/usr/bin/env bash
# FinishFixed on the float Mid grid (new) against FinishEarly there (old): the kernel tests on new,
# then cub, cuda/onepass and ref/read of f32, f16 and bf16, cold, 2^13 ... 2^20, 5 processes of
# each build, alternating.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
echo "rev $(cat $D/REV)+fixed nproc $(nproc)"
rm -rf /tmp/oldtree && mkdir -p /tmp/oldtree && tar --exclude=./build -cf - . | tar -xf - -C /tmp/oldtree
sed -i 's/Tuning::one_tile_mid, FinishFixed, FinishEarly/Tuning::one_tile_mid, FinishEarly, FinishEarly/' /tmp/oldtree/kernels/cuda/onepass.cuh
grep -c "one_tile_mid, FinishEarly, FinishEarly" /tmp/oldtree/kernels/cuda/onepass.cuh
O="-DCMAKE_CUDA_ARCHITECTURES=90 -DRB_ENABLE_TORCH=OFF -DRB_ENABLE_TRITON=OFF"
K="test_finish_fixed test_onepass test_onepass_typed test_sum_variants test_onepass_tuning test_onepass_f64"
(cmake --preset release -B build/new $O >$OUT/configure.log 2>&1 && cmake --build build/new -j10 --target reduce_bench $K >$OUT/build_new.log 2>&1; echo "new rc=$?") &
(cd /tmp/oldtree && cmake --preset release -B build/old $O -DRB_BUILD_TESTS=OFF >$OUT/configure_old.log 2>&1 && cmake --build build/old -j6 --target reduce_bench >$OUT/build_old.log 2>&1; echo "old rc=$?") &
wait
echo "builds $((SECONDS-T0))s"
grep -E "error|FAILED" $OUT/build_new.log | head -20
for t in $K; do
  f=$(find build/new/tests -name $t -type f -perm -u+x | head -1)
  timeout 300 $f > $OUT/$t.log 2>&1; echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $OUT/$t.log | tr '\n' ' ') $((SECONDS-T0))s"
  grep -E "^\[  FAILED|Failure|error" $OUT/$t.log | head -8
done
mkdir -p $OUT/ab
for p in 1 2 3 4 5; do
  for b in old new; do
    B=build/$b/bench/reduce_bench; [ $b = old ] && B=/tmp/oldtree/build/old/bench/reduce_bench
    $B --dtype=f32,f16,bf16 --sizes=2^13,2^14,2^15,2^16,2^17,2^18,393216,2^19,2^20 \
      --benchmark_filter='^(cub|cuda/onepass|ref/read)(@(f16|bf16))?/[0-9]+/cold' \
      --benchmark_out=$OUT/ab/${b}_$p.json --benchmark_out_format=json >/dev/null 2>$OUT/ab/${b}_$p.err
    echo "$b $p rc=$? $(grep -o '[0-9]* failed' $OUT/ab/${b}_$p.err | head -1) $((SECONDS-T0))s"
  done
done
python3 $D/ab.py $OUT/ab/*.json | tee $OUT/ab.txt
cd $OUT && tar czf ab.tgz ab *.log && rm -rf ab
echo "total $((SECONDS-T0))s"
