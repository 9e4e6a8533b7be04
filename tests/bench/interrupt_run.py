#!/usr/bin/env python3
"""reduce_bench under SIGINT/SIGTERM (bench/detail/interrupt.hpp), end to end.

usage: interrupt_run.py REDUCE_BENCH INT|TERM [--twice]

Six CPU rows of about a second each. Once the first has finished sampling (--samples_csv shows its
samples), and a third of a row later, the signal: the run must end within a fraction of what the
rows left would take, exit 5, name the rows not run on its closing line and count them among the
skipped in the summary above it, say SKIPPED once on their console lines, and leave a --benchmark_out JSON that parses, with the
first row measured and every row after the signal skipped as interrupted. --twice: once the first
row is in the --benchmark_out temporary, the signal twice, 50 ms apart, while the next row (a large
n) prepares; the second must kill the process at once and leave the rows finished before it in
--benchmark_out, a JSON that parses, and no temporary.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

EXIT_INTERRUPTED = 5
ROWS = 6
ROW_SECONDS = 1.0


def temporaries(folder):
    return [f for f in os.listdir(folder) if f.startswith(".out.json.")]


def second_signal(p, sig, tmp, out):
    """The first row reported into the temporary, then `sig` twice, 50 ms apart."""
    deadline = time.monotonic() + 120
    while not any("run_name" in open(os.path.join(tmp, f)).read() for f in temporaries(tmp)):
        if p.poll() is not None or time.monotonic() > deadline:
            p.kill()
            print("FAIL: the first row never reached the --benchmark_out temporary")
            return 1
        time.sleep(0.01)
    p.send_signal(sig)
    time.sleep(0.05)
    p.send_signal(sig)
    o, e = p.communicate(timeout=120)
    print(o + e)
    failures = []
    if p.returncode != -sig:
        failures.append("the second signal did not kill the process (exit {})".format(p.returncode))
    try:
        with open(out) as f:
            rows = json.load(f)["benchmarks"]
        if not rows or rows[0]["name"] != "cpu/accumulate_accf64/1000/hot/manual_time" or rows[0].get("skipped"):
            failures.append("--benchmark_out does not hold the finished first row: {}".format(rows))
    except (OSError, ValueError, KeyError) as x:
        failures.append("--benchmark_out is not a Google Benchmark JSON: {}".format(x))
    if "second SIG" + {signal.SIGINT: "INT", signal.SIGTERM: "TERM"}[sig] not in e or out + " holds" not in e:
        failures.append("no line saying the second signal stopped the run and what the file holds")
    if temporaries(tmp):
        failures.append("temporaries left: {}".format(temporaries(tmp)))
    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print("OK: killed by the second signal, the rows finished before it kept")
    return 1 if failures else 0


def main():
    prog, which = sys.argv[1], sys.argv[2]
    twice = "--twice" in sys.argv[3:]
    sig = {"INT": signal.SIGINT, "TERM": signal.SIGTERM}[which]
    with tempfile.TemporaryDirectory(prefix="rb_interrupt_") as tmp:
        out, samples = os.path.join(tmp, "out.json"), os.path.join(tmp, "samples.csv")
        sizes = ",".join(str(1000 * (i + 1)) for i in range(ROWS))
        if twice:
            sizes = "1000,{},{}".format(2 ** 26, 2 ** 26 + 1)  # the large rows keep it busy after the first signal
        # Samples the precision can never stop: each row samples for --max_time, then stops.
        args = [prog, "--sizes=" + sizes, "--benchmark_filter=cpu/accumulate_accf64/", "--min_samples=100000000",
                "--max_samples=100000000", "--max_time={}s".format(ROW_SECONDS), "--timeout={}s".format(ROW_SECONDS),
                "--benchmark_out=" + out, "--benchmark_out_format=json", "--samples_csv=" + samples]
        env = dict(os.environ)
        for k in ("RANK", "WORLD_SIZE", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"):
            env.pop(k, None)
        p = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not (os.path.exists(samples) and os.path.getsize(samples) > 0):
            if p.poll() is not None or time.monotonic() > deadline:
                p.kill()
                o, e = p.communicate()
                print(o + e)
                print("FAIL: the first row never finished sampling (exit {})".format(p.returncode))
                return 1
            time.sleep(0.01)
        if twice:
            return second_signal(p, sig, tmp, out)
        time.sleep(ROW_SECONDS / 3)  # into the second row's samples (after the first row's checks)
        t0 = time.monotonic()
        p.send_signal(sig)
        o, e = p.communicate(timeout=120)
        after = time.monotonic() - t0
        print(o + e)
        print("exit {}, {:.2f} s after the signal".format(p.returncode, after))

        failures = []
        if p.returncode != EXIT_INTERRUPTED:
            failures.append("exit {}, expected {}".format(p.returncode, EXIT_INTERRUPTED))
        # Without the skip the rows left would take (ROWS - 2) * ROW_SECONDS at least.
        if after > (ROWS - 2) * ROW_SECONDS / 2:
            failures.append("{:.2f} s after the signal: the rows left were not skipped".format(after))
        closing = [l for l in e.splitlines() if "interrupted by SIG" + which + ":" in l and "not run" in l]
        if not closing:
            failures.append("no closing line saying the run was interrupted")
        elif not e.rstrip().endswith(closing[-1]):
            failures.append("the interrupted line is not the last one")
        try:
            with open(out) as f:
                rows = json.load(f)["benchmarks"]
        except (OSError, ValueError, KeyError) as x:
            failures.append("--benchmark_out is not a Google Benchmark JSON: {}".format(x))
            rows = []
        if rows:
            names = [r["name"] for r in rows]
            if len(names) != ROWS:
                failures.append("{} rows in the JSON, expected {}: {}".format(len(names), ROWS, names))
            if rows[0].get("skipped") or rows[0].get("error_occurred"):
                failures.append("the first row, finished before the signal, is not measured: {}".format(rows[0]))
            skipped = [r for r in rows if r.get("skipped")]
            want = "skipped: not run: interrupted by SIG" + which
            if any(r.get("error_occurred") for r in rows):
                failures.append("rows reported as errors: {}".format([r["name"] for r in rows if r.get("error_occurred")]))
            if len(skipped) < ROWS - 2 or any(r.get("skip_message") != want for r in skipped):
                failures.append("rows after the signal not all skipped with '{}': {}".format(
                    want, [(r["name"], r.get("skip_message")) for r in rows]))
            if closing and "{} benchmarks not run".format(len(skipped)) not in closing[-1]:
                failures.append("the closing line counts other rows than the JSON skips: " + closing[-1])
            # The summary's count of skipped rows includes the rows not run, and says how many they are.
            want = "{0} skipped ({0} not run: interrupted), 0 failed".format(len(skipped))
            if not any(" measured: " in l and want in l for l in e.splitlines()):
                failures.append("the summary line does not count the {} rows not run as skipped".format(len(skipped)))
            if "SKIPPED: skipped:" in o:
                failures.append("a console skip line says its word twice")
        for f in failures:
            print("FAIL: " + f)
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
