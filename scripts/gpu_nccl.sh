#!/usr/bin/env bash
# gpu_nccl.sh OUT BUILD: the multi-GPU measurement (scripts/gpu nccl), on a machine with >= 2 GPUs.
#   1. one process, --gpus=all: cuda/onepass and cub on one GPU and the nccl/* rows, cold, at
#      NCCL_SIZES (default 2^20..2^35) -> one_process.json
#   2. --gpus=1: the nccl/* rows on one GPU (the combine's fixed cost) -> one_gpu.json
#   3. two processes by torchrun --no-python (file rendezvous), the nccl/* rows -> torchrun.json
#   4. the same with NCCL's P2P and shared-memory transports off (tcp rendezvous), so NCCL goes
#      through its socket transport as between nodes -> torchrun_socket.json; NCCL's transport
#      lines in transports.txt
#   then table.md (scripts/nccl_table.py). Each NAME.command.txt holds its command and status.
set -uo pipefail
out=$1 build=$2
here=$(cd "$(dirname "$0")" && pwd)
bin=$build/bench/reduce_bench
sizes=${NCCL_SIZES:-2^20..2^35}
big=${NCCL_PROCESS_SIZES:-2^20,2^24,2^28,2^31,2^34,2^35}
export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on shared machines
status=0
run() {  # run NAME COMMAND...
  local name=$1
  shift
  echo "$*" >"$out/$name.command.txt"
  local t0=$SECONDS
  "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "exit status $rc, wall $((SECONDS - t0)) s" | tee -a "$out/$name.command.txt"
  grep -E "measured:|FAILED|nothing|samples$" "$out/$name.log" | grep -v "rank 1" | tail -4 | tee -a "$out/$name.command.txt"
  ((rc == 0)) || status=1
}
json() { echo "--benchmark_out=$out/$1.json" --benchmark_out_format=json; }
torchrun=(python3 -m torch.distributed.run --standalone --nproc-per-node=2 --no-python)

echo "== one process, all GPUs (${SECONDS}s)"
run one_process "$bin" --gpus=all --benchmark_filter='^(cuda/onepass|cub|nccl/[a-z/]*)/[0-9]+/cold' \
  --sizes="$sizes" $(json one_process)
echo "== one GPU (${SECONDS}s)"
run one_gpu "$bin" --gpus=1 --benchmark_filter='^nccl/.*/cold' --sizes=2^20,2^28 $(json one_gpu)
echo "== two processes, torchrun (${SECONDS}s)"
run torchrun env RB_RENDEZVOUS="file:/tmp/rb_nccl_id.$$" "${torchrun[@]}" "$bin" \
  --benchmark_filter='^nccl/.*/cold' --sizes="$big" $(json torchrun)
echo "== two processes, socket transport (${SECONDS}s)"
run torchrun_socket env NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_IB_DISABLE=1 NCCL_DEBUG=INFO \
  RB_RENDEZVOUS=tcp:127.0.0.1:29731 "${torchrun[@]}" "$bin" \
  --benchmark_filter='^nccl/.*/cold' --sizes="$big" $(json torchrun_socket)
grep -hE "via (NET|P2P|SHM)|Using network" "$out/torchrun_socket.log" | sort | uniq -c | head -8 >"$out/transports.txt"
cat "$out/transports.txt"
python3 "$here/nccl_table.py" "$out/one_process.json" "2 processes=$out/torchrun.json" \
  "2 processes, sockets=$out/torchrun_socket.json" >"$out/table.md" || status=1
cat "$out/table.md"
for f in one_process one_gpu torchrun torchrun_socket; do gzip -f "$out/$f.log"; done
exit $status
