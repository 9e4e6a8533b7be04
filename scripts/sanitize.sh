#!/usr/bin/env bash
# Runs the CUDA kernel tests under compute-sanitizer's memcheck (with leak check), racecheck,
# initcheck and synccheck; prints one summary line per tool; exits non-zero if any tool reports
# an error, any test fails, or any test skips itself (no GPU: nothing would have been checked).
#
#   scripts/sanitize.sh [BUILD_DIR]    (default: build)
#
# Binaries: BUILD_DIR/tests/kernels/cuda/test_*. The > 2^31 test is left out (Huge.*: 9 GB under
# instrumentation is slow and covers no code path the small sizes miss); RB_SANITIZE_FILTER
# overrides the gtest filter. Full logs: BUILD_DIR/sanitize/<tool>.<binary>.log.
# COMPUTE_SANITIZER names the tool when it is not on PATH or in /usr/local/cuda/bin.
set -uo pipefail

build=${1:-build}
dir="$build/tests/kernels/cuda"
filter=${RB_SANITIZE_FILTER:--Huge.*}

sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
if [[ ! -x $sanitizer ]]; then
  echo "sanitize: compute-sanitizer not found (set COMPUTE_SANITIZER)" >&2
  exit 2
fi
mapfile -t binaries < <(find "$dir" -maxdepth 1 -type f -name 'test_*' -perm -u+x 2>/dev/null | sort)
if ((${#binaries[@]} == 0)); then
  echo "sanitize: no test binaries in $dir (build the tests first)" >&2
  exit 2
fi
logs="$build/sanitize"
host_only=(test_layout)  # tests of host code only (kernels/cuda/layout.cuh)
mkdir -p "$logs"

# The last number in lines matching $2 of log $1, or 0.
last_count() { sed -n "s/.*$2.*/\\1/p" "$1" | tail -n 1 | grep . || echo 0; }

status=0
for tool in memcheck racecheck initcheck synccheck; do
  options=()
  [[ $tool == memcheck ]] && options=(--leak-check full)
  errors=0 passed=0 skipped=0 failed=()
  for bin in "${binaries[@]}"; do
    name=$(basename "$bin")
    # A binary whose tests the filter removes entirely, or that makes no CUDA call, gives
    # compute-sanitizer nothing to check, and it exits 255 for it (seen on the H200): skip those
    # rather than count them as failures. (No nm here: the H200 machine has no binutils.)
    [[ " ${host_only[*]} " == *" $name "* ]] && continue
    "$bin" --gtest_filter="$filter" --gtest_list_tests 2>/dev/null | grep -q '^  ' || continue
    log="$logs/$tool.$name.log"
    "$sanitizer" --tool "$tool" "${options[@]}" --error-exitcode 86 "$bin" --gtest_filter="$filter" >"$log" 2>&1
    rc=$?
    errors=$((errors + $(last_count "$log" 'ERROR SUMMARY: \([0-9][0-9]*\) error')))
    passed=$((passed + $(last_count "$log" '\[  PASSED  \] \([0-9][0-9]*\) test')))
    skipped=$((skipped + $(last_count "$log" '\[  SKIPPED \] \([0-9][0-9]*\) test')))
    ((rc != 0)) && failed+=("$name (exit $rc)")
  done
  verdict=ok
  if ((errors > 0 || ${#failed[@]} > 0)); then
    verdict=FAILED
  elif ((passed == 0 || skipped > 0)); then
    verdict="FAILED (tests skipped themselves: is there a GPU?)"
  fi
  [[ $verdict == ok ]] || status=1
  printf '%-10s %s: %d errors, %d tests passed, %d skipped in %d binaries%s\n' "$tool" "$verdict" "$errors" \
    "$passed" "$skipped" "${#binaries[@]}" "${failed[*]:+; failed: ${failed[*]}}"
done
echo "logs: $logs"
exit "$status"
