#!/usr/bin/env bash
set -u
export PATH=/usr/local/cuda/bin:$PATH
D=$PWD/build/devscripts; T0=$SECONDS
K=$(find build/dev -name librb_kernels_cuda.a | head -1); C=$(find build/dev -name librb_cuda_check.a | head -1)
if [ -z "$K" ]; then
  cmake --preset release -B build/dev -DCMAKE_CUDA_ARCHITECTURES=90 -DRB_BUILD_TESTS=OFF >$OUT/build.log 2>&1
  cmake --build build/dev -j16 --target rb_kernels_cuda rb_cuda_check >>$OUT/build.log 2>&1
  K=$(find build/dev -name librb_kernels_cuda.a | head -1); C=$(find build/dev -name librb_cuda_check.a | head -1)
fi
nvcc -O2 -std=c++20 -I. -arch=sm_90 $D/probe_code.cu $K $C -o $OUT/probe_code >>$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "probe built $((SECONDS-T0))s"
ROUNDS=${ROUNDS:-600} timeout 200 $OUT/probe_code >$OUT/probe.txt 2>$OUT/probe.err; echo "probe rc=$? $((SECONDS-T0))s"
cd $OUT
python3 - <<'PY'
m={}
for l in open('probe.txt'):
    p=l.split()
    if len(p)==8 and p[2] in 'ABCD': m[(p[0],int(p[1]),p[2])]=(float(p[3]),float(p[6]))
for (b,n,mode),v in sorted(m.items()):
    if mode!='A': continue
    a=v[0]; d=lambda x: m[(b,n,x)][0]-a; e=lambda x: m[(b,n,x)][1]-v[1]
    print(f"{b:17} 2^{n.bit_length()-1:2} A {a:6.3f} med B {d('B'):+.3f} C {d('C'):+.3f} D {d('D'):+.3f} | mean A {v[1]:.3f} B {e('B'):+.3f} C {e('C'):+.3f} D {e('D'):+.3f}")
PY
