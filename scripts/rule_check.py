#!/usr/bin/env python3
"""The stopping rule against Google Benchmark's own, and its stability (README "How it measures").

  rule_check.py agree --paired P1.json [P2.json ...] [--tolerance 0.01]
      the same, each file one process run with --compare_min_time=T, whose twins (names ending in
      /min_time:T) ran by Google Benchmark's rule beside the stopping rule's rows. Both rules of a
      process share its launch offset (docs/methodology.md), so each file gives one pair; the
      verdict is on the medians over every repetition of every file, and the table also gives each
      process's own ratio and how far the processes spread under each rule; exit 1 when a pooled
      ratio is outside the tolerance
  rule_check.py agree --rule R.json [R2.json ...] --mintime M.json [M2.json ...] [--tolerance 0.01]
      per benchmark: the median under the rule against the median under --benchmark_min_time
      (median_us, else real_time); with several files (one process each) the median over the files,
      since at small n each process carries a launch offset of its own (docs/methodology.md);
      the ratio, the spread between processes, and whether the ratio is within the tolerance; exit 1
      when one is not
  rule_check.py cv REPS.json [--limit 0.005]
      per benchmark: cv of real_time and of median_us over its repetitions; exit 1 when
      one is above the limit
  rule_check.py targets SWEEP.json
      how many benchmarks reached the precision target, and the others with what they reached
"""
import argparse
import re
import signal
import statistics
import sys

import bench_json
from formatting import md_table


def per_rep(path, counter):
    """{name: [value per repetition row]} of a counter ('real_time' for Google Benchmark's time)."""
    _, benches = bench_json.load(path, metric="real_time")
    out = {}
    for name, b in benches.items():
        if counter == "real_time":
            vals = [r[0] for r in b.reps]
        else:
            vals = [c[counter] for c in b.rep_counters if counter in c]
        if vals:
            out[name] = vals
    return out


def rep_medians(path):
    """{name: [median_us per repetition]}; a row without the counter (a file Google Benchmark's
    rule wrote before reduce_bench kept samples): its per-repetition means."""
    got = per_rep(path, "median_us")
    for name, vals in per_rep(path, "real_time").items():
        got.setdefault(name, vals)
    return got


def medians(path):
    return {k: statistics.median(v) for k, v in rep_medians(path).items()}


def over_files(paths):
    """{name: [median per file]}"""
    out = {}
    for path in paths:
        for name, m in medians(path).items():
            out.setdefault(name, []).append(m)
    return out


def spread(vals):
    return (max(vals) - min(vals)) / statistics.median(vals) if len(vals) > 1 else 0.0


TWIN_RE = re.compile(r"^(?P<base>.+)/min_time:[0-9.]+(?P<rest>/manual_time)?$")


def paired(path):
    """({name: [median per repetition]} of the rule's rows, the same of the twins, by base name)."""
    rule, gb = {}, {}
    for name, vals in rep_medians(path).items():
        m = TWIN_RE.match(name)
        if m:
            gb[m.group("base") + (m.group("rest") or "")] = vals
        else:
            rule[name] = vals
    return rule, gb


def order(name):
    """backend, then n, then mode (the interleaved runs write rows in a random order)."""
    m = bench_json.NAME_RE.match(name)
    return (m.group("backend"), int(m.group("n")), m.group("mode")) if m else (name, 0, "")


def paired_rows(paths):
    """Each file one process with both rules: pooled values, and per-process cells."""
    per_file = [paired(p) for p in paths]
    names = sorted((n for n in per_file[0][0] if all(n in r and n in g for r, g in per_file)), key=order)
    for name in names:
        own_r = [statistics.median(r[name]) for r, _ in per_file]
        own_g = [statistics.median(g[name]) for _, g in per_file]
        ratios = [a / b for a, b in zip(own_r, own_g)]
        rule = [v for r, _ in per_file for v in r[name]]
        gb = [v for _, g in per_file for v in g[name]]
        yield name, rule, gb, [str(len(paths)), "{:.4f} – {:.4f}".format(min(ratios), max(ratios)),
                               "{}, {}".format(len(rule), len(gb)),
                               "{:.1f}%, {:.1f}%".format(100 * spread(own_r), 100 * spread(own_g))]


def file_rows(rule_paths, gb_paths):
    """One rule per file: the median of each file."""
    rule, gb = over_files(rule_paths), over_files(gb_paths)
    for name in rule:
        if name in gb:
            yield name, rule[name], gb[name], ["{}, {}".format(len(rule[name]), len(gb[name])),
                                               "{:.1f}%, {:.1f}%".format(100 * spread(rule[name]), 100 * spread(gb[name]))]


def table(rows, middle, tolerance):
    """rows: (name, rule values, min_time values, middle cells); the verdict is on the medians of
    the values. Returns (lines, worst |ratio - 1|)."""
    cols = ["benchmark", "rule median µs", "min_time median µs", "ratio"] + middle + ["within ±{:g}%".format(100 * tolerance)]
    body, worst = [], 0.0
    for name, rule, gb, cells in rows:
        r, g = statistics.median(rule), statistics.median(gb)
        ratio = r / g if g > 0 else float("inf")
        worst = max(worst, abs(ratio - 1))
        verdict = "yes" if abs(ratio - 1) <= tolerance else "**no**"
        body.append([name.replace("/manual_time", ""), "{:.3f}".format(r), "{:.3f}".format(g), "{:.4f}".format(ratio)]
                    + cells + [verdict])
    return md_table(cols, body), worst


def agree(args):
    if args.paired:
        lines, worst = table(paired_rows(args.paired), ["processes", "ratio per process, lowest – highest",
                                                        "repetitions (rule, min_time)",
                                                        "spread between processes (rule, min_time)"], args.tolerance)
    elif args.rule and args.mintime:
        lines, worst = table(file_rows(args.rule, args.mintime), ["processes (rule, min_time)",
                                                                  "spread between processes (rule, min_time)"],
                             args.tolerance)
    else:
        print("rule_check.py agree: give --paired FILE [FILE ...], or --rule and --mintime", file=sys.stderr)
        return 2
    if len(lines) == 2:
        print("rule_check.py agree: no benchmark in both rules", file=sys.stderr)
        return 2
    print("\n".join(lines))
    print("\nlargest difference: {:.2f}%".format(100 * worst))
    return 0 if worst <= args.tolerance else 1


def cv(args):
    means, meds = per_rep(args.file, "real_time"), per_rep(args.file, "median_us")
    worst, body = 0.0, []
    for name, vals in means.items():
        if len(vals) < 2:
            continue
        c_mean = statistics.stdev(vals) / statistics.mean(vals)
        m = meds.get(name, [])
        c_med = statistics.stdev(m) / statistics.mean(m) if len(m) > 1 else float("nan")
        worst = max(worst, c_mean, c_med if c_med == c_med else 0)
        body.append([name.replace("/manual_time", ""), len(vals), "{:.3f}%".format(100 * c_mean),
                     "{:.3f}%".format(100 * c_med), "yes" if max(c_mean, c_med) <= args.limit else "**no**"])
    print("\n".join(md_table(["benchmark", "repetitions", "cv of the mean", "cv of the median",
                               "within {:g}%".format(100 * args.limit)], body)))
    return 0 if worst <= args.limit else 1


def targets(args):
    _, benches = bench_json.load(args.file)
    met, missed = 0, []
    for name, b in benches.items():
        for c in b.rep_counters:
            if "target_met" not in c:
                continue
            if c["target_met"] >= 1:
                met += 1
            else:
                missed.append((name.replace("/manual_time", ""), c.get("precision", float("inf")), int(c.get("samples", 0))))
    total = met + len(missed)
    print("{} of {} benchmarks reached the target ({:.1f}%)".format(met, total, 100.0 * met / total if total else 0))
    for name, p, k in missed:
        print("  {}: ±{:.2f}% after {} samples".format(name, 100 * p, k))
    return 0


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # piped into head: stop quietly, no traceback
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("agree")
    a.add_argument("--paired", nargs="+")
    a.add_argument("--rule", nargs="+")
    a.add_argument("--mintime", nargs="+")
    a.add_argument("--tolerance", type=float, default=0.01)
    c = sub.add_parser("cv")
    c.add_argument("file")
    c.add_argument("--limit", type=float, default=0.005)
    t = sub.add_parser("targets")
    t.add_argument("file")
    args = p.parse_args()
    try:
        return {"agree": agree, "cv": cv, "targets": targets}[args.cmd](args)
    except bench_json.BadInput as e:
        print("rule_check.py: {}".format(e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
