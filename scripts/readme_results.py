#!/usr/bin/env python3
"""readme_results: the README's results block, generated from the committed sweep.

usage: readme_results.py [SWEEP.json[.gz]] [--readme README.md] [--check]

Rewrites what stands between the README's `<!-- results:begin -->` and `<!-- results:end -->`
markers: a table at the headline sizes (GPU rows cold, medians over the repetitions) of the main
GPU backends, the host's best CPU backend and its read ceiling (`ref/cpu_read`, hot), and what
the two checks established over the whole sweep. With --check it changes nothing and exits 1
when the README differs from what it would write: a figure typed by hand, or a sweep replaced
without regenerating. Reads the JSON (gzipped where the path ends in .gz) through bench_json.py and
plot.py, writes it through formatting.py (standard library only). The block names the sweep and its
command file (the sweep's path without .gz, .json replaced by .command.txt).
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
from bench_json import BadInput, load, parse_name  # noqa: E402
from formatting import fmt_n_long, fmt_us, md_table  # noqa: E402
from plot import read_sweeps  # noqa: E402
from renames import read_renames, renamed  # noqa: E402

ROOT = os.path.dirname(HERE)
DEFAULT_SWEEP = "results/h200/baseline.json.gz"
BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"
SIZES = [1 << k for k in (10, 13, 16, 20, 22, 24, 26, 28, 30, 31)]
GPU = ["cuda/onepass", "triton/onepass", "torch/sum", "thrust/reduce"]


def checks_line(benches):
    """What the two checks established, counted per benchmark name, from the rows' counters."""
    exact = within = no_bound = timing = failed = total = 0
    for name, b in benches.items():
        if not parse_name(name):
            continue
        if b.errors:
            failed += 1
            continue
        c = b.counters
        if "rel_err" not in c:
            timing += 1
            continue
        total += 1
        exact += c.get("exact") == 1.0
        if c.get("rel_tol", 1) < 1:  # absent, or 1 or more from builds before that rule: no bound
            within += 1
        else:
            no_bound += 1
    return ("{} measured benchmarks: {} passed the exact check, {} within their stated accuracy bound, {} "
            "without a bound (float chains of 2^23 or more: accuracy unchecked), {} failed; {} timing-only "
            "rows (`ref/launch`).").format(total + failed, exact, within, no_bound, failed, timing)


def command_file(path):
    """results/h200/baseline.json.gz -> results/h200/baseline.command.txt"""
    base = path[:-len(".gz")] if path.endswith(".gz") else path
    return (base[:-len(".json")] if base.endswith(".json") else base) + ".command.txt"


def block(path):
    sweep = read_sweeps([os.path.join(ROOT, path)])
    _, benches = load(os.path.join(ROOT, path))
    cub = sweep.series("cold", "cub")
    read = sweep.series("cold", "ref/read")
    host = [b for b in sweep.backends("hot") if b.startswith("cpu/")]  # sums only: ref/cpu_read has its column
    cpu_read = sweep.series("hot", "ref/cpu_read")
    renames, _ = read_renames()  # a sweep measured before the rows' renames: shown under the new names
    lines = [BEGIN,
             "Cold, medians of {} per benchmark, from [{}]({}) (its command: `{}`); made by "
             "`scripts/readme_results.py`. Each cell: µs, then the ratio to CUB (CUB's time over the row's; above 1 "
             "is faster).".format(sweep.reps_note(), path, path, command_file(path)),
             ""]
    rows = []
    for n in SIZES:
        if n not in cub:
            continue
        cells = [fmt_n_long(n), fmt_us(cub[n].time_us)]
        for b in GPU:
            p = sweep.series("cold", b).get(n)
            cells.append("{} ({:.2f}×)".format(fmt_us(p.time_us), cub[n].time_us / p.time_us) if p else "–")
        cells.append("{:.0f}".format(read[n].gbps) if n in read else "–")
        best = max(((sweep.series("hot", b).get(n), b) for b in host if n in sweep.series("hot", b)),
                   key=lambda t: t[0].gbps, default=None)
        cells.append("{:.1f} (`{}`)".format(best[0].gbps, renamed(best[1], renames)) if best else "–")
        cells.append("{:.1f}".format(cpu_read[n].gbps) if n in cpu_read else "–")
        rows.append(cells)
    head = ["n", "cub µs"] + GPU + ["ref/read GB/s", "best CPU backend GB/s (hot)", "ref/cpu_read GB/s (hot)"]
    lines += md_table(head, rows)
    lines += ["", checks_line(benches), END]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweep", nargs="?", default=DEFAULT_SWEEP, metavar="SWEEP.json",
                    help="relative to the repository root (default: %(default)s)")
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    ap.add_argument("--check", action="store_true", help="exit 1 if the README's block is not what would be written")
    args = ap.parse_args(argv)
    try:
        new = block(args.sweep)
    except BadInput as e:
        print("readme_results: " + str(e), file=sys.stderr)
        return 2
    with open(args.readme, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        print("readme_results: {} has no {} ... {} block".format(args.readme, BEGIN, END), file=sys.stderr)
        return 2
    start, end = text.index(BEGIN), text.index(END) + len(END)
    updated = text[:start] + new + text[end:]
    if args.check:
        if updated != text:
            print("readme_results: the README's results block differs from {}: run scripts/readme_results.py"
                  .format(args.sweep), file=sys.stderr)
            return 1
        return 0
    with open(args.readme, "w", encoding="utf-8") as f:
        f.write(updated)
    return 0


if __name__ == "__main__":
    sys.exit(main())
