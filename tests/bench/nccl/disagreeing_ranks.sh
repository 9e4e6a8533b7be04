#!/usr/bin/env bash
# disagreeing_ranks.sh PROG file|tcp|mpi [MPIEXEC]: two processes of PROG (reduce_bench) launched the
# way torchrun does (RANK, WORLD_SIZE, LOCAL_RANK, TORCHELASTIC_RUN_ID), meeting through a file:
# rendezvous in a new directory or tcp:127.0.0.1 on a free port; or by MPIEXEC -np 2 (OpenMPI's
# mpirun; PROG built with MPI), MPI carrying the exchange. Needs no GPU: the ranks compare their
# arguments (bench/launch/agreement.hpp) before any GPU call. Three runs:
#   sizes  rank 1 with another --sizes  } both ranks exit 2; rank 0's stderr holds exactly one
#   seed   rank 1 with another --seed   } "disagree" line, naming the field and both values
#   same   the same arguments: they get past the agreement (no exit 2, no "disagree"); where
#          nccl/onepass is unavailable (no GPU, no NCCL) both then exit 3 for want of a row to run,
#          elsewhere they run it or fail on the GPU side
# Every rank runs under `timeout`: a rank it kills fails the test with "hang".
set -uo pipefail
prog=$1
transport=$2
mpiexec=${3:-mpirun}
[[ $transport == file || $transport == tcp || $transport == mpi ]] || { echo "usage: $0 PROG file|tcp|mpi [MPIEXEC]"; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
limit=60  # the agreement gives up after --collective_timeout (20 s; twice that on rank 1)
status=0
run=""
rc=()
fail() {
  echo "FAIL ($transport, $run): $*"
  status=1
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
    echo $((20000 + RANDOM % 20000))
}

# run_pair NAME: rank 0 with the arguments in args0, rank 1 with those in args1; sets rc[0], rc[1];
# their stderr in $dir/NAME.err0 and NAME.err1.
run_pair() {
  run=$1
  local spec="file:$dir/$run.id"
  [[ $transport == tcp ]] && spec="tcp:127.0.0.1:$(free_port)"
  local common=(--benchmark_filter='^nccl/onepass/[0-9]+/hot' --max_time=0.01 --collective_timeout=20
                --rendezvous="$spec")
  if [[ $transport == mpi ]]; then
    run_mpi_pair
    return
  fi
  local pids=()
  for r in 0 1; do
    local mine=("${args0[@]}")
    ((r == 1)) && mine=("${args1[@]}")
    env -u OMPI_COMM_WORLD_RANK -u OMPI_COMM_WORLD_SIZE -u PMI_RANK -u PMI_SIZE -u RB_RENDEZVOUS \
      RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r TORCHELASTIC_RUN_ID="rb-test-$$" \
      timeout -k 5 $limit "$prog" "${common[@]}" "${mine[@]}" >"$dir/$run.out$r" 2>"$dir/$run.err$r" &
    pids[r]=$!
  done
  for r in 0 1; do
    wait "${pids[r]}"
    rc[r]=$?
    echo "$run: rank $r: exit status ${rc[r]}"
    sed "s/^/  rank $r: /" "$dir/$run.err$r"
  done
  for r in 0 1; do
    if [[ ${rc[r]} -eq 124 || ${rc[r]} -eq 137 ]]; then fail "hang: rank $r killed by timeout after ${limit}s"; fi
  done
  if [[ $transport == file ]]; then
    local left=("$dir/$run".id*)
    [[ -e ${left[0]} ]] && fail "the rendezvous left files behind: ${left[*]##*/}"
  fi
}

# The same under MPIEXEC -np 2: each rank reads its own arguments from $dir/$run.args<rank> and
# writes its exit status to $dir/$run.rc<rank>; a rank with no status was killed (a hang).
run_mpi_pair() {
  printf '%s\n' "${args0[@]}" >"$dir/$run.args0"
  printf '%s\n' "${args1[@]}" >"$dir/$run.args1"
  cat >"$dir/rank.sh" <<'EOS'
#!/usr/bin/env bash
r=$OMPI_COMM_WORLD_RANK dir=$1 run=$2
shift 2
mapfile -t mine <"$dir/$run.args$r"
"$@" "${mine[@]}" >"$dir/$run.out$r" 2>"$dir/$run.err$r"
echo $? >"$dir/$run.rc$r"
EOS
  env -u RANK -u WORLD_SIZE -u LOCAL_RANK -u TORCHELASTIC_RUN_ID -u RB_RENDEZVOUS \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    timeout -k 5 $limit "$mpiexec" -np 2 --oversubscribe bash "$dir/rank.sh" "$dir" "$run" "$prog" \
    --benchmark_filter='^nccl/onepass/[0-9]+/hot' --max_time=0.01 --collective_timeout=20 >"$dir/$run.mpi" 2>&1
  for r in 0 1; do
    rc[r]=$(cat "$dir/$run.rc$r" 2>/dev/null || echo 124)
    echo "$run: rank $r: exit status ${rc[r]}"
    sed "s/^/  rank $r: /" "$dir/$run.err$r" 2>/dev/null
  done
  for r in 0 1; do
    if [[ ${rc[r]} -eq 124 ]]; then fail "hang: rank $r killed by timeout after ${limit}s"; fi
  done
}

# expect_disagreement NAME FIELD LINE: both ranks exit 2, rank 0 says LINE and nothing else with
# "disagree", rank 1 one line saying that rank 0 stopped the job.
expect_disagreement() {
  local field=$2 line=$3
  for r in 0 1; do
    [[ ${rc[r]} -eq 2 ]] || fail "rank $r exited ${rc[r]}, not 2"
  done
  local n
  n=$(grep -c disagree "$dir/$1.err0")
  [[ $n -eq 1 ]] || fail "rank 0 printed $n lines with \"disagree\", not one"
  grep -Fxq -- "$line" "$dir/$1.err0" || fail "rank 0 did not print: $line"
  grep -Eq "^reduce_bench: rank 1: rank 0 stopped the job: the ranks' arguments differ on $field " "$dir/$1.err1" ||
    fail "rank 1 did not say that rank 0 stopped the job over $field"
  [[ $(wc -l <"$dir/$1.err1") -eq 1 ]] || fail "rank 1 printed $(wc -l <"$dir/$1.err1") lines, not one"
}

args0=("--sizes=2^20,2^24" --seed=1)
args1=(--sizes=2^20 --seed=1)
run_pair sizes
expect_disagreement sizes --sizes 'reduce_bench: ranks disagree on --sizes: rank 0 has "2^20,2^24", rank 1 has "2^20"'

args0=(--sizes=2^20 --seed=1)
args1=(--sizes=2^20 --seed=2)
run_pair seed
expect_disagreement seed --seed 'reduce_bench: ranks disagree on --seed: rank 0 has "1", rank 1 has "2"'

args0=(--sizes=2^20 --seed=1)
args1=(--sizes=2^20 --seed=1)
run_pair same
for r in 0 1; do
  [[ ${rc[r]} -ne 2 ]] || fail "rank $r exited 2 with the same arguments"
  ! grep -q disagree "$dir/same.err$r" || fail "rank $r says \"disagree\" with the same arguments"
done
if timeout -k 5 $limit "$prog" --list_backends --gpus=1 2>&1 | grep -Eq '^nccl/onepass .* available$'; then
  echo "same: nccl/onepass is available here: the ranks ran it (or failed on the GPU side)"
else
  for r in 0 1; do
    [[ ${rc[r]} -eq 3 ]] || fail "rank $r exited ${rc[r]}, not 3 (no row to run without nccl/onepass)"
    grep -q "no available benchmark matches" "$dir/same.err$r" || fail "rank $r did not say that no row can run"
  done
fi

((status == 0)) && echo "ok: $transport: disagreeing ranks stop with one message, agreeing ones go on"
exit $status
