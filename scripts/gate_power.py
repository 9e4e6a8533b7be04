#!/usr/bin/env python3
"""gate_power.py: how often scripts/regress fails a row, on two identical runs with changes planted in NEW.

usage: gate_power.py [A.json B.json] [-o FILE] [-- REGRESS_OPTION ...]

A and B are two runs of the same binary on the same machine (default: the committed pair of the
2-core CI machine, results/ci-2core/regress_identical/interleaved_{a,b}.json.gz: 418 CPU rows, 5
interleaved repetitions each). Each planted change is applied to NEW's repetition rows, and the
gate (scripts/regress, imported as a module, with its defaults or the options after `--`) judges
every benchmark, in both orders: A as BASE and B as NEW, then B as BASE and A as NEW. The table
gives the share and the count of compared rows that FAIL the gate:

  - BASE against a copy of itself: must be 0;
  - the other run, unmodified: the false failures on identical code;
  - every repetition +3% (under the default 5% threshold), +5% (at it), +10%;
  - 3 of 5 repetitions x2: the first three by repetition_index (an intermittent slow-down);
  - 2 of 5 repetitions dropped: the last two by repetition_index (an interrupted sweep).

The changes are deterministic, so the table is a function of the two files and the gate. The
time fields of a repetition row are scaled together (real_time, cpu_time and the stopping rule's
median_us, p10_us, p90_us, min_us where present); aggregate rows are left as they are (the gate
reads the repetition rows). Standard library only.
"""
import argparse
import copy
import importlib.machinery
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
from bench_json import BadInput, emit, loads, read_bytes, stamp  # noqa: E402
from formatting import md_table  # noqa: E402

REGRESS = os.path.join(HERE, "regress")
DEFAULT_DIR = os.path.join(os.path.dirname(HERE), "results", "ci-2core", "regress_identical")
DEFAULT_PAIR = [os.path.join(DEFAULT_DIR, "interleaved_a.json.gz"), os.path.join(DEFAULT_DIR, "interleaved_b.json.gz")]
TIME_FIELDS = ("real_time", "cpu_time", "median_us", "p10_us", "p90_us", "min_us")


def load_regress_module():
    """scripts/regress (no .py suffix) as a module, as tests/scripts/test_regress.py loads it."""
    loader = importlib.machinery.SourceFileLoader("regress", REGRESS)
    spec = importlib.util.spec_from_loader("regress", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _repetition_rows(doc):
    """{run name: [its repetition rows, by repetition_index]} (no error or skip rows)."""
    groups = {}
    for row in doc["benchmarks"]:
        if row.get("run_type", "iteration") != "iteration" or row.get("error_occurred") or row.get("skipped"):
            continue
        groups.setdefault(row.get("run_name", row["name"]), []).append(row)
    for rows in groups.values():
        rows.sort(key=lambda r: r.get("repetition_index", 0))
    return groups


def scaled(doc, factor, first=None):
    """A copy of doc with the time fields of each benchmark's repetition rows multiplied by factor:
    all of them, or the first `first` by repetition_index."""
    doc = copy.deepcopy(doc)
    for rows in _repetition_rows(doc).values():
        for r in rows[:first] if first is not None else rows:
            for key in TIME_FIELDS:
                if isinstance(r.get(key), (int, float)) and not isinstance(r.get(key), bool):
                    r[key] = r[key] * factor
    return doc


def dropped(doc, count):
    """A copy of doc without the last `count` repetition rows (by repetition_index) of each benchmark."""
    doc = copy.deepcopy(doc)
    gone = set()
    for rows in _repetition_rows(doc).values():
        gone.update(id(r) for r in rows[len(rows) - count:] if count > 0)
    doc["benchmarks"] = [r for r in doc["benchmarks"] if id(r) not in gone]
    return doc


# (label, what the gate should do, how NEW is made from the other run's document)
CASES = [
    ("none: BASE against a copy of itself", "pass", None),
    ("none: the other identical run (false failures)", "pass", lambda d: d),
    ("every repetition +3%", "pass (under the threshold)", lambda d: scaled(d, 1.03)),
    ("every repetition +5%", "either (at the threshold)", lambda d: scaled(d, 1.05)),
    ("every repetition +10%", "fail", lambda d: scaled(d, 1.10)),
    ("3 of 5 repetitions x2 (the first three)", "fail", lambda d: scaled(d, 2.0, first=3)),
    ("2 of 5 repetitions dropped (the last two)", "fail", lambda d: dropped(d, 2)),
]


def share(failed, compared):
    return "{:.1f}% ({}/{})".format(100.0 * failed / compared if compared else 0.0, failed, compared)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    gate_args = []
    if "--" in argv:
        cut = argv.index("--")
        argv, gate_args = argv[:cut], argv[cut + 1:]
    ap = argparse.ArgumentParser(prog="gate_power.py", description=__doc__.split("\n\n")[0],
                                 epilog="Options after -- go to the gate (scripts/regress), e.g. -- --threshold 10.")
    ap.add_argument("files", nargs="*", metavar="A.json B.json", help="two identical runs (default: the committed "
                    "pair, results/ci-2core/regress_identical/interleaved_{a,b}.json.gz)")
    ap.add_argument("-o", "--out", metavar="FILE", help="write the markdown here (default: stdout)")
    args = ap.parse_args(argv)
    if len(args.files) not in (0, 2):
        ap.error("give two files, or none for the committed pair")
    files = args.files or DEFAULT_PAIR
    regress = load_regress_module()
    gate = regress.build_parser().parse_args(["BASE", "NEW"] + gate_args)
    docs = []
    try:
        for path in files:
            doc = json.loads(read_bytes(path).decode("utf-8"))
            loads(json.dumps(doc), path, gate.metric)  # the gate's own checks of the file
            docs.append(doc)
    except (BadInput, ValueError) as e:
        print("gate_power.py: {}".format(e), file=sys.stderr)
        return 2

    names = [os.path.basename(p) for p in files]
    orders = [(0, 1), (1, 0)]
    table, missed = [], []
    for label, expected, make in CASES:
        cells, misses = [label, expected], []
        for bi, ni in orders:
            _, base = loads(json.dumps(docs[bi]), names[bi], gate.metric)
            new_doc = docs[bi] if make is None else make(docs[ni])
            _, new = loads(json.dumps(new_doc), names[ni], gate.metric)
            verdict = regress.Verdict(base, new, gate)
            cells.append(share(len(verdict.failed), len(verdict.rows)))
            counts = {}
            for r in verdict.rows:
                if not r.fails:
                    counts[r.verdict] = counts.get(r.verdict, 0) + 1
            misses.append(", ".join("{} {}".format(c, v) for v, c in sorted(counts.items(), key=lambda kv: -kv[1]))
                          or "-")
        table.append(cells)
        missed.append([label] + misses)

    a, b = (os.path.relpath(p) if not os.path.relpath(p).startswith("..") else p for p in files)
    head = ["planted in NEW", "the gate should", "BASE A, NEW B", "BASE B, NEW A"]
    gate_line = " ".join(gate_args) if gate_args else "defaults"
    text = ["# The gate's power on two identical runs", "",
            stamp("gate_power.py", argv + (["--"] + gate_args if gate_args else [])), "",
            "A = `{}`, B = `{}`. Rows that FAIL `scripts/regress` ({}), of the rows compared:".format(
                a, b, gate_line), ""]
    text += md_table(head, table, align="llrr")
    text += ["", "The rows that did not fail, by verdict:", ""]
    text += md_table(["planted in NEW", head[2], head[3]], missed, align="lll")
    emit("\n".join(text) + "\n", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
