#!/usr/bin/env bash
# two_ranks.sh PROG [--no-agreement]: two processes of PROG, one GPU each, launched the way
# torchrun does (RANK, WORLD_SIZE, LOCAL_RANK, a file rendezvous). PROG is reduce_bench_nccl_faults
# (faults_from_env.cpp): reduce_bench that takes the faults of bench/nccl/faults.hpp from the
# environment. Rank 1 gets random timing noise (RB_NCCL_TEST_NOISE_US), so its stopping rule alone
# would take a different number of samples and the collectives would lose their partners. Passes
# when both ranks exit 0 within the time limit, report the same sample count for each of the 6
# rows, and rank 1 wrote no JSON and no table.
# --no-agreement is the control: the agreement switched off (RB_NCCL_UNSAFE_NO_AGREEMENT), the
# same run must go wrong after both ranks had started measuring, and end in a clean abort: some
# rank's stderr holds the NCCL team's abort (bench/nccl/team.cpp: "NCCL team aborted: no progress
# on GPU ..." after --collective_timeout, or "... asynchronous error on GPU" when a peer's abort
# reached it), and every rank that fails exits with the harness's own status and line (1 with
# "reduce_bench: FAILED <row>: ...", or 4 with "nothing was measured" when the lost partners made
# every row skip), not by a signal. A rank that `timeout` had to kill fails either variant with
# "hang: rank R killed by timeout". Exit 77 (skipped) without two GPUs or the rows.
set -uo pipefail
prog=$1
extra=()
[[ ${2:-} == --no-agreement ]] && extra=(env RB_NCCL_UNSAFE_NO_AGREEMENT=1)
# The control's ranks each wait at most this long for a lost partner (at most twice in a row, the
# second after the first one's abort), well inside `timeout`'s 90 s.
wait_s=40
[[ -n ${extra[*]} ]] && wait_s=20
limit=90
if ! "$prog" --list_backends --gpus=2 2>&1 | grep -Eq '^nccl/onepass .* available$'; then
  echo "skipped: nccl/onepass is not available with --gpus=2 here"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=(--benchmark_filter='^nccl/onepass/[0-9]' "--sizes=4097,1000003,4194305" --dist=uniform
      --precision=0.0001% --min_samples=6 --max_time=0.05 "--collective_timeout=$wait_s" --rendezvous="file:$dir/id")
for r in 0 1; do
  RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r RB_NCCL_TEST_NOISE_US=1:300 \
    timeout -k 10 $limit "${extra[@]}" "$prog" "${args[@]}" --benchmark_out="$dir/rank$r.json" \
    >"$dir/out$r" 2>"$dir/err$r" &
  pids[r]=$!
done
failed=0
hung=0
for r in 0 1; do
  wait "${pids[r]}"
  rc[r]=$?
  echo "rank $r: exit status ${rc[r]}"
  [[ ${rc[r]} -eq 0 ]] || failed=1
done
cat "$dir/err0" "$dir/err1"
for r in 0 1; do
  # 124: `timeout` sent SIGTERM; 137: SIGKILL, 10 s later, as SIGTERM did not end it.
  if [[ ${rc[r]} -eq 124 || ${rc[r]} -eq 137 ]]; then
    echo "FAIL: hang: rank $r killed by timeout after ${limit}s"
    hung=1
  fi
done
((hung)) && exit 1
grep -o 'nccl/[^:]*: [0-9]* samples' "$dir/err0" >"$dir/s0"
grep -o 'nccl/[^:]*: [0-9]* samples' "$dir/err1" >"$dir/s1"
diff "$dir/s0" "$dir/s1" >/dev/null || failed=1
if [[ -n ${extra[*]} ]]; then
  # The control: it must have started measuring (a usage error fails too, for the wrong reason).
  [[ -s $dir/s0 || -s $dir/s1 ]] || { echo "FAIL: the control never measured a row"; exit 1; }
  ((failed)) || { echo "FAIL: without the agreement the ranks still agreed: the test cannot see a divergence"; exit 1; }
  status=0
  aborted=0
  for r in 0 1; do
    grep -Eq 'NCCL team aborted: (no progress on GPU|asynchronous error on GPU)' "$dir/err$r" && aborted=1
    case ${rc[r]} in
      0) ;;
      1) grep -q '^reduce_bench: FAILED ' "$dir/err$r" ||
           { echo "FAIL: rank $r exited 1 without the harness's \"reduce_bench: FAILED\" line"; status=1; } ;;
      4) grep -q '^reduce_bench: nothing was measured' "$dir/err$r" ||
           { echo "FAIL: rank $r exited 4 without the harness's \"nothing was measured\" line"; status=1; } ;;
      *) echo "FAIL: rank $r exited ${rc[r]}: no clean abort (a crash or a signal?)"; status=1 ;;
    esac
  done
  if ((!aborted)); then
    echo "FAIL: the ranks diverged, but no rank reported the NCCL team's abort (\"NCCL team aborted: no progress" \
         "on GPU\" or \"... asynchronous error on GPU\"): the divergence went unnoticed"
    status=1
  fi
  ((status)) || echo "ok: without the agreement the ranks diverged and aborted cleanly within ${wait_s}s waits"
  exit $status
fi
status=$failed
((failed)) && echo "FAIL: a rank failed, or the ranks' sample counts differ"
[[ $(wc -l <"$dir/s0") -eq 6 ]] || { echo "FAIL: expected 6 rows per rank"; status=1; }
[[ -s $dir/rank0.json ]] || { echo "FAIL: rank 0 wrote no JSON"; status=1; }
[[ ! -e $dir/rank1.json ]] || { echo "FAIL: rank 1 wrote JSON"; status=1; }
[[ ! -s $dir/out1 ]] || { echo "FAIL: rank 1 printed a console table"; status=1; }
exit $status
