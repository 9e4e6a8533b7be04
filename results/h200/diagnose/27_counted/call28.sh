#!/usr/bin/env bash
# FinishCounted on i32's Mid path (new) against FinishEarly there (old): the typed kernel test on
# new, then cub and cuda/onepass of i32 and f32 (f32's code is the same in both: the control),
# cold, 2^13 ... 2^20, 5 processes of each build, alternating.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
echo "rev $(cat $D/REV)+counted nproc $(nproc)"
rm -rf /tmp/oldtree && mkdir -p /tmp/oldtree && tar --exclude=./build -cf - . | tar -xf - -C /tmp/oldtree
sed -i 's/std::conditional_t<std::is_integral_v<Acc>, FinishCounted, FinishEarly>/FinishEarly/' /tmp/oldtree/kernels/cuda/onepass.cuh
grep -c "using MidFinish = FinishEarly;" /tmp/oldtree/kernels/cuda/onepass.cuh
O="-DCMAKE_CUDA_ARCHITECTURES=90 -DRB_ENABLE_TORCH=OFF -DRB_ENABLE_TRITON=OFF"
(cmake --preset release -B build/new $O >$OUT/configure.log 2>&1 && cmake --build build/new -j10 --target reduce_bench test_onepass_typed >$OUT/build_new.log 2>&1; echo "new rc=$?") &
(cd /tmp/oldtree && cmake --preset release -B build/old $O -DRB_BUILD_TESTS=OFF >$OUT/configure_old.log 2>&1 && cmake --build build/old -j6 --target reduce_bench >$OUT/build_old.log 2>&1; echo "old rc=$?") &
wait
echo "builds $((SECONDS-T0))s"
timeout 240 build/new/tests/kernels/cuda/test_onepass_typed > $OUT/test_typed.log 2>&1; echo "test_onepass_typed rc=$? $(tail -3 $OUT/test_typed.log | tr '\n' ' ') $((SECONDS-T0))s"
grep -E "FAILED|Failure" $OUT/test_typed.log | head -5
mkdir -p $OUT/ab
for p in 1 2 3 4 5; do
  for b in old new; do
    B=build/$b/bench/reduce_bench; [ $b = old ] && B=/tmp/oldtree/build/old/bench/reduce_bench
    $B --dtype=f32,i32 --sizes=2^13,2^14,2^15,2^16,2^17,2^18,393216,2^19,2^20 \
      --benchmark_filter='^(cub|cuda/onepass)(@i32)?/[0-9]+/cold' \
      --benchmark_out=$OUT/ab/${b}_$p.json --benchmark_out_format=json >/dev/null 2>$OUT/ab/${b}_$p.err
    echo "$b $p rc=$? $(grep -o '[0-9]* failed' $OUT/ab/${b}_$p.err | head -1) $((SECONDS-T0))s"
  done
done
python3 $D/ab.py $OUT/ab/*.json | tee $OUT/ab.txt
cd $OUT && tar czf ab.tgz ab && rm -rf ab
echo "total $((SECONDS-T0))s"
