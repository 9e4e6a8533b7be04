"""Reading reduce_bench's Google Benchmark JSON (1.7.x and 1.8.x). Standard library only.

Shared by every script that reads a sweep (regress, plot.py, accuracy_table.py, kernel_table.py, rule_check.py,
cpu_summary.py, cccl_table.py, readme_results.py, tune_table.py). A path ending in .gz is read through gzip
(the committed sweeps are gzipped: results/h200/baseline.json.gz). What the two library versions write:
  - one row per repetition (run_type "iteration"), then, with --benchmark_repetitions > 1,
    aggregate rows (run_type "aggregate", aggregate_name mean/median/stddev/cv; cv has
    aggregate_unit "percentage" and is a ratio, not a time);
  - SkipWithError: error_occurred: true, error_message (both versions);
  - SkipWithMessage (1.8 only): skipped: true, skip_message;
  - time_unit per row; reduce_bench uses us, but any of ns/us/ms/s is converted here;
  - NaN/Infinity as bare tokens (rel_err of a cv row), which Python's json accepts.
"""
import sys
import gzip
import json
import math
import os
import re
import shlex
import statistics
import zlib

TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}

# reduce_bench's per-row counters that the tables read (README "Reading the JSON").
COUNTERS = ("n", "rel_err", "rel_tol", "exact", "host_us", "sm_mhz", "threads", "samples", "median_us", "p10_us",
            "p90_us", "min_us", "precision", "target_met", "throttled", "repeatable")

# <backend>/<n>/<cold|hot>/manual_time; the backend may itself contain slashes (cuda/onepass), and
# ends in @<type> for element types other than f32 (cub@bf16: split_dtype).
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
        self.label = None      # reduce_bench: the structure behind rel_tol ("f16, chain 4097 + tree 64")

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


def split_dtype(backend):
    """(backend without its type, type): "cub@bf16" -> ("cub", "bf16"); a name without @ is f32's."""
    base, _, dtype = backend.partition("@")
    return base, dtype or "f32"


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
    return loads(read_bytes(path), path, metric)


def read_bytes(path):
    """The bytes of a file, gunzipped when the path ends in .gz. Raises BadInput."""
    try:
        if str(path).endswith(".gz"):
            with gzip.open(path, "rb") as f:
                return f.read()
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:  # gzip.BadGzipFile is an OSError
        raise BadInput("{}: cannot read: {}".format(path, getattr(e, "strerror", None) or e))
    except (EOFError, zlib.error) as e:
        raise BadInput("{}: cannot read: truncated or corrupt gzip ({})".format(path, e))


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
            # An infinite rel_err is a 16-bit accumulator's overflow (written as Infinity): kept.
            bench.counters = {k: float(row[k]) for k in COUNTERS
                              if _number(row.get(k)) or k == "rel_err" and row.get(k) == math.inf}
            if isinstance(row.get("label"), str) and row["label"]:
                bench.label = row["label"]
            bench.reps.append((value, cpu, float(bps) if _number(bps) else None))
            bench.rep_counters.append(bench.counters)
    return context, benches


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


def write_page(prog, build, out=None):
    """A table script's exit status: build()'s text emitted to `out`, 0; or build()'s BadInput
    on stderr as `prog: message`, 2 (nothing written)."""
    try:
        text = build()
    except BadInput as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    emit(text, out)
    return 0


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def command_line(script, argv=None):
    """The command that made a generated page, as typed from the repository root (or with the
    `cd DIR && ` that it needs when run from a folder inside the repository): the script by its
    path in scripts/, then its arguments as given, quoted for a POSIX shell. argv: the arguments
    (default sys.argv[1:]). The pages carry it in their `Generated by` line."""
    args = sys.argv[1:] if argv is None else list(argv)
    cwd = os.path.realpath(os.getcwd())
    rel = os.path.relpath(cwd, os.path.realpath(ROOT))
    name = "scripts/" + os.path.basename(script)
    prefix = ""
    if rel != "." and not rel.startswith(".."):
        name = os.path.relpath(os.path.join(ROOT, name), cwd)
        prefix = "cd {} && ".format(shlex.quote(rel))
    return prefix + " ".join([name] + [shlex.quote(str(a)) for a in args])


def stamp(script, argv=None):
    """A generated page's line naming its command (first, or under its title): Generated by `COMMAND`."""
    return "Generated by `{}`.".format(command_line(script, argv))
