"""Synthetic Google Benchmark JSON for the script tests, in the shapes reduce_bench writes.

Written by the tests at run time (into a temporary directory), so each test states the numbers
it depends on. Both JSON dialects are produced:
  1.7.1 (Debian 12, CI): errors as error_occurred/error_message;
  1.8.3 (the GPU box):  the same for SkipWithError, plus skipped/skip_message for
                        SkipWithMessage.
Checked against reduce_bench's own output: 1.7.1 from a local CPU run, 1.8.3 from the H200
runs (results/h200/baseline.json.gz: same row keys, aggregate_unit on aggregates in both).
"""
import json
import random
import statistics

H200_CONTEXT = {
    "date": "2026-11-30T09:00:00+00:00",
    "host_name": "h200-runner",
    "executable": "build/bench/reduce_bench",
    "num_cpus": 16,
    "library_build_type": "release",
    "gpu": "NVIDIA H200",
    "gpu_peak_bandwidth_GBps": "4814.000000",
    "gpu_l2_bytes": "62914560",
    "input": "synthetic harmonic x[i] = 1/(i+1)",
    "reduce_bench_version": "0.1.0",
}

CPU_CONTEXT = {
    "date": "2026-11-30T09:00:00+00:00",
    "host_name": "ci",
    "num_cpus": 2,
    "library_build_type": "debug",
    "gpu": "none (CPU-only build)",
    "input": "synthetic harmonic x[i] = 1/(i+1)",
    "reduce_bench_version": "0.1.0",
}


def _row(name, n, rep, reps, real_us, iterations=1000):
    return {
        "name": name, "family_index": 0, "per_family_instance_index": 0, "run_name": name,
        "run_type": "iteration", "repetitions": reps, "repetition_index": rep, "threads": 1,
        "iterations": iterations, "real_time": real_us, "cpu_time": real_us * 1.01, "time_unit": "us",
        "bytes_per_second": 4.0 * n / (real_us * 1e-6) if real_us > 0 else 0.0,
        "n": float(n), "rel_err": 1e-7, "rel_tol": 1e-4,
    }


def _aggregates(name, n, times, version):
    out = []
    mean = statistics.mean(times)
    stats = [("mean", mean), ("median", statistics.median(times)), ("stddev", statistics.stdev(times))]
    for agg, value in stats:
        r = _row(name + "_" + agg, n, 0, len(times), value, iterations=len(times))
        del r["repetition_index"]
        r.update(run_name=name, run_type="aggregate", aggregate_name=agg, aggregate_unit="time")
        out.append(r)
    cv = _row(name + "_cv", n, 0, len(times), statistics.stdev(times) / mean, iterations=len(times))
    del cv["repetition_index"]
    cv.update(run_name=name, run_type="aggregate", aggregate_name="cv", aggregate_unit="percentage")
    out.append(cv)
    return out


def bench_name(backend, n, mode):
    return "{}/{}/{}/manual_time".format(backend, n, mode)


def rows_for(name, n, times, version="1.7.1", error=None, skip=None, aggregates=True,
             aggregates_only=False):
    """The rows Google Benchmark writes for one benchmark with len(times) repetitions.

    error: SkipWithError message for every repetition (reduce_bench's failed verification, or
    its "skipped: ..." for an n that does not fit). skip: SkipWithMessage (1.8 only)."""
    reps = max(1, len(times))
    rows = []
    if error is not None or skip is not None:
        for rep in range(reps):
            r = _row(name, n, rep, reps, 0.0, iterations=0)
            if error is not None:
                r.update(error_occurred=True, error_message=error)
            else:
                assert version.startswith("1.8"), "SkipWithMessage exists from 1.8"
                r.update(skipped=True, skip_message=skip)
            rows.append(r)
        return rows  # no aggregates: fewer than 2 runs without error
    if not aggregates_only:
        rows += [_row(name, n, rep, reps, t) for rep, t in enumerate(times)]
    if (aggregates or aggregates_only) and len(times) > 1:
        rows += _aggregates(name, n, times, version)
    return rows


def sweep(rows, context=None, version="1.7.1"):
    ctx = dict(H200_CONTEXT if context is None else context)
    return {"context": ctx, "benchmarks": rows}


def write(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)
    return path


def noisy(center, reps, rel_noise, rng):
    """reps times spread uniformly within +-rel_noise around center."""
    return [center * (1.0 + rng.uniform(-rel_noise, rel_noise)) for _ in range(reps)]


# A GPU sweep's shape: small-n latency plus bytes over bandwidth, per backend and mode.
# (latency us, bandwidth GB/s); hot runs are L2-resident below ~15M floats.
GPU_MODEL = {
    "cub": (6.4, 4640.0),
    "cuda/onepass": (3.9, 4600.0),
    "cuda/vec4": (5.0, 4500.0),
    "thrust": (126.0, 4300.0),
    "ref/read": (4.1, 4660.0),
}
SIZES = [2 ** p for p in range(10, 31, 4)]  # 2^10 .. 2^30


def model_time(backend, n, mode):
    latency, bw = GPU_MODEL[backend]
    if mode == "hot" and n <= 15_000_000:
        bw *= 2.5
    return latency + 4.0 * n / (bw * 1e3)


def gpu_sweep(version="1.7.1", reps=5, seed=1, backends=None, modes=("cold", "hot"), cpu=True,
              scale=None, rel_noise=0.01, context=None):
    """A multi-backend sweep. scale: {backend: factor} applied to its times."""
    rng = random.Random(seed)
    rows = []
    for backend in backends or list(GPU_MODEL):
        for n in SIZES:
            for mode in modes:
                t = model_time(backend, n, mode) * (scale or {}).get(backend, 1.0)
                rows += rows_for(bench_name(backend, n, mode), n, noisy(t, reps, rel_noise, rng), version)
    if cpu:
        for n in SIZES[:4]:
            t = 4.0 * n / (4.5e3)
            rows += rows_for(bench_name("cpu/accumulate_accf64", n, "hot"), n, noisy(t, reps, rel_noise, rng), version)
    return sweep(rows, context, version)
