#!/usr/bin/env bash
# Does an untimed call of the same backend after the flush (mode B: its code back in L2, its data not)
# take away cub's per-process state? The round-22 probe in 8 processes.
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
cmake --preset release -B build/dev -DCMAKE_CUDA_ARCHITECTURES=90 -DRB_BUILD_TESTS=OFF >$OUT/build.log 2>&1
cmake --build build/dev -j16 --target rb_kernels_cuda rb_cuda_check >>$OUT/build.log 2>&1
K=$(find build/dev -name librb_kernels_cuda.a | head -1); C=$(find build/dev -name librb_cuda_check.a | head -1)
nvcc -O2 -std=c++20 -I. -arch=sm_90 $D/probe_code.cu $K $C -o /tmp/probe_code >>$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "probe built $((SECONDS-T0))s"
mkdir -p /tmp/pp
for p in 1 2 3 4 5 6 7 8; do
  ROUNDS=100 timeout 60 /tmp/probe_code >/tmp/pp/p$p.txt 2>/tmp/pp/p$p.err; echo "p$p rc=$? $((SECONDS-T0))s"
done
cd /tmp/pp && tar czf $OUT/probes.tgz p*.txt p*.err
python3 - <<'PY'
import collections
m=collections.defaultdict(dict)
for p in range(1,9):
    for l in open(f'/tmp/pp/p{p}.txt'):
        q=l.split()
        if len(q)==8 and q[2] in 'ABCD': m[(q[0],int(q[1]),q[2])][p]=float(q[3])
for b in ['cub','cuda/onepass','cuda/onepass@f64','ref/read']:
    for mode in 'ABD':
        for n in [1<<13,1<<15,1<<16,1<<17,1<<18,1<<20]:
            v=m.get((b,n,mode),{})
            if v: print(f"{b:17} {mode} 2^{n.bit_length()-1:2} " + ' '.join(f"{v[p]:.2f}" for p in sorted(v)) + f"   range {max(v.values())-min(v.values()):.2f}")
PY
