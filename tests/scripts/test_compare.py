#!/usr/bin/env python3
"""test_compare.py REDUCE_BENCH COMPARE_PY: scripts/compare on two small real runs.

Two CPU runs (rows at 2^10, 2^16, 2^20) through scripts/compare: its "Time Old" and "Time New"
columns must be non-zero and equal each run's real_time (rounded as compare.py prints it), row by
row. Exit 77 (skipped) where this interpreter lacks numpy or scipy, or there is no compare.py.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.realpath(__file__))
COMPARE = os.path.join(HERE, "..", "..", "scripts", "compare")


def main(prog, compare_py):
    try:
        import numpy  # noqa: F401
        import scipy  # noqa: F401
    except ImportError:
        print("skipped: this interpreter has no numpy/scipy")
        return 77
    if not os.path.isfile(compare_py):
        print("skipped: no compare.py at " + compare_py)
        return 77
    failures = []
    with tempfile.TemporaryDirectory() as d:
        runs = []
        for tag in ("a", "b"):
            path = os.path.join(d, tag + ".json")
            subprocess.run([prog, "--sizes=2^10,2^16,2^20", "--benchmark_filter=^cpu/(accumulate_f32|avx2_f32)/[0-9]",
                            "--max_time=20ms", "--benchmark_out=" + path], check=True, capture_output=True)
            with open(path) as f:
                runs.append({r["name"]: r["real_time"] for r in json.load(f)["benchmarks"]})
        out = subprocess.run([sys.executable, COMPARE, "--compare-py", compare_py, "--no-color",
                              os.path.join(d, "a.json"), os.path.join(d, "b.json")], capture_output=True, text=True)
    print(out.stdout + out.stderr)
    if out.returncode != 0:
        return 1
    seen = 0
    for line in out.stdout.splitlines():
        m = re.match(r"^(\S+)\s+[+-]\d+\.\d+\s+[+-]\d+\.\d+\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s*$", line)
        if not m or m.group(1) not in runs[0]:
            continue
        seen += 1
        name, old, new = m.group(1), int(m.group(2)), int(m.group(3))
        want = (round(runs[0][name]), round(runs[1][name]))
        if old == 0 or new == 0:
            failures.append("{}: a time column reads 0: {}".format(name, line))
        if abs(old - want[0]) > 1 or abs(new - want[1]) > 1:
            failures.append("{}: columns {} {}, JSON real_time {} {}".format(name, old, new, *want))
    if seen != len(runs[0]):
        failures.append("{} of {} rows found in compare.py's output".format(seen, len(runs[0])))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
