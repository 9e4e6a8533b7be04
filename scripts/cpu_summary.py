#!/usr/bin/env python3
"""Tables and acceptance checks for the CPU backends from reduce_bench JSON files.

usage: cpu_summary.py SWEEP.json [SWEEP2.json ...] [--out FILE]      (default: stdout)

For each CPU backend (`cpu/*` and the ceiling `ref/cpu_read`; other rows are ignored) and n:
GB/s (median over repetitions when there are several, else the one run), rel_err and threads, then
the checks the CPU family is accepted on. A missed check, or any run that failed verification or
errored (listed), makes the exit status 1; rows reduce_bench skipped (n larger than memory) are
listed, not failed. 2: a file that is not a sweep.

Preempted repetitions are left out of the medians: the CI machine has 2 cores shared with
other jobs, and a repetition whose timing thread got less than 80% of a core
(cpu_time / real_time < 0.8; a memory stall still counts as CPU time) measured the other jobs as
much as the backend. The table says how many repetitions were kept; when none was clean, all are
used and the row is marked. Under reduce_bench's stopping rule (rows with a `samples` counter)
each repetition's time is already the median of its samples, which a preempted sample does not
move, and its cpu_time covers the whole sampling loop: such repetitions are all kept. The JSON files keep every repetition. The output starts with the
command that made it. Standard library only; reads the JSON (or .json.gz) through bench_json.py.
"""
import argparse
import io
import os
import statistics
import sys
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402
from formatting import commas, md_table, pow2  # noqa: E402
from renames import as_measured  # noqa: E402

MIN_CPU_SHARE = 0.8


def load(path):
    """(context, {(backend, n): [(real us, cpu us, bytes/s, counters), ...]}, failed, skipped)."""
    context, benches = bench_json.load(path)
    rows, failed, skipped = {}, [], []
    for bench in benches.values():
        parsed = bench_json.parse_name(bench.name)
        if not parsed:
            continue
        backend, n, _ = parsed
        if not (backend.startswith("cpu/") or backend == "ref/cpu_read"):
            continue  # a sweep with GPU rows: this summary is the CPU family's
        failed += [f"{bench.name}: {m}" for m in bench.errors]
        skipped += [f"{bench.name}: {m}" for m in bench.skips]
        reps = [(real, cpu, bps, c) for (real, cpu, bps), c in zip(bench.reps, bench.rep_counters)
                if cpu is not None and bps is not None]
        if reps:
            rows[(backend, n)] = reps
    return context, rows, failed, skipped


def summary(runs):
    clean = [r for r in runs if "samples" in r[3] or r[1] >= MIN_CPU_SHARE * r[0]]
    kept = clean or runs
    gbs = statistics.median(r[2] / 1e9 for r in kept)
    spread = (max(r[2] for r in kept) - min(r[2] for r in kept)) / 1e9
    best = max(r[2] for r in kept) / 1e9
    runs_text = f"{len(clean)}/{len(runs)}" + ("" if clean else " (none clean: all used)")
    first = runs[0][3]
    return gbs, spread, first.get("rel_err", float("nan")), int(first.get("threads", 1)), runs_text, best


def table(path):
    context, rows, failed, skipped = load(path)
    print(f"## {path}\n")
    print(f"input: {context.get('input', '?')}; host: {context.get('host_name', '?')}, "
          f"{context.get('num_cpus', '?')} CPUs @ {context.get('mhz_per_cpu', '?')} MHz\n")
    # Serial kernels, then multithreaded ones, then the ceiling; by name within each (the JSON's
    # own order is random under --benchmark_enable_random_interleaving).
    team = {b: int(runs[0][3].get("threads", 1)) for (b, _), runs in rows.items()}
    order = sorted(team, key=lambda b: (b.startswith("ref/"), team[b] > 1, b))
    stats, body = {}, []
    for backend in order:
        for n in sorted(n for (b, n) in rows if b == backend):
            s = summary(rows[(backend, n)])
            stats[(backend, n)] = s
            gbs, _, rel_err, threads, count, best = s
            body.append([backend, pow2(n, commas), f"{gbs:.2f}", f"{best:.2f}", count, f"{rel_err:.3g}", threads])
    print("\n".join(md_table(["backend", "n", "GB/s (median)", "GB/s (best)", "repetitions kept", "rel_err", "threads"],
                             body, align="lrrrrrr")))
    print()
    for f in failed:
        print(f"FAILED {f}")
    for s in skipped:
        print(f"SKIPPED {s}")
    return stats, failed


def checks(stats):
    """Each check on medians (pass/MISS) and, for information, on the best repetitions."""
    big, mid = 1 << 28, 1 << 20

    def get(backend, n):
        s = stats.get((backend, n))
        return (s[0], s[5]) if s else None

    results = []
    read = get("ref/cpu_read", big)
    mt = {b: (s[0], s[5]) for (b, n), s in stats.items() if n == big and s[3] > 1 and not b.startswith("ref/")}
    if read and mt:
        best = max(mt, key=lambda b: mt[b][0])
        results.append((f"best multithreaded ({best}) >= 0.9 x ref/cpu_read at 2^28", mt[best], read, 0.9))
    # A sweep measured before the rows' renames names them the old way (scripts/renames.json).
    measured = {b for b, _ in stats}
    pool, avx2, chain = (as_measured(b, measured) for b in ("cpu/avx2/threads", "cpu/avx2", "cpu/accumulate"))
    kahan, naive = get("cpu/avx2_kahan/threads", big), get(pool, big)
    if kahan and naive:
        results.append((f"cpu/avx2_kahan/threads >= 0.9 x {pool} at 2^28", kahan, naive, 0.9))
    simd, scalar = get(avx2, mid), get(chain, mid)
    if simd and scalar:
        results.append((f"{avx2} >= 2 x {chain} at 2^20", simd, scalar, 2.0))
    ok, body = True, []
    for text, a, b, need in results:
        passed = a[0] >= need * b[0]
        ok = ok and passed
        body.append([text, f"{a[0]:.2f} vs {b[0]:.2f}", f"{a[0] / b[0]:.2f}", f"{a[1] / b[1]:.2f}",
                     "pass" if passed else "MISS"])
    print("\n".join(md_table(["check", "GB/s (medians)", "ratio of medians", "ratio of bests", "result (medians)"],
                             body, align="lrrrl")))
    print()
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", nargs="+", help="reduce_bench sweeps (Google Benchmark JSON)")
    ap.add_argument("--out", help="write the tables here (default: stdout)")
    args = ap.parse_args(argv)
    buf = io.StringIO()
    ok = True
    try:
        with redirect_stdout(buf):
            print(bench_json.stamp(__file__, argv))
            print()
            for path in args.json:
                stats, failed = table(path)
                ok = checks(stats) and not failed and ok
    except bench_json.BadInput as e:
        print(f"cpu_summary: {e}", file=sys.stderr)
        return 2
    bench_json.emit(buf.getvalue(), args.out)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
