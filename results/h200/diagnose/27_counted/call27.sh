#!/usr/bin/env bash
# Round 27: the one-round-trip floor of a completion (FinishPair, tune/lean/*_pair) beside the
# shipped completions, the same grids' read alone, cub, cuda/onepass and ref/read: f32, cold,
# 2^15 ... 2^19, 8 processes.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
echo "rev $(cat $D/REV)+pair nproc $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
O="-DCMAKE_CUDA_ARCHITECTURES=90 -DRB_ENABLE_TORCH=OFF -DRB_ENABLE_TRITON=OFF -DRB_BUILD_TESTS=OFF -DRB_TUNING_BACKENDS=ON"
cmake --preset release -B build/tune $O >$OUT/configure.log 2>&1 && cmake --build build/tune -j16 --target reduce_bench >$OUT/build.log 2>&1 || { grep -B2 -A10 error $OUT/build.log | head -30; exit 1; }
echo "build $((SECONDS-T0))s"
mkdir -p $OUT/runs
F='^(cub|cuda/onepass|ref/read|tune/lean/t256_u4_b4(_pair)?|tune/lean/t256_u8_b4_(s64|pair)|tune/leanread/t256_u[48]_b4)/[0-9]+/cold'
for p in 1 2 3 4 5 6 7 8; do
  timeout 100 build/tune/bench/reduce_bench --sizes=2^15,2^16,2^17,2^18,393216,2^19 --benchmark_filter="$F" \
    --benchmark_out=$OUT/runs/run_$p.json --benchmark_out_format=json >/dev/null 2>$OUT/runs/run_$p.err
  echo "run $p rc=$? $(grep -o '[0-9]* failed' $OUT/runs/run_$p.err | head -1) $((SECONDS-T0))s"
done
python3 $D/pooled27.py $OUT/runs/*.json | tee $OUT/pooled.txt
cd $OUT && tar czf runs.tgz runs && rm -rf runs
echo "total $((SECONDS-T0))s"
