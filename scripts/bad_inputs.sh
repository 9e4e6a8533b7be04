#!/usr/bin/env bash
# Runs reduce_bench on every kind of bad input and writes a markdown table of the message and the
# exit status actually observed (the same cases are asserted by tests/CMakeLists.txt's
# reduce_bench.* tests and tests/bench/*). CPU backends only, so it runs anywhere.
#   scripts/bad_inputs.sh [BUILD_DIR] > table.md
set -u
build=${1:-build/release}
B="$build/bench/reduce_bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import math, struct, sys, os
d = sys.argv[1]
def write(name, values):
    with open(os.path.join(d, name), "wb") as f:
        f.write(struct.pack(f"<{len(values)}f", *values))
write("x1000.bin", [(-1) ** i * (1 + i % 7) / 8 for i in range(1000)])
write("nan.bin", [1.0] * 10 + [math.nan] + [2.0] * 10)
write("inf.bin", [1.0] * 10 + [math.inf] + [2.0] * 10)
write("both_inf.bin", [math.inf, -math.inf] + [2.0] * 10)
write("unheld.bin", [70000.0, 1e-9, 20.0, math.nan] + [0.5] * 8)
open(os.path.join(d, "odd.bin"), "wb").write(b"\0" * 4001)
open(os.path.join(d, "empty.bin"), "wb").close()
open(os.path.join(d, "locked.bin"), "wb").write(b"\0" * 400)
PY
chmod 000 "$tmp/locked.bin"
cpu=(--benchmark_filter='cpu/accumulate_accf64' --benchmark_min_time=0.001s)
as=()  # set to run a row as another user (see the unreadable-file row)
row() {  # row "case" args...
  local what=$1; shift
  local out rc
  out=$("${as[@]}" "$B" "$@" 2>&1); rc=$?
  local msg
  msg=$(printf '%s\n' "$out" | grep -E "reduce_bench:|ERROR OCCURRED|SKIPPED|error|^  [a-z0-9, ]+ at n = " |
        grep -v -E "GPU benchmarks skipped|calls checked|the input as the rows" | head -3 | sed 's/|/\\|/g' | tr '\n' ' ')
  printf '| %s | `%s` | %s | %s |\n' "$what" "$*" "$rc" "${msg:-(no message)}"
}
{
echo "| case | arguments | exit | message (stderr/stdout) |"
echo "|---|---|---|---|"
row "input file missing" --input="$tmp/nope.bin" "${cpu[@]}"
# root reads a mode-000 file anyway: run that row as nobody where possible.
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
  chmod 755 "$tmp"
  as=(runuser -u nobody --)
  row "input file unreadable (run as nobody)" --input="$tmp/locked.bin" "${cpu[@]}"
  as=()
else
  row "input file unreadable$( [ "$(id -u)" = 0 ] && echo ' (run as root: readable anyway)')" --input="$tmp/locked.bin" "${cpu[@]}"
fi
row "input is a directory" --input="$tmp" "${cpu[@]}"
row "input shorter than 4n bytes" --input="$tmp/x1000.bin" --sizes=1000,1001 "${cpu[@]}"
row "input shorter than every size (nothing measured)" --input="$tmp/x1000.bin" --sizes=2000,4000 "${cpu[@]}"
row "input size not a multiple of 4" --input="$tmp/odd.bin" "${cpu[@]}"
row "input file empty" --input="$tmp/empty.bin" "${cpu[@]}"
row "data with NaN (expected NaN)" --input="$tmp/nan.bin" --sizes=21 "${cpu[@]}"
row "data with +Inf (expected +Inf)" --input="$tmp/inf.bin" --sizes=21 "${cpu[@]}"
row "data with +Inf and -Inf (expected NaN)" --input="$tmp/both_inf.bin" --sizes=12 "${cpu[@]}"
row "values f16 and i32 cannot hold, and NaN" --input="$tmp/unheld.bin" --sizes=12 --dtype=f16,i32 --benchmark_filter='cpu/accumulate@' --benchmark_min_time=0.001s
row "n = 0 (sum 0)" --sizes=0 "${cpu[@]}"
row "n = 1" --sizes=1 "${cpu[@]}"
row "n beyond host memory" --sizes=1000,2^40 "${cpu[@]}"
row "malformed --sizes" --sizes=1,12q
row "negative size" --sizes=-5
row "--sizes without a value" --sizes
row "range backwards" --sizes=2^20..2^10
row "malformed --seed" --seed=x1
row "unknown --dist" --dist=gauss
row "--offset out of range" --offset=65
row "unknown flag" --frobnicate
row "filter matches nothing" --benchmark_filter=no_such_backend
} | sed "s#$tmp#\$TMP#g"
