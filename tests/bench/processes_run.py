#!/usr/bin/env python3
"""reduce_bench --processes end to end (bench/launch/processes.hpp).

usage: processes_run.py REDUCE_BENCH pooled|refused|interrupted

pooled: 3 processes (and 2 processes of 2 repetitions): every row's runs from every process in one
JSON, renumbered, widened by the scatter between them, the temporaries removed.
refused: bad values, a non-JSON output, an empty selection: the usage status, one process at most.
interrupted: SIGINT as the second process starts (before it exists or before its handlers are in)
and while it samples: exit 5 each time, the first process's rows pooled and written, no third
process started, no temporary left.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

FILTER = "--benchmark_filter=^cpu/accumulate/"


def environment(tmp):
    env = dict(os.environ)
    for k in ("RANK", "WORLD_SIZE", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "BENCHMARK_OUT"):
        env.pop(k, None)
    env["TMPDIR"] = tmp
    return env


def run(prog, tmp, *args):
    return subprocess.run([prog] + list(args), env=environment(tmp), capture_output=True, text=True, timeout=240)


def leftovers(tmp):
    return [f for f in os.listdir(tmp) if f.startswith("reduce_bench.processes.")]


def check_pool(doc, processes, repetitions, errors):
    if doc["context"].get("processes") != str(processes):
        errors.append("context processes {} != {}".format(doc["context"].get("processes"), processes))
    rows = {}
    for b in doc["benchmarks"]:
        if b.get("run_type") != "iteration":
            errors.append("an aggregate row in the pooled file: " + b["name"])
        rows.setdefault(b["run_name"], []).append(b)
    if len(rows) != 2:
        errors.append("{} rows, expected 2 (two sizes)".format(len(rows)))
    for name, runs in rows.items():
        want = processes * repetitions
        if len(runs) != want:
            errors.append("{}: {} runs, expected {}".format(name, len(runs), want))
        if sorted(r["process"] for r in runs) != sorted(p for p in range(processes) for _ in range(repetitions)):
            errors.append("{}: processes {}".format(name, [r["process"] for r in runs]))
        if [r["repetition_index"] for r in runs] != list(range(len(runs))) or {r["repetitions"] for r in runs} != {want}:
            errors.append("{}: repetitions not renumbered over the pool".format(name))
        if len({r["between"] for r in runs}) != 1:
            errors.append("{}: more than one between term".format(name))
        for r in runs:
            if abs(r["precision"] - (r["precision_run"] ** 2 + r["between"] ** 2) ** 0.5) > 1e-12 * r["precision"]:
                errors.append("{}: precision {} is not precision_run {} widened by between {}".format(
                    name, r["precision"], r["precision_run"], r["between"]))
            if r["target_met"] and r["precision"] > 0.005:
                errors.append("{}: target_met at {}".format(name, r["precision"]))


def pooled(prog, tmp):
    errors = []
    for processes, repetitions in ((3, 1), (2, 2)):
        out = os.path.join(tmp, "pooled.json")
        p = run(prog, tmp, "--processes={}".format(processes), "--sizes=1000,4099", FILTER,
                "--benchmark_repetitions={}".format(repetitions), "--benchmark_out=" + out)
        if p.returncode != 0:
            return ["--processes={} exit {}:\n{}{}".format(processes, p.returncode, p.stdout, p.stderr)]
        for i in range(1, processes + 1):
            if "reduce_bench: process {} of {}".format(i, processes) not in p.stdout:
                errors.append("no 'process {} of {}' line".format(i, processes))
        if "across {} processes: 2 rows".format(processes) not in p.stdout:
            errors.append("no pooled summary:\n" + p.stdout[-800:])
        with open(out) as f:
            check_pool(json.load(f), processes, repetitions, errors)
        if leftovers(tmp):
            errors.append("temporaries left: {}".format(leftovers(tmp)))
    return errors


def refused(prog, tmp):
    errors = []
    out = os.path.join(tmp, "r.json")
    cases = [(["--processes=0"], 2, "invalid --processes"), (["--processes=101"], 2, "invalid --processes"),
             (["--processes=2", "--benchmark_out=" + out, "--benchmark_out_format=csv"], 2, "must be json"),
             (["--processes=2", "--benchmark_filter=^no_such_backend/"], 3, "no available benchmark")]
    for args, rc, said in cases:
        p = run(prog, tmp, *args)
        if p.returncode != rc or said not in p.stderr:
            errors.append("{}: exit {} (want {}), stderr: {}".format(args, p.returncode, rc, p.stderr.strip()))
        if "process 2 of 2" in p.stdout:
            errors.append("{}: a second process ran after the first refused".format(args))
    if os.path.exists(out):
        errors.append("a refused run wrote " + out)
    if leftovers(tmp):
        errors.append("temporaries left: {}".format(leftovers(tmp)))
    return errors


def interrupted(prog, tmp):
    return interrupted_after(prog, tmp, 0.0) + interrupted_after(prog, tmp, 0.5)


def interrupted_after(prog, tmp, delay):
    out = os.path.join(tmp, "i{}.json".format(delay))
    # Rows the precision cannot stop: each samples 1.5 s, so the signal lands inside the second process.
    args = [prog, "--processes=3", "--sizes=1000,2000", FILTER, "--min_samples=100000000", "--max_samples=100000000",
            "--max_time=1.5s", "--timeout=1.5s", "--benchmark_out=" + out]
    proc = subprocess.Popen(args, env=environment(tmp), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = ""
    deadline = time.monotonic() + 120
    while "process 2 of 3" not in seen:
        line = proc.stdout.readline()
        if not line or time.monotonic() > deadline:
            proc.kill()
            return ["no second process started:\n" + seen + proc.stderr.read()]
        seen += line
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=120)
    errors = []
    if proc.returncode != 5:
        errors.append("exit {} after SIGINT {} s into process 2, want 5:\n{}".format(proc.returncode, delay, err))
    if "process 3 of 3" in rest:
        errors.append("a third process started after the interrupt")
    try:
        with open(out) as f:
            doc = json.load(f)
        first = [b for b in doc["benchmarks"] if b["process"] == 0]
        if len(first) != 2:
            errors.append("{} rows of the first process pooled, expected 2".format(len(first)))
        if any(b["process"] == 2 for b in doc["benchmarks"]):
            errors.append("rows of a third process")
    except (OSError, ValueError, KeyError) as e:
        errors.append("no pooled JSON after the interrupt: {}".format(e))
    if leftovers(tmp):
        errors.append("temporaries left: {}".format(leftovers(tmp)))
    return errors


def main():
    prog, check = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        errors = {"pooled": pooled, "refused": refused, "interrupted": interrupted}[check](prog, tmp)
    for e in errors:
        print("FAIL:", e)
    print("ok" if not errors else "{} failure(s)".format(len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
