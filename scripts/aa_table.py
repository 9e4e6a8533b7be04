#!/usr/bin/env python3
"""A/A: do the repetitions' intervals agree, within a process and across processes?

usage: aa_table.py RUN.json [RUN.json ...] [--compact OUT_DIR]

Each RUN is one process of reduce_bench (plain or .gz JSON, with --benchmark_repetitions and the
per-repetition rows kept). For every row name, every pair of its repetitions that both report
target_met = 1 is a pair; a pair is disjoint when [median (1 - precision), median (1 + precision)]
of one does not meet the other's. Prints a Markdown table of disjoint pairs, GPU and CPU rows
apart (CPU: names starting cpu/ or ref/cpu), pairs within one process and across two, n up to
2^20 and above; then the rows that claim precision 0, and the share of repetitions with
target_met. Two valid 95% intervals of one median are disjoint in about 1% of pairs. A RUN made
with --processes pools several processes (each row's "process"): pairs between its own processes
are counted apart ("within one pool"), as its between term was estimated from them.
--compact writes each RUN's repetition rows with the fields this table reads (the evidence kept
under results/) as OUT_DIR/<name>.json.gz. Standard library only.
"""
import argparse
import gzip
import itertools
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from formatting import md_table  # noqa: E402  (scripts/formatting.py, standard library only)

FIELDS = ("name", "run_name", "run_type", "repetition_index", "repetitions", "real_time", "cpu_time", "time_unit",
          "iterations", "samples", "precision", "precision_run", "between", "target_met", "correlated", "drift",
          "contended", "process", "error_occurred", "error_message", "skipped", "skip_message")


def load(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return json.load(f)


def repetitions(doc):
    """Every repetition row: the table counts those with a precision, --compact keeps them all (the
    gate, scripts/regress, reads the compact files too)."""
    return [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"]


def size_of(name):
    m = re.search(r"/(\d+)(/|$)", name)
    return int(m.group(1)) if m else 0


def side(name):
    return "CPU" if name.startswith(("cpu/", "ref/cpu")) else "GPU"


def disjoint(a, b):
    la, ha = a["real_time"] * (1 - a["precision"]), a["real_time"] * (1 + a["precision"])
    lb, hb = b["real_time"] * (1 - b["precision"]), b["real_time"] * (1 + b["precision"])
    return ha < lb or hb < la


def table(runs):
    """runs: list of lists of repetition rows, one list per process. Returns the Markdown lines."""
    by_name = {}
    for p, rows in enumerate(runs):
        for r in rows:
            if "precision" in r:
                by_name.setdefault(r["run_name"], []).append((p, r))
    pairs, off = {}, {}
    zero = []
    met = {"GPU": [0, 0], "CPU": [0, 0]}
    for name, reps in by_name.items():
        for _, r in reps:
            met[side(name)][0] += r.get("target_met", 0) == 1
            met[side(name)][1] += 1
            if r.get("precision", 1) <= 0:
                zero.append(name)
        claimed = [(p, r) for p, r in reps if r.get("target_met") == 1]
        for (pa, a), (pb, b) in itertools.combinations(claimed, 2):
            same = a.get("process", 0) == b.get("process", 0)
            where = ("within one process" if same else "within one pool") if pa == pb else "across processes"
            key = (side(name), where,
                   "n <= 2^20" if size_of(name) <= 1 << 20 else "n > 2^20")
            pairs[key] = pairs.get(key, 0) + 1
            off[key] = off.get(key, 0) + disjoint(a, b)
    body = []
    for s in ("GPU", "CPU"):
        for where in ("within one process", "within one pool", "across processes"):
            keys = [k for k in pairs if k[0] == s and k[1] == where]
            for k in sorted(keys, key=lambda k: k[2]):
                body.append([s, where, k[2], pairs[k], off[k], "{:.1f}%".format(100.0 * off[k] / pairs[k])])
            total, bad = sum(pairs[k] for k in keys), sum(off[k] for k in keys)
            if total:
                body.append([s, where, "all", total, bad, "**{:.1f}%**".format(100.0 * bad / total)])
    out = md_table(["rows", "pairs", "n", "pairs of target_met repetitions", "disjoint", "share"], body,
                   align="lllrrr")
    out.append("")
    for s in ("GPU", "CPU"):
        if met[s][1]:
            out.append("{} repetitions with target_met: {} of {} ({:.1f}%)".format(
                s, met[s][0], met[s][1], 100.0 * met[s][0] / met[s][1]))
    out.append("repetitions that claim precision 0: {}".format(len(zero)))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", metavar="RUN.json")
    ap.add_argument("--compact", metavar="OUT_DIR")
    args = ap.parse_args(argv)
    try:
        docs = [load(p) for p in args.runs]
    except (OSError, ValueError, KeyError) as e:
        print("aa_table.py: " + str(e), file=sys.stderr)
        return 2
    runs = [repetitions(d) for d in docs]
    if not any("precision" in r for rows in runs for r in rows):
        print("aa_table.py: no repetition rows with a precision in these files", file=sys.stderr)
        return 2
    print("\n".join(table(runs)))
    if args.compact:
        os.makedirs(args.compact, exist_ok=True)
        for path, doc, rows in zip(args.runs, docs, runs):
            base = os.path.basename(path).removesuffix(".gz").removesuffix(".json")
            keep = {"context": doc.get("context", {}),
                    "benchmarks": [{k: r[k] for k in FIELDS if k in r} for r in rows]}
            with gzip.open(os.path.join(args.compact, base + ".json.gz"), "wt") as f:
                json.dump(keep, f, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
