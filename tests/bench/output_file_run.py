#!/usr/bin/env python3
"""reduce_bench's --benchmark_out, whole or absent (bench/detail/output_file.hpp), end to end.

usage: output_file_run.py REDUCE_BENCH concurrent|second_signal

concurrent: two runs write one file; the longer starts first, the shorter ends first. Both must
exit 0, the file must be the longer run's whole JSON, the longer run alone must warn that another
process wrote the file, and no temporary may be left.
second_signal: SIGINT then SIGTERM while the first row samples, before any row is reported: the
process is killed, the earlier file is left as it was, and no temporary is left (a signal still in
start-up stops the same way: test_output_file's ASignalDuringStartUpRemovesTheTemporary).
(tests/bench/interrupt_run.py --twice: a second signal after a row keeps the rows finished.)
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

WARNING = " was written by another process during this run; it now holds this run's results"


def command(prog, out, size, seconds, extra=()):
    # Samples the precision can never stop: each row samples for `seconds`, then stops.
    return [prog, "--sizes={}".format(size), "--benchmark_filter=^cpu/accumulate/", "--min_samples=100000000",
            "--max_samples=100000000", "--max_time={}s".format(seconds), "--timeout={}s".format(seconds),
            "--benchmark_out=" + out, "--benchmark_out_format=json"] + list(extra)


def environment():
    env = dict(os.environ)
    for k in ("RANK", "WORLD_SIZE", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "BENCHMARK_OUT"):
        env.pop(k, None)
    return env


def wait_for(what, proc, deadline_s=120):
    deadline = time.monotonic() + deadline_s
    while not what():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            o, e = proc.communicate()
            print(o + e)
            return False
        time.sleep(0.01)
    return True


def temporaries(folder):
    return [f for f in os.listdir(folder) if f.startswith(".out.json.")]


def concurrent(prog, tmp):
    out = os.path.join(tmp, "out.json")
    env = environment()
    longer = subprocess.Popen(command(prog, out, 2000, 3.0), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    if not wait_for(lambda: temporaries(tmp), longer):
        return ["the longer run made no temporary beside " + out]
    shorter = subprocess.run(command(prog, out, 1000, 0.2), env=env, capture_output=True, text=True, timeout=120)
    o, e = longer.communicate(timeout=120)
    print(shorter.stdout + shorter.stderr + o + e)
    failures = []
    if shorter.returncode != 0 or longer.returncode != 0:
        failures.append("exit {} and {}, expected 0 and 0".format(shorter.returncode, longer.returncode))
    if WARNING in shorter.stderr:
        failures.append("the shorter run, which wrote first, warned")
    if "reduce_bench: warning: " + out + WARNING not in e:
        failures.append("the longer run did not warn that another process wrote " + out)
    try:
        with open(out) as f:
            names = [r["name"] for r in json.load(f)["benchmarks"]]
        if not names or any("/2000/" not in n for n in names):
            failures.append("the file is not the longer run's alone: {}".format(names))
    except (OSError, ValueError, KeyError) as x:
        failures.append("{} is not a whole JSON: {}".format(out, x))
    if temporaries(tmp):
        failures.append("temporaries left: {}".format(temporaries(tmp)))
    return failures


def second_signal(prog, tmp):
    folder = os.path.join(tmp, "out")
    os.mkdir(folder)
    out = os.path.join(folder, "out.json")
    earlier = '{"earlier": true}\n'
    with open(out, "w") as f:
        f.write(earlier)
    # Rows of 3 s: the signals come while the first samples, long before it could be reported.
    p = subprocess.Popen(command(prog, out, "1000,2000,3000", 3.0), env=environment(),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not wait_for(lambda: temporaries(folder), p):
        return ["no temporary beside {} while the run went on".format(out)]
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    p.send_signal(signal.SIGTERM)
    o, e = p.communicate(timeout=120)
    print(o + e)
    failures = []
    if p.returncode not in (-signal.SIGINT, -signal.SIGTERM):
        failures.append("the second signal did not kill the process (exit {})".format(p.returncode))
    if os.listdir(folder) != ["out.json"]:
        failures.append("left beside the file: {}".format(os.listdir(folder)))
    elif open(out).read() != earlier:
        failures.append("the earlier file was changed, though no row was reported: " + open(out).read())
    if out + " left as it was" not in e:
        failures.append("no line saying the file was left as it was")
    return failures


def main():
    prog, check = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="rb_output_file_") as tmp:
        failures = {"concurrent": concurrent, "second_signal": second_signal}[check](prog, tmp)
    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print("OK: " + check)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
