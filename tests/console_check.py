#!/usr/bin/env python3
"""console_check.py REDUCE_BENCH CHECK: what a user sees, checked on the real binary.

  width     a CPU sweep's console: every line of stdout and stderr at most 160 characters, a
            header, no "DEBUG" warning; the JSON's context says Google Benchmark 1.9.5 built
            release, rows in ns
  flags     --benchmark_min_time=0.05s runs (Google Benchmark's rule, a time with its unit);
            --benchmark_time_unit=ms gives rows in ms
  skips     rows beyond host memory are skips in the JSON (skipped, skip_message), not errors; the
            console says SKIPPED once, not "SKIPPED: skipped:"
  marks     rows stopped short of the target (target_met 0 in the JSON), one of them after a single
            sample (no interval): each console row carries the * mark, and the others do not
  full      the console table into /dev/full: exit 1 and a line saying stdout could not be written
  no_gpu    --list_backends without a usable GPU: the cause in one line, which no backend's line
            repeats (exit 77, skipped, where a GPU is usable)
  listing   --list_backends: a header line over the rows, the f32 rows only by default and a closing
            line naming the other types with backends (f64, f16, bf16, i32) and --dtype=all, which
            lists their @<type> rows and needs no such line; --version names the program
  repetitions  with 3 interleaved repetitions, each repetition row's precision in the JSON is
            hypot(precision_run, between), between one value per benchmark, target_met 0 beyond
            the target; the console's +-95% column shows the widened precision
Exit status 0 passed, 1 failed, 77 skipped.
"""
import json
import os
import subprocess
import sys
import tempfile

WIDTH = 160
VERSION = os.environ.get("RB_VERSION", "")  # CMake's project version, set by tests/CMakeLists.txt


def run(prog, *args):
    p = subprocess.run([prog, *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def rows_of(path):
    with open(path) as f:
        doc = json.load(f)
    return doc["context"], doc["benchmarks"]


def run_json(prog, out_dir, name, *args):
    """prog with args and --benchmark_out=<out_dir>/<name>.json: (rc, stdout, stderr, path)."""
    path = os.path.join(out_dir, name + ".json")
    return (*run(prog, *args, "--benchmark_out=" + path), path)


def check_width(prog, out_dir):
    rc, out, err, path = run_json(prog, out_dir, "w", "--sizes=1000,2^20,2^24", "--benchmark_filter=^cpu/",
                                  "--max_time=20ms")
    failures = []
    if rc != 0:
        failures.append("exit status {}".format(rc))
    for where, text in (("stdout", out), ("stderr", err)):
        for line in text.splitlines():
            if len(line) > WIDTH:
                failures.append("{} line of {} characters: {}".format(where, len(line), line))
    if "DEBUG" in out + err:
        failures.append("a DEBUG warning was printed")
    if not any(line.startswith("benchmark ") and "median" in line for line in out.splitlines()):
        failures.append("no header line")
    if len([l for l in out.splitlines() if l.startswith("cpu/")]) < 20:
        failures.append("fewer than 20 rows on stdout:\n" + out)
    context, rows = rows_of(path)
    if context.get("library_version") != "v1.9.5" or context.get("library_build_type") != "release":
        failures.append("context: library_version {!r}, library_build_type {!r}".format(
            context.get("library_version"), context.get("library_build_type")))
    if {r["time_unit"] for r in rows} != {"ns"}:
        failures.append("time units {}".format({r["time_unit"] for r in rows}))
    return failures


def check_flags(prog, out_dir):
    failures = []
    rc, out, err = run(prog, "--sizes=1000", "--benchmark_filter=cpu/accumulate_accf64", "--benchmark_min_time=0.05s")
    if rc != 0 or "0 failed" not in err:
        failures.append("--benchmark_min_time=0.05s: exit status {}\n{}{}".format(rc, out, err))
    rc, out, err, path = run_json(prog, out_dir, "ms", "--sizes=1000", "--benchmark_filter=cpu/accumulate_accf64",
                                  "--max_time=20ms", "--benchmark_time_unit=ms")
    if rc != 0:
        failures.append("--benchmark_time_unit=ms: exit status {}\n{}".format(rc, err))
    else:
        _, rows = rows_of(path)
        if [r["time_unit"] for r in rows] != ["ms"] or not 0 < rows[0]["real_time"] < 1:
            failures.append("--benchmark_time_unit=ms: rows {}".format(rows))
    return failures


def check_skips(prog, out_dir):
    rc, out, err, path = run_json(prog, out_dir, "skip", "--sizes=1000,2^40", "--benchmark_filter=cpu/accumulate_accf64",
                                  "--max_time=20ms")
    failures = []
    if rc != 0:
        failures.append("exit status {}\n{}".format(rc, err))
    _, rows = rows_of(path)
    skipped = [r for r in rows if r.get("skipped")]
    if len(rows) != 2 or len(skipped) != 1 or "host memory" not in skipped[0].get("skip_message", ""):
        failures.append("expected one skipped row of two: {}".format(rows))
    if any(r.get("error_occurred") for r in rows):
        failures.append("a skip is reported as an error: {}".format(rows))
    if "SKIPPED: n = 1099511627776 needs" not in out or "SKIPPED: skipped:" in out:
        failures.append("the console does not show the skip, its word once:\n" + out)
    return failures


def check_marks(prog, out_dir):
    # 1000: the minimum samples cannot be reached in 20 ms; 2^24: one call takes longer than
    # --max_time, so it stops after one sample, with no interval.
    rc, out, err, path = run_json(prog, out_dir, "marks", "--sizes=1000,2^24", "--benchmark_filter=cpu/accumulate_accf64",
                                  "--min_samples=100000000", "--max_samples=100000000", "--max_time=1ms",
                                  "--timeout=1ms")
    if rc != 0:
        return ["exit status {}\n{}".format(rc, err)]
    _, rows = rows_of(path)
    failures = []
    short = [r for r in rows if r.get("target_met") == 0]
    if len(short) != 2 or not any("precision" not in r for r in short):
        failures.append("expected 2 rows short of the target, one without an interval: {}".format(rows))
    for r in rows:
        name = r["run_name"].replace("/manual_time", "")
        line = [l for l in out.splitlines() if l.startswith(name + " ")]
        if len(line) != 1:
            failures.append("no console line for {}:\n{}".format(name, out))
            continue
        marked = "%*" in line[0] or " -*" in line[0]
        if marked != (r.get("target_met") == 0):
            failures.append("target_met {} but the console shows: {}".format(r.get("target_met"), line[0]))
    return failures


def check_full(prog, _):
    if not os.path.exists("/dev/full"):
        print("skipped: no /dev/full here")
        sys.exit(77)
    with open("/dev/full", "w") as full:
        p = subprocess.run([prog, "--sizes=1000", "--benchmark_filter=^cpu/accumulate/", "--max_time=20ms",
                            "--timeout=20ms"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=600)
    if p.returncode != 1 or "reduce_bench: cannot write the console table to stdout" not in p.stderr:
        return ["stdout on /dev/full: exit {}, expected 1 and a message:\n{}".format(p.returncode, p.stderr)]
    return []


def check_listing(prog, _):
    failures = []
    listings = {}
    for dtype in ("f32", "all", "f64"):
        rc, out, err = run(prog, "--list_backends", "--dtype=" + dtype)
        if rc != 0:
            return ["--list_backends --dtype={}: exit status {}\n{}".format(dtype, rc, err)]
        lines = [l for l in out.splitlines() if not l.startswith("GPU backends: ")]
        listings[dtype] = lines
        if not lines or lines[0].split() != ["backend", "determinism", "availability", "here"]:
            failures.append("--dtype={}: no header line first:\n{}".format(dtype, out))
    default, every, f64 = listings["f32"], listings["all"], listings["f64"]
    if any("@" in l.split()[0] for l in default[1:-1]) or not any(l.startswith("cpu/accumulate ") for l in default):
        failures.append("the default listing is not the f32 rows:\n" + "\n".join(default))
    hint = default[-1] if default else ""
    want = ["f64 (", "f16 (", "bf16 (", "i32 (", "--dtype=all"]
    if not hint.startswith("other element types: ") or not all(w in hint for w in want):
        failures.append("no closing line naming the other types and --dtype=all: " + hint)
    if not any(l.startswith("cpu/accumulate@f64 ") for l in every) or every[-1].startswith("other element types"):
        failures.append("--dtype=all: no @f64 rows, or a hint though every type is listed:\n" + "\n".join(every))
    if not f64[-1].startswith("other element types: ") or "f32 (" not in f64[-1] or "f64 (" in f64[-1]:
        failures.append("--dtype=f64: the closing line should name f32, not f64: " + f64[-1])
    rc, out, err = run(prog, "--version")
    if rc != 0 or out.strip() != "reduce_bench " + VERSION or err:
        failures.append("--version: exit {}, {!r} {!r}".format(rc, out, err))
    return failures


def check_repetitions(prog, out_dir):
    rc, out, err, path = run_json(prog, out_dir, "reps", "--sizes=4097,1e5", "--benchmark_filter=cpu/accumulate_accf64",
                                  "--max_time=20ms", "--benchmark_repetitions=3",
                                  "--benchmark_enable_random_interleaving=true")
    failures = []
    if rc != 0:
        return ["exit status {}\n{}".format(rc, err)]
    _, rows = rows_of(path)
    reps = [r for r in rows if r.get("run_type") == "iteration" and "precision" in r]
    if len(reps) != 6:
        failures.append("expected 6 repetition rows with a precision: {}".format(rows))
    between = {}
    for r in reps:
        if "precision_run" not in r or "between" not in r:
            failures.append("no precision_run or between: {}".format(r))
            continue
        if abs(r["precision"] - (r["precision_run"] ** 2 + r["between"] ** 2) ** 0.5) > 1e-9 * max(1.0, r["precision"]):
            failures.append("precision is not hypot(precision_run, between): {}".format(r))
        between.setdefault(r["run_name"], set()).add(r["between"])
        if r["precision"] > 0.005 and r["target_met"] != 0:
            failures.append("target_met 1 beyond the target: {}".format(r))
        shown = "{:.2f}%".format(100 * r["precision"]) if r["precision"] < 10 else ">999%"
        name = r["run_name"].replace("/manual_time", "")
        if not any(l.startswith(name + " ") and shown in l for l in out.splitlines()):
            failures.append("the console does not show {} at {}:\n{}".format(name, shown, out))
    if any(len(v) != 1 for v in between.values()):
        failures.append("between differs among one benchmark's repetitions: {}".format(between))
    return failures


def check_no_gpu(prog, _):
    rc, out, err = run(prog, "--list_backends")
    if rc != 0:
        return ["--list_backends: exit status {}".format(rc)]
    gpu_lines = [l for l in out.splitlines() if l.startswith("GPU backends")]
    if not gpu_lines and any(" available" in l for l in out.splitlines() if l.startswith("cub ")):
        print("skipped: a GPU is usable here")
        sys.exit(77)
    failures = []
    if len(gpu_lines) != 1:
        failures.append("{} 'GPU backends' lines:\n{}".format(len(gpu_lines), out))
    causes = ("no NVIDIA driver", "no CUDA device", "the NVIDIA driver supports CUDA", "GPU backends not built")
    if gpu_lines and not any(c in gpu_lines[0] for c in causes):
        failures.append("the GPU line names no cause: " + gpu_lines[0])
    if "insufficient" in out:
        failures.append("a misleading 'insufficient driver' message:\n" + out)
    if gpu_lines:
        cause = gpu_lines[0].split("unavailable: ", 1)[-1]
        repeated = [l for l in out.splitlines() if cause in l and not l.startswith("GPU backends")]
        if repeated:
            failures.append("the cause is repeated on {} backend lines".format(len(repeated)))
    return failures


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("width", "flags", "skips", "marks", "full", "listing", "no_gpu", "repetitions"):
        print(__doc__)
        return 2
    prog, check = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as d:
        failures = globals()["check_" + check](prog, d)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
