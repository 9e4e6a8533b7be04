#!/usr/bin/env python3
"""reduce_bench's Google Benchmark JSON for CI benchmark trackers. Standard library only.

Usage:
  tracker_export.py bmf SWEEP.json [SWEEP.json ...] [-o OUT.json] [--bandwidth-measure SLUG]
  tracker_export.py googlecpp SWEEP.json [-o OUT.json]
  tracker_export.py strict SWEEP.json [--drop-errors] [-o OUT.json]

bmf        Bencher Metric Format (BMF) JSON, for `bencher run --adapter json --file OUT.json`.
           One entry per benchmark, keyed by its name without the `/manual_time` suffix:
             "cub/1048576/cold": {"latency":   {"value": ns, "lower_value": ns, "upper_value": ns},
                                  "bandwidth": {"value": GB/s}}
           latency (Bencher's built-in measure, nanoseconds): the median of the row's samples
           (median_us, or real_time where a row has none: the same number in files written
           under the stopping rule), with the samples' 10th and 90th percentiles (p10_us, p90_us)
           as lower/upper values where the row has them. bandwidth: bytes_per_second / 1e9, GB/s
           (rows without bytes_per_second, e.g. ref/launch, have none). Bencher's built-in
           `throughput` measure counts operations per second, so GB/s goes to a measure of its
           own, slug `bandwidth` (--bandwidth-measure to change it); docs/tracking.md says how to
           create it with its units. With repetitions, or the same name in several files, the
           value is the median over every repetition row (bounds: the median of their p10 and
           p90); aggregate rows (_mean, _median, _stddev, _cv) are not exported. Error and skipped
           rows have no valid time: they are left out and counted on stderr. cpu_time is never
           read (the harness's whole sampling loop's CPU time, not a call's).
googlecpp  The series github-action-benchmark's `tool: googlecpp` stores for SWEEP.json, by its
           parsing rule: per element of `benchmarks` (aggregate and error rows included),
           {name, value: real_time, unit: time_unit + "/iter", extra: "iterations: ..\\ncpu: ..
           \\nthreads: .."}, numbers printed as JavaScript prints them. Warnings on stderr for
           what would be stored without meaning: error/skipped rows, names stored more than once
           (repetition rows), cv rows (a ratio). Exit 1, nothing on stdout, when the action would
           reject the file: its JSON.parse refuses the bare NaN/Infinity tokens Google Benchmark
           writes for non-finite counters (reduce_bench's `precision` is Infinity below 6
           effective samples), or there is no row.
strict     SWEEP.json as standard JSON: non-finite numbers become null (counted on stderr);
           --drop-errors also removes error and skipped rows. The file to hand to the action.

Exit status: 0 done; 1 googlecpp only: the action would reject the file; 2 bad input (missing
file, not Google Benchmark JSON, no usable row) or bad usage, with a one-line message on stderr.
"""
import argparse
import collections
import decimal
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402

SUFFIX = "/manual_time"
PROG = "tracker_export"


def _fail(message):
    sys.stderr.write("{}: {}\n".format(PROG, message))
    return 2


def _note(message):
    sys.stderr.write("{}: {}\n".format(PROG, message))


def _names(names, limit=5):
    names = list(names)
    shown = ", ".join(names[:limit])
    return shown + (" and {} more".format(len(names) - limit) if len(names) > limit else "")


def bmf_key(name):
    """The BMF benchmark name of a row name: without Google Benchmark's /manual_time suffix."""
    return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name


# ---------------------------------------------------------------------------------------- bmf

def bmf(paths, bandwidth_measure="bandwidth"):
    """(BMF dict, report dict) from the sweep files. Raises bench_json.BadInput."""
    merged = {}
    for path in paths:
        _, benches = bench_json.load(path)  # the median metric: median_us, else real_time
        for name, bench in benches.items():
            if name in merged:
                merged[name].merge(bench)
            else:
                merged[name] = bench
    doc = {}
    report = {"excluded_rows": 0, "excluded": [], "aggregates_only": [], "bounds_dropped": [],
              "rows": 0, "with_bandwidth": 0}
    keys = {}
    for name, bench in merged.items():
        excluded = len(bench.errors) + len(bench.skips)
        report["excluded_rows"] += excluded
        if not bench.samples:
            if excluded:
                report["excluded"].append(name)
            elif bench.aggregates:
                report["aggregates_only"].append(name)
            continue
        key = bmf_key(name)
        if key in keys:
            raise bench_json.BadInput("{} and {} both export as {!r}".format(keys[key], name, key))
        keys[key] = name
        times = bench.samples  # us, one per repetition row
        report["rows"] += len(times)
        median_us = statistics.median(times)
        latency = {"value": median_us * 1e3}
        p10 = [c["p10_us"] for c in bench.rep_counters if "p10_us" in c]
        p90 = [c["p90_us"] for c in bench.rep_counters if "p90_us" in c]
        if len(p10) == len(times) and len(p90) == len(times):
            lower, upper = statistics.median(p10) * 1e3, statistics.median(p90) * 1e3
            if lower <= latency["value"] <= upper:
                latency["lower_value"], latency["upper_value"] = lower, upper
            else:
                report["bounds_dropped"].append(name)
        entry = {"latency": latency}
        bps = [b for _, _, b in bench.reps]
        if bps and all(b is not None and b > 0 for b in bps):
            if len(bps) == 1:
                gbps = bps[0] / 1e9
            else:  # the same bytes over the pooled median time
                nbytes = statistics.median(b * t * 1e-6 for (t, _, b) in bench.reps)
                gbps = nbytes / (median_us * 1e-6) / 1e9
            entry[bandwidth_measure] = {"value": gbps}
            report["with_bandwidth"] += 1
        for measure in entry.values():
            for v in measure.values():
                if not (isinstance(v, float) or isinstance(v, int)) or not math.isfinite(v):
                    raise bench_json.BadInput("{}: a non-finite value {!r}".format(name, v))
        doc[key] = entry
    if not doc:
        why = "every row is an error or skipped row" if report["excluded"] else "no benchmark row"
        if report["aggregates_only"]:
            why = "only aggregate rows (--benchmark_report_aggregates_only): the repetition rows are needed"
        raise bench_json.BadInput("{}: no usable row: {}".format(", ".join(paths), why))
    return doc, report


def cmd_bmf(args):
    try:
        doc, report = bmf(args.files, args.bandwidth_measure)
    except bench_json.BadInput as e:
        return _fail(e)
    text = json.dumps(doc, indent=2, allow_nan=False) + "\n"
    bench_json.emit(text, args.output)
    _note("bmf: {} benchmarks ({} with {}) from {} repetition row(s) in {} file(s)".format(
        len(doc), report["with_bandwidth"], args.bandwidth_measure, report["rows"], len(args.files)))
    if report["excluded_rows"]:
        _note("bmf: excluded {} error/skipped row(s); benchmarks with no valid row left out: {}".format(
            report["excluded_rows"], _names(report["excluded"]) if report["excluded"] else "none"))
    if report["aggregates_only"]:
        _note("bmf: {} benchmark(s) have only aggregate rows, not exported: {}".format(
            len(report["aggregates_only"]), _names(report["aggregates_only"])))
    if report["bounds_dropped"]:
        _note("bmf: p10/p90 do not bracket the median, bounds left out: {}".format(
            _names(report["bounds_dropped"])))
    return 0


# ---------------------------------------------------------------------------------- googlecpp

def js_number(x):
    """x as JavaScript's String(x) writes it (ECMAScript Number::toString, radix 10)."""
    if x is None:
        return "undefined"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, str):
        return x
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    if x < 0:
        return "-" + js_number(-x)
    # repr gives the shortest digits that round-trip, as ECMAScript asks for.
    sign, digits, exponent = decimal.Decimal(repr(x)).as_tuple()
    digits = "".join(map(str, digits)).lstrip("0")
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    s, k = stripped, len(stripped)
    n = exponent + k  # x = 0.s * 10^n
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + s
    e = n - 1
    exp = ("e+" if e >= 0 else "e-") + str(abs(e))
    return (s if k == 1 else s[0] + "." + s[1:]) + exp


def _read_lenient(path):
    """(data, {non-finite token: count}) with Python's json, which accepts NaN/Infinity."""
    try:
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise bench_json.BadInput("{}: cannot read: {}".format(path, e.strerror or e))
    except UnicodeDecodeError as e:
        raise bench_json.BadInput("{}: not JSON (not UTF-8 text: {})".format(path, e))
    tokens = collections.Counter()

    def constant(token):
        tokens[token] += 1
        return float(token)
    try:
        data = json.loads(text, parse_constant=constant)
    except ValueError as e:
        raise bench_json.BadInput("{}: not JSON ({})".format(path, e))
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise bench_json.BadInput("{}: no \"benchmarks\" list: not a Google Benchmark JSON file".format(path))
    for i, row in enumerate(data["benchmarks"]):
        if not isinstance(row, dict):
            raise bench_json.BadInput("{}: benchmarks[{}] is not an object".format(path, i))
    return data, tokens


def _is_error(row):
    return bool(row.get("error_occurred")) or bool(row.get("skipped"))


def googlecpp(path):
    """(series or None, warnings, rejection or None) as github-action-benchmark's googlecpp
    extraction would produce from the file. Raises bench_json.BadInput."""
    data, tokens = _read_lenient(path)
    if tokens:
        counts = ", ".join("{} x{}".format(t, c) for t, c in sorted(tokens.items()))
        return None, [], ("its JSON.parse rejects the bare non-finite tokens ({}) Google Benchmark "
                          "wrote for non-finite counters; `tracker_export.py strict` writes a copy "
                          "it reads".format(counts))
    rows = data["benchmarks"]
    if not rows:
        return None, [], "no benchmark row (the action stops: no benchmark result found)"
    series = []
    for b in rows:
        unit = js_number(b.get("time_unit"))
        s = {"name": b.get("name")}
        if "real_time" in b:
            s["value"] = b["real_time"]
        s["unit"] = unit + "/iter"
        s["extra"] = "iterations: {}\ncpu: {} {}\nthreads: {}".format(
            js_number(b.get("iterations")), js_number(b.get("cpu_time")), unit, js_number(b.get("threads")))
        series.append(s)
    warnings = []
    errors = [b for b in rows if _is_error(b)]
    if errors:
        warnings.append("{} error/skipped row(s): stored with their real_time as if measured "
                        "(e.g. {} = {}): {}".format(len(errors), errors[0].get("name"),
                                                    js_number(errors[0].get("real_time")),
                                                    _names(b.get("name") for b in errors)))
    names = collections.Counter(b.get("name") for b in rows)
    dups = [(n, c) for n, c in names.items() if c > 1]
    if dups:
        warnings.append("{} name(s) stored more than once (repetition rows): the chart mixes the "
                        "copies, the alert compares each with the first old one: {}".format(
                            len(dups), _names("{} (x{})".format(n, c) for n, c in dups)))
    cv = [b for b in rows if b.get("run_type") == "aggregate" and b.get("aggregate_unit") == "percentage"]
    if cv:
        warnings.append("{} cv aggregate row(s): a ratio, stored with unit {!r}".format(
            len(cv), js_number(cv[0].get("time_unit")) + "/iter"))
    missing = [b for b in rows
               if not isinstance(b.get("real_time"), (int, float)) or isinstance(b.get("real_time"), bool)]
    if missing:
        warnings.append("{} row(s) without a numeric real_time: stored without a value: {}".format(
            len(missing), _names(b.get("name") for b in missing)))
    return series, warnings, None


def cmd_googlecpp(args):
    try:
        series, warnings, rejection = googlecpp(args.file)
    except bench_json.BadInput as e:
        return _fail(e)
    if rejection:
        _note("googlecpp: github-action-benchmark would reject {}: {}".format(args.file, rejection))
        return 1
    bench_json.emit(json.dumps(series, indent=2, allow_nan=False) + "\n", args.output)
    _note("googlecpp: {} series".format(len(series)))
    for w in warnings:
        _note("googlecpp: warning: " + w)
    return 0


# ------------------------------------------------------------------------------------- strict

def strict(path, drop_errors=False):
    """(standard-JSON doc, {key: non-finite values nulled}, rows dropped). Raises BadInput."""
    data, _ = _read_lenient(path)
    nulled = collections.Counter()

    def clean(v, key=None):
        if isinstance(v, float) and not math.isfinite(v):
            nulled[key] += 1
            return None
        if isinstance(v, dict):
            return {k: clean(x, k) for k, x in v.items()}
        if isinstance(v, list):
            return [clean(x, key) for x in v]
        return v
    data = clean(data)
    dropped = 0
    if drop_errors:
        kept = [r for r in data["benchmarks"] if not _is_error(r)]
        dropped = len(data["benchmarks"]) - len(kept)
        data["benchmarks"] = kept
    return data, nulled, dropped


def cmd_strict(args):
    try:
        data, nulled, dropped = strict(args.file, args.drop_errors)
    except bench_json.BadInput as e:
        return _fail(e)
    bench_json.emit(json.dumps(data, indent=2, allow_nan=False) + "\n", args.output)
    _note("strict: {} non-finite number(s) written as null{}; {} row(s) kept{}".format(
        sum(nulled.values()),
        " ({})".format(", ".join("{} x{}".format(k, c) for k, c in sorted(nulled.items(), key=str))) if nulled else "",
        len(data["benchmarks"]),
        ", {} error/skipped row(s) dropped".format(dropped) if args.drop_errors else ""))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tracker_export.py",
                                     description="reduce_bench JSON for Bencher (BMF) and github-action-benchmark.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("bmf", help="Bencher Metric Format JSON")
    p.add_argument("files", nargs="+", metavar="SWEEP.json")
    p.add_argument("-o", "--output", metavar="OUT.json", help="write here instead of stdout")
    p.add_argument("--bandwidth-measure", default="bandwidth", metavar="SLUG",
                   help="the BMF measure holding GB/s (default: bandwidth)")
    p.set_defaults(func=cmd_bmf)
    p = sub.add_parser("googlecpp", help="what github-action-benchmark (tool: googlecpp) stores")
    p.add_argument("file", metavar="SWEEP.json")
    p.add_argument("-o", "--output", metavar="OUT.json")
    p.set_defaults(func=cmd_googlecpp)
    p = sub.add_parser("strict", help="the sweep as standard JSON (non-finite numbers as null)")
    p.add_argument("file", metavar="SWEEP.json")
    p.add_argument("-o", "--output", metavar="OUT.json")
    p.add_argument("--drop-errors", action="store_true", help="also remove error and skipped rows")
    p.set_defaults(func=cmd_strict)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except OSError as e:  # the output file
        return _fail("cannot write: {}".format(e))


if __name__ == "__main__":
    sys.exit(main())
