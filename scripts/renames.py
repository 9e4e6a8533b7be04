"""Renamed rows: scripts/renames.json (old backend name -> new), read by regress and compare so that
a sweep measured under the old names pairs row for row with one measured under the new. Standard
library only.

A benchmark name is <backend>/<n>/<cold|hot>[/...] (aggregates and --compare_min_time twins add
to the end): only its backend is renamed, and only where it is exactly an old name, so
cpu/avx2_f32/threads becomes cpu/avx2/threads while cpu/avx2@f64 and cpu/avx2_kahan stay.
"""
import json
import os
import re

RENAMES_JSON = os.path.join(os.path.dirname(os.path.realpath(__file__)), "renames.json")

# The backend is the shortest start followed by /<n>/<cold|hot>: a backend may hold slashes.
BENCH_RE = re.compile(r"^(?P<backend>.+?)(?P<rest>/\d+/(?:cold|hot)(?:/.*)?)$")


def read_renames(path=RENAMES_JSON):
    """(renames {old: new}, the release it is read until)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    return dict(doc["renames"]), doc["read_until"]


def renamed(name, renames):
    """A benchmark (or backend) name with an old backend name replaced by its new one."""
    if name in renames:
        return renames[name]
    m = BENCH_RE.match(name)
    if m and m.group("backend") in renames:
        return renames[m.group("backend")] + m.group("rest")
    return name


def rename_keys(benches, renames, source):
    """{name: bench} with the old names replaced (each bench's .name too) and how many were.
    A file holding both a name and its old one is ambiguous: ValueError."""
    out, count = {}, 0
    for name, bench in benches.items():
        new = renamed(name, renames)
        if new != name:
            if new in benches:
                raise ValueError("{}: holds both {} and its new name {}".format(source, name, new))
            count += 1
            bench.name = new
        out[new] = bench
    return out, count


def rename_rows(doc, renames):
    """Google Benchmark JSON (a dict with "benchmarks") with the old names of every row's name and
    run_name replaced, in place; returns how many benchmarks (run names) were renamed."""
    names = set()
    for row in doc["benchmarks"]:
        for key in ("name", "run_name"):
            if isinstance(row.get(key), str):
                new = renamed(row[key], renames)
                if new != row[key]:
                    names.add(row.get("run_name", row[key]))
                    row[key] = new
    return len(names)


def applied_line(base, new, until):
    """What a script says, once, when it read old names as new ones: how many of each file's."""
    return "renames: {} benchmark(s) of BASE and {} of NEW read under a new row name (scripts/renames.json, read " \
           "until release {})".format(base, new, until)


def as_measured(name, names, renames=None):
    """A current row name as a sweep holding `names` spells it: the name itself, else its old name
    where the sweep was measured before the rename (the committed results/ keep theirs), else the
    name."""
    if name in names:
        return name
    renames = read_renames()[0] if renames is None else renames
    return next((old for old, new in renames.items() if new == name and old in names), name)
