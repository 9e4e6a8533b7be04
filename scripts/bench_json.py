"""Reading reduce_bench's Google Benchmark JSON (1.7.x and 1.8.x). Standard library only.

Shared by every script that reads a sweep (regress, plot.py, accuracy_table.py, kernel_table.py, rule_check.py,
cpu_summary.py, readme_results.py, tuning_history.py). What the two library versions write:
  - one row per repetition (run_type "iteration"), then, with --benchmark_repetitions > 1,
    aggregate rows (run_type "aggregate", aggregate_name mean/median/stddev/cv; cv has
    aggregate_unit "percentage" and is a ratio, not a time);
  - SkipWithError: error_occurred: true, error_message (both versions);
  - SkipWithMessage (1.8 only): skipped: true, skip_message;
  - time_unit per row; reduce_bench uses us, but any of ns/us/ms/s is converted here;
  - NaN/Infinity as bare tokens (rel_err of a cv row), which Python's json accepts.
"""
import sys
import json
import math
import re
import statistics

TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}

# reduce_bench's per-row counters that the tables read (README "Reading the JSON").
COUNTERS = ("n", "rel_err", "rel_tol", "exact", "host_us", "sm_mhz", "threads", "samples", "median_us", "p10_us",
            "p90_us", "min_us", "precision", "target_met", "throttled", "repeatable")

# <backend>/<n>/<cold|hot>/manual_time; the backend may itself contain slashes (cuda/onepass).
NAME_RE = re.compile(r"^(?P<backend>.+)/(?P<n>\d+)/(?P<mode>cold|hot)(?:/manual_time)?$")


class BadInput(Exception):
    """A file the tools cannot use: missing, not JSON, not Google Benchmark output."""


class Bench:
    """Everything the loaded files say about one benchmark name."""

    def __init__(self, name):
        self.name = name
        self.samples = []      # per-repetition times, us
        self.bps = []          # per-repetition bytes_per_second, where reported
        self.aggregates = {}   # aggregate_name -> [time in us, one per file]
        self.aggregates_bps = {}
        self.errors = []       # SkipWithError messages (failed verification, backend error)
        self.skips = []        # skips: 1.8 SkipWithMessage, reduce_bench's "skipped: ..." errors
        self.counters = {}     # the checks' counters of the last repetition row (rel_err, rel_tol, ...)
        self.reps = []         # per repetition row: (real time us, cpu time us or None, bytes/s or None)
        self.rep_counters = []  # per repetition row: its counters (as self.counters)

    def times(self):
        """(times in us, source): the repetition rows; else the median (or mean) aggregate."""
        if self.samples:
            return self.samples, "reps"
        for agg in ("median", "mean"):
            if agg in self.aggregates:
                return self.aggregates[agg], "aggregate " + agg
        return [], "none"

    def bytes_per_second(self):
        """bytes_per_second values matching times(): per repetition, else the aggregate's."""
        if self.samples:
            return self.bps
        for agg in ("median", "mean"):
            if agg in self.aggregates:
                return self.aggregates_bps.get(agg, [])
        return []

    def median(self):
        """The median of times() (us), or None when nothing was measured."""
        times, _ = self.times()
        return statistics.median(times) if times else None

    def merge(self, other):
        self.samples += other.samples
        self.bps += other.bps
        self.reps += other.reps
        self.rep_counters += other.rep_counters
        for k, v in other.aggregates.items():
            self.aggregates.setdefault(k, []).extend(v)
        for k, v in other.aggregates_bps.items():
            self.aggregates_bps.setdefault(k, []).extend(v)
        self.errors += other.errors
        self.skips += other.skips


def parse_name(name):
    """(backend, n, mode) for reduce_bench's name grammar, or None."""
    m = NAME_RE.match(name)
    if not m:
        return None
    return m.group("backend"), int(m.group("n")), m.group("mode")


def _base_name(row):
    if isinstance(row.get("run_name"), str):
        return row["run_name"]
    name = row["name"]
    if row.get("run_type") == "aggregate":
        # Files older than 1.5 have no run_name: name = run_name + "_" + aggregate_name.
        suffix = "_" + str(row.get("aggregate_name", ""))
        return name[: -len(suffix)] if name.endswith(suffix) else name
    return name


def is_reduce_bench_skip(message):
    """reduce_bench reports a case that cannot run here (n larger than memory, or than the
    --input file) through SkipWithError with this prefix; its exit status treats it as a skip."""
    return message.startswith("skipped:")


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def load(path, metric="median"):
    """Returns (context dict, {name: Bench} in file order). Raises BadInput.

    metric "median" (the default, what tables and plots show): each row's median_us counter, the
    median of its samples, where the row has one (reduce_bench's stopping rule writes it), else
    its real_time; bytes_per_second is rescaled to match. "real_time": Google Benchmark's time (the
    median of the samples under the stopping rule, the mean in files made before it)."""
    try:
        with open(path, "r", encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise BadInput("{}: cannot read: {}".format(path, e.strerror or e))
    except UnicodeDecodeError as e:
        raise BadInput("{}: not JSON (not UTF-8 text: {})".format(path, e))
    return loads(text, path, metric)


def loads(text, source="<text>", metric="median"):
    """load() on the text of a file (e.g. from `git show`); source names it in messages."""
    path = source
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadInput("{}: not JSON (not UTF-8 text: {})".format(path, e))
    try:
        data = json.loads(text)
    except ValueError as e:
        raise BadInput("{}: not JSON ({})".format(path, e))
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise BadInput("{}: no \"benchmarks\" list: not a Google Benchmark JSON file "
                       "(write one with --benchmark_out=FILE --benchmark_out_format=json)".format(path))
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    benches = {}
    for i, row in enumerate(data["benchmarks"]):
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            raise BadInput("{}: benchmarks[{}] has no name".format(path, i))
        key = _base_name(row)
        bench = benches.setdefault(key, Bench(key))
        # Error and skip rows carry a time (often of 0 iterations) that is not a measurement.
        if row.get("error_occurred"):
            message = str(row.get("error_message", ""))
            (bench.skips if is_reduce_bench_skip(message) else bench.errors).append(message)
            continue
        if row.get("skipped"):
            bench.skips.append(str(row.get("skip_message", "")))
            continue
        run_type = row.get("run_type", "aggregate" if "aggregate_name" in row else "iteration")
        if run_type == "aggregate" and row.get("aggregate_unit", "time") != "time":
            continue  # cv: a ratio
        if run_type == "aggregate" and ("real_time" if metric == "median" else metric) not in row:
            continue  # BigO / RMS rows of complexity benchmarks
        key = metric
        if metric == "median":
            key = "real_time"
            if _number(row.get("median_us")) and row["median_us"] > 0 and run_type != "aggregate" or \
                    run_type == "aggregate" and row.get("aggregate_name") in ("mean", "median") and _number(row.get("median_us")):
                key = "median_us"
        value = row.get(key)
        unit = "us" if key == "median_us" else row.get("time_unit", "ns")
        if not _number(value) or value < 0:
            raise BadInput("{}: {}: {} is {!r}, not a time".format(path, row["name"], key, value))
        if unit not in TO_US:
            raise BadInput("{}: {}: unknown time_unit {!r}".format(path, row["name"], unit))
        value *= TO_US[unit]
        cpu = row.get("cpu_time")
        cpu = cpu * TO_US[unit] if _number(cpu) else None
        bps = row.get("bytes_per_second")
        real = row.get("real_time")
        if key == "median_us" and _number(bps) and _number(real) and real > 0 and value > 0:
            bps = bps * real * TO_US[row.get("time_unit", "ns")] / value  # the same bytes over the median
        if run_type == "aggregate":
            agg = str(row.get("aggregate_name"))
            bench.aggregates.setdefault(agg, []).append(value)
            if _number(bps):
                bench.aggregates_bps.setdefault(agg, []).append(float(bps))
        else:
            bench.samples.append(value)
            if _number(bps):
                bench.bps.append(float(bps))
            bench.counters = {k: float(row[k]) for k in COUNTERS if _number(row.get(k))}
            bench.reps.append((value, cpu, float(bps) if _number(bps) else None))
            bench.rep_counters.append(bench.counters)
    return context, benches


# Google Benchmark's console table, for a run whose JSON was not written: only its aggregate
# rows (<name>_mean/_median/_stddev/_cv) or, without repetitions, its single rows, with the
# time as printed (three significant figures).
_CONSOLE_RE = re.compile(r"^(?P<name>\S+)\s+(?P<time>[0-9.]+) (?P<unit>ns|us|ms|s)\s+(?P<cpu>[0-9.]+) (?:ns|us|ms|s)\s+\d+")
_CONSOLE_ERROR_RE = re.compile(r"^(?P<name>\S+)\s+ERROR OCCURRED: '(?P<message>.*)'\s*$")
_AGGREGATES = ("mean", "median", "stddev", "cv")


def loads_console(text, source="<console>"):
    """(context {}, {name: Bench}) from Google Benchmark's console output. Times are only as
    precise as printed; cv rows (a ratio) are ignored like in load(); "ERROR OCCURRED" rows are
    errors or skips as in load(). Raises BadInput when no benchmark row is found."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    benches = {}
    for line in text.splitlines():
        e = _CONSOLE_ERROR_RE.match(line)
        if e:
            bench = benches.setdefault(e.group("name"), Bench(e.group("name")))
            message = e.group("message")
            (bench.skips if is_reduce_bench_skip(message) else bench.errors).append(message)
            continue
        m = _CONSOLE_RE.match(line)
        if not m:
            continue
        name, value = m.group("name"), float(m.group("time")) * TO_US[m.group("unit")]
        agg = None
        for a in _AGGREGATES:
            if name.endswith("_" + a):
                name, agg = name[: -len(a) - 1], a
                break
        bench = benches.setdefault(name, Bench(name))
        if agg == "cv":
            continue
        if agg is None:
            bench.samples.append(value)
            bench.reps.append((value, None, None))
            bench.rep_counters.append({})
        else:
            bench.aggregates.setdefault(agg, []).append(value)
    if not benches:
        raise BadInput("{}: no Google Benchmark console rows".format(source))
    return {}, benches


def ordered_backends(context, backends):
    """backends (an iterable of names, e.g. in first-appearance order) in the order of the
    JSON context's `backends` key (a comma-separated list of backend names) where present; names
    it does not list follow in their given order."""
    given = list(dict.fromkeys(backends))
    listed = context.get("backends") if isinstance(context, dict) else None
    if not isinstance(listed, str) or not listed.strip():
        return given
    rank = {b.strip(): i for i, b in enumerate(listed.split(",")) if b.strip()}
    return sorted(given, key=lambda b: (rank.get(b, len(rank)), given.index(b)))


def emit(text, out=None):
    """Writes a generated table to `out`, or to stdout when no path is given."""
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
