"""scripts/regress: exit status and verdicts on small synthetic sweeps.

Run one class:  python3 test_regress.py Slowdown   (CTest runs each class as its own test)
scripts/regress runs through its shebang, i.e. the python3 on PATH: on CI that interpreter has
no numpy or scipy, so these tests also prove the gate needs nothing beyond the standard library.
"""
import gzip
import json
import math
import os
import random
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures as fx  # noqa: E402
from script_case import ROOT, SCRIPTS, TempDirCase  # noqa: E402

REGRESS = os.path.join(ROOT, "scripts", "regress")
GATE_POWER = os.path.join(ROOT, "scripts", "gate_power.py")

sys.path.insert(0, SCRIPTS)
from gate_power import load_regress_module  # noqa: E402  (scripts/regress, loaded as a module)


class Case(TempDirCase):
    PREFIX = "regress_test_"

    def regress(self, *args):
        p = subprocess.run([REGRESS] + list(args), capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    def one_bench(self, name, base_times, new_times, version="1.7.1", **kw):
        n = 1 << 24
        b = self.file("base.json", fx.sweep(fx.rows_for(name, n, base_times, version, **kw), version=version))
        nw = self.file("new.json", fx.sweep(fx.rows_for(name, n, new_times, version, **kw), version=version))
        return b, nw

    def assertExit(self, expected, result):
        code, out = result
        self.assertEqual(code, expected, out)
        return out


class Identical(Case):
    def test_same_file(self):
        f = self.file("a.json", fx.gpu_sweep(reps=5))
        out = self.assertExit(0, self.regress(f, f))
        self.assertIn("regress: OK", out)
        self.assertNotIn("SLOWER", out)

    def test_same_data_two_files_both_versions(self):
        for version in ("1.7.1", "1.8.3"):
            a = self.file("a.json", fx.gpu_sweep(version=version, reps=10, seed=3))
            b = self.file("b.json", fx.gpu_sweep(version=version, reps=10, seed=3))
            self.assertExit(0, self.regress(a, b))


class Slowdown(Case):
    def test_ten_percent_slower_fails(self):
        base = self.file("base.json", fx.gpu_sweep(reps=10, seed=1))
        new = self.file("new.json", fx.gpu_sweep(reps=10, seed=2, scale={"cuda/onepass": 1.10}))
        out = self.assertExit(1, self.regress(base, new))
        self.assertIn("regress: FAIL", out)
        slower = [l for l in out.splitlines() if "| SLOWER" in l]
        self.assertEqual(len(slower), len(fx.SIZES) * 2, out)  # every cold and hot onepass row
        self.assertTrue(all("cuda/onepass/" in l for l in slower), out)

    def test_one_benchmark_slower_among_many(self):
        base = fx.gpu_sweep(reps=10, seed=1)
        new = fx.gpu_sweep(reps=10, seed=2)
        target = fx.bench_name("cub", 1 << 22, "cold")
        for r in new["benchmarks"]:
            if r["run_name"] == target:
                r["real_time"] *= 1.10
        out = self.assertExit(1, self.regress(self.file("b.json", base), self.file("n.json", new)))
        self.assertIn("FAIL: 1 benchmark(s): " + target, out)

    def test_1_8_dialect(self):
        base = self.file("base.json", fx.gpu_sweep(version="1.8.3", reps=10, seed=1))
        new = self.file("new.json", fx.gpu_sweep(version="1.8.3", reps=10, seed=2, scale={"cub": 1.10}))
        self.assertExit(1, self.regress(base, new))

    def test_threshold_option(self):
        base = self.file("base.json", fx.gpu_sweep(reps=10, seed=1))
        new = self.file("new.json", fx.gpu_sweep(reps=10, seed=2, scale={"cub": 1.10}))
        self.assertExit(0, self.regress(base, new, "--threshold", "15"))
        self.assertExit(1, self.regress(base, new, "--threshold=8"))

    def test_floor_option(self):
        # +8% on a 5 us call is 0.4 us: inside a 0.5 us floor, so it passes; +8% on 20 us does not.
        for us, exit_with_floor in ((5.0, 0), (20.0, 1)):
            base = [us * (1 + 0.001 * i) for i in range(10)]
            b, n = self.one_bench("cub/1024/cold/manual_time", base, [x * 1.08 for x in base])
            self.assertExit(1, self.regress(b, n))
            out = self.assertExit(exit_with_floor, self.regress(b, n, "--floor-us", "0.5"))
            self.assertIn("and > 0.5 us slower", out)
            if exit_with_floor == 0:
                self.assertIn("within --floor-us 0.5", out)
        b, n = self.one_bench("cub/1024/cold/manual_time", [5.0] * 5, [5.0] * 5)
        code, out = self.regress(b, n, "--floor-us=-1")
        self.assertEqual(code, 2, out)

    def test_alpha_option(self):
        # Two overlapping 10-rep samples, median +8.4%: exact one-sided p = 0.0144.
        base = [10.0 + 0.3 * i for i in range(10)]
        b, n = self.one_bench("cub/1024/cold/manual_time", base, [x + 0.95 for x in base])
        out = self.assertExit(1, self.regress(b, n, "--noise-factor", "0"))
        self.assertIn("| 0.0144 |", out)
        out = self.assertExit(0, self.regress(b, n, "--alpha", "0.01", "--noise-factor", "0"))
        self.assertIn("slower (not significant)", out)

    def test_median_metric(self):
        # The stopping rule's rows: the same means, medians 10% slower in NEW. real_time (the mean)
        # sees nothing; --metric median fails the gate.
        name, n = "cub/16777216/cold/manual_time", 1 << 24
        base_times = [20.0 + 0.01 * i for i in range(10)]

        def with_medians(times, scale):
            rows = fx.rows_for(name, n, times, aggregates=False)
            for r in rows:
                r.update(samples=50, median_us=r["real_time"] * scale, precision=0.001, target_met=1)
            return fx.sweep(rows)
        b = self.file("base.json", with_medians(base_times, 1.0))
        nw = self.file("new.json", with_medians(base_times, 1.10))
        self.assertExit(0, self.regress(b, nw))
        self.assertExit(1, self.regress(b, nw, "--metric", "median"))

    def test_filter_option(self):
        base = self.file("base.json", fx.gpu_sweep(reps=10, seed=1))
        new = self.file("new.json", fx.gpu_sweep(reps=10, seed=2, scale={"cub": 1.10}))
        self.assertExit(0, self.regress(base, new, "--filter", "^cuda/"))
        self.assertExit(1, self.regress(base, new, "--filter", "^cub/"))


class Speedup(Case):
    def test_ten_percent_faster_passes(self):
        base = self.file("base.json", fx.gpu_sweep(reps=10, seed=1))
        new = self.file("new.json", fx.gpu_sweep(reps=10, seed=2, scale={"cuda/onepass": 0.90}))
        out = self.assertExit(0, self.regress(base, new))
        self.assertEqual(sum(1 for l in out.splitlines() if "| faster" in l), len(fx.SIZES) * 2, out)


class Noise(Case):
    def test_one_percent_noise_passes(self):
        # Independent +-1% noise on both sides, 10 repetitions, several seeds: never a failure.
        for seed in range(5):
            base = self.file("base.json", fx.gpu_sweep(reps=10, seed=100 + seed, rel_noise=0.01))
            new = self.file("new.json", fx.gpu_sweep(reps=10, seed=200 + seed, rel_noise=0.01))
            out = self.assertExit(0, self.regress(base, new))
            self.assertNotIn("SLOWER", out)

    def test_small_but_significant_change_passes(self):
        # 3% slower with tiny noise: significant, but under the 5% threshold.
        b, n = self.one_bench("cub/4096/hot/manual_time", fx.noisy(10.0, 10, 0.001, random.Random(1)),
                              fx.noisy(10.3, 10, 0.001, random.Random(2)))
        out = self.assertExit(0, self.regress(b, n))
        self.assertIn("| same", out)

    def test_big_but_insignificant_change_passes(self):
        # Every repetition 8% slower, but they scatter by 50%: the samples overlap heavily, not
        # significant, not a failure.
        base = [10.0, 14.0, 9.0, 15.0, 10.5, 13.0, 9.5, 10.2, 14.5, 9.8]
        new = [1.08 * x for x in base]
        b, n = self.one_bench("cub/4096/hot/manual_time", base, new)
        out = self.assertExit(0, self.regress(b, n, "--noise-factor", "0"))
        self.assertIn("slower (not significant)", out)

    def test_scatter_sets_the_change_that_counts(self):
        # Repetitions that scatter by 9% (relative IQR) around their own median, on both sides, cannot
        # resolve a 12% shift: listed as noisy, not failed; without the noise floor the same files fail.
        base = [9.0 + 0.2 * i for i in range(10)]  # median 9.9, IQR 0.9: 9.1%
        new = [1.12 * x for x in base]
        b, n = self.one_bench("cub/4096/hot/manual_time", base, new)
        out = self.assertExit(0, self.regress(b, n))
        self.assertIn("| noisy", out)
        self.assertIn("repetitions scatter: needs >", out)
        out = self.assertExit(1, self.regress(b, n, "--noise-factor", "0"))
        self.assertIn("| SLOWER", out)

    def test_quiet_repetitions_keep_the_threshold(self):
        # 1% scatter: the floor (2 x ~1%) stays under the 5% threshold, and 10% slower fails.
        rng = random.Random(6)
        base = [10.0 * (1 + 0.01 * rng.uniform(-1, 1)) for _ in range(5)]
        new = [11.0 * (1 + 0.01 * rng.uniform(-1, 1)) for _ in range(5)]
        b, n = self.one_bench("cub/4096/hot/manual_time", base, new)
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("| SLOWER", out)
        self.assertNotIn("noisy", out)

    def test_bad_noise_factor(self):
        b, n = self.one_bench("cub/4096/hot/manual_time", [10.0] * 5, [10.0] * 5)
        self.assertExit(2, self.regress(b, n, "--noise-factor", "-1"))


class FewRepetitions(Case):
    def test_single_repetition_uses_threshold(self):
        b, n = self.one_bench("cub/1024/cold/manual_time", [10.0], [11.0])
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("threshold only on the medians (< 2 repetitions)", out)
        b, n = self.one_bench("cub/1024/cold/manual_time", [10.0], [10.3])
        self.assertExit(0, self.regress(b, n))

    def test_one_side_single(self):
        b, n = self.one_bench("cub/1024/cold/manual_time", [10.0, 10.1, 9.9, 10.0, 10.0], [10.0])
        # 5 reps vs 1: still threshold only, median 10.0 vs 10.0; NEW lacks 4 repetitions: that fails
        # unless --allow-missing.
        out = self.assertExit(0, self.regress(b, n, "--allow-missing"))
        self.assertIn("threshold only", out)
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("| MISSING REPETITIONS 1/5", out)

    def test_three_reps_cannot_reach_alpha(self):
        # 3 vs 3: the smallest one-sided p is 1/20 = 0.05, not < 0.05: threshold only, and said so.
        b, n = self.one_bench("cub/1024/cold/manual_time", [10.0, 10.1, 9.9], [11.0, 11.1, 10.9])
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("threshold only on the medians (U test min p 0.05 >= alpha)", out)

    def test_two_of_five_against_five(self):
        # 5 vs 2: the smallest one-sided p is 1/21 = 0.048: the test decides at alpha 0.05 (both NEW
        # values above all of BASE's), not at 0.04, where the threshold on the medians decides alone.
        # NEW lacks 3 repetitions, so --allow-missing.
        b, n = self.one_bench("cub/1024/cold/manual_time", [10.0, 10.1, 9.9, 10.05, 9.95], [11.0, 11.1])
        out = self.assertExit(1, self.regress(b, n, "--allow-missing"))
        self.assertIn("| 0.0476 |", out)
        out = self.assertExit(1, self.regress(b, n, "--allow-missing", "--alpha", "0.04"))
        self.assertIn("threshold only on the medians (U test min p 0.0476 >= alpha)", out)
        b, n = self.one_bench("cub/1024/cold/manual_time", [10.0, 10.1, 9.9, 10.05, 9.95], [10.3, 10.4])
        self.assertExit(0, self.regress(b, n, "--allow-missing", "--alpha", "0.04"))

    def test_aggregates_only_file(self):
        # --benchmark_report_aggregates_only: no repetition rows, the median aggregate is used.
        b, n = self.one_bench("cub/1024/cold/manual_time", [10.0, 10.1, 9.9], [11.0, 11.1, 10.9],
                              aggregates_only=True)
        with open(b) as f:
            self.assertFalse(any(r["run_type"] == "iteration" for r in json.load(f)["benchmarks"]))
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("threshold only on the medians (aggregates, no repetition rows)", out)


class Malformed(Case):
    def test_missing_file(self):
        f = self.file("a.json", fx.gpu_sweep(reps=2))
        out = self.assertExit(2, self.regress(f, os.path.join(self.dir, "nope.json")))
        self.assertIn("cannot read", out)

    def test_not_json(self):
        f = self.file("a.json", fx.gpu_sweep(reps=2))
        bad = os.path.join(self.dir, "bad.json")
        with open(bad, "w") as fh:
            fh.write("Benchmark  Time  CPU\n-----\ncub/1024 4 us\n")  # console output, not JSON
        out = self.assertExit(2, self.regress(f, bad))
        self.assertIn("not JSON", out)

    def test_truncated_json(self):
        f = self.file("a.json", fx.gpu_sweep(reps=2))
        bad = os.path.join(self.dir, "cut.json")
        with open(f) as src, open(bad, "w") as dst:
            dst.write(src.read()[:500])
        self.assertExit(2, self.regress(f, bad))

    def test_json_without_benchmarks(self):
        f = self.file("a.json", fx.gpu_sweep(reps=2))
        other = self.file("o.json", {"results": []})
        out = self.assertExit(2, self.regress(other, f))
        self.assertIn("no \"benchmarks\" list", out)

    def test_no_common_benchmarks(self):
        a = self.file("a.json", fx.gpu_sweep(reps=2, backends=["cub"], cpu=False))
        b = self.file("b.json", fx.gpu_sweep(reps=2, backends=["thrust"], cpu=False))
        out = self.assertExit(2, self.regress(a, b))
        self.assertIn("no benchmark name is in both files", out)

    def test_bad_time_value(self):
        doc = fx.gpu_sweep(reps=2, backends=["cub"], cpu=False)
        doc["benchmarks"][0]["real_time"] = "fast"
        a = self.file("a.json", doc)
        out = self.assertExit(2, self.regress(a, a))
        self.assertIn("not a time", out)

    def test_bad_usage(self):
        f = self.file("a.json", fx.gpu_sweep(reps=2))
        self.assertExit(2, self.regress(f))  # argparse: missing NEW
        self.assertExit(2, self.regress(f, f, "--alpha", "2"))


class Errors(Case):
    NAME = "cuda/onepass/1048576/cold/manual_time"

    def docs(self, base_error=None, new_error=None, version="1.7.1", new_skip=None):
        def doc(error, skip=None):
            rows = fx.rows_for(fx.bench_name("cub", 1 << 20, "cold"), 1 << 20, [7.2] * 5, version)
            rows += fx.rows_for(self.NAME, 1 << 20, [6.0, 6.1, 5.9, 6.0, 6.05], version, error=error, skip=skip)
            return fx.sweep(rows, version=version)
        return self.file("b.json", doc(base_error)), self.file("n.json", doc(new_error, new_skip))

    def test_new_error_fails(self):
        for version in ("1.7.1", "1.8.3"):
            b, n = self.docs(new_error="sum 1.2 is off the reference 1.0 by 0.2 > tolerance", version=version)
            out = self.assertExit(1, self.regress(b, n))
            self.assertIn("NEW ERROR", out)
            self.assertIn("off the reference", out)

    def test_error_on_both_sides_is_reported_not_failed(self):
        b, n = self.docs(base_error="cudaErrorIllegalAddress", new_error="cudaErrorIllegalAddress")
        out = self.assertExit(0, self.regress(b, n))
        self.assertIn("ERROR (also in BASE)", out)

    def test_fixed_error_passes(self):
        b, n = self.docs(base_error="verification failed")
        out = self.assertExit(0, self.regress(b, n))
        self.assertIn("fixed (BASE had an error)", out)

    def test_measured_row_turned_skip_fails(self):
        # Measured in BASE, a reduce_bench "skipped: ..." row in NEW: nothing was measured, so the
        # gate cannot say "no regression" without --allow-missing.
        b, n = self.docs(new_error="skipped: n = 2147483648 needs 8.6 GB of host memory, 4.0 GB available")
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("| SKIPPED in NEW", out)
        self.assertIn("needs 8.6 GB of host memory", out)
        self.assertIn("regress: FAIL: 1 benchmark(s): " + self.NAME + " (SKIPPED in NEW)", out)
        self.assertNotIn("regress: OK", out)

    def test_allow_missing_accepts_a_skip_and_warns(self):
        b, n = self.docs(new_error="skipped: n = 2147483648 needs 8.6 GB of host memory, 4.0 GB available")
        out = self.assertExit(0, self.regress(b, n, "--allow-missing"))
        self.assertIn("| skipped in NEW", out)
        self.assertIn("warning: 1 benchmark(s) measured in BASE only skipped in NEW (allowed by --allow-missing): "
                      + self.NAME, out)
        self.assertIn("regress: OK", out)

    def test_interrupted_run_fails(self):
        # reduce_bench after SIGINT: the rows it did not reach are "skipped: not run: interrupted".
        b, n = self.docs(new_error="skipped: not run: interrupted by SIGINT")
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("SKIPPED in NEW", out)
        self.assertIn("interrupted by SIGINT", out)
        self.assertExit(0, self.regress(b, n, "--allow-missing"))

    def test_allow_missing_does_not_accept_a_new_error(self):
        b, n = self.docs(new_error="sum 1.2 is off the reference 1.0 by 0.2 > tolerance")
        out = self.assertExit(1, self.regress(b, n, "--allow-missing"))
        self.assertIn("NEW ERROR", out)

    def test_skipped_on_both_sides_passes(self):
        skip = "skipped: n = 2147483648 needs 8.6 GB of host memory, 4.0 GB available"
        b, n = self.docs(base_error=skip, new_error=skip)
        out = self.assertExit(0, self.regress(b, n))
        self.assertIn("skipped in BASE", out)
        self.assertNotIn("SKIPPED in NEW", out)

    def test_help_says_a_skip_fails(self):
        out = self.assertExit(0, self.regress("--help"))
        self.assertIn("only skip", " ".join(out.split()))

    def test_error_in_a_benchmark_new_in_new_fails(self):
        b, _ = self.docs()
        rows = fx.rows_for(fx.bench_name("cub", 1 << 20, "cold"), 1 << 20, [7.2] * 5)
        rows += fx.rows_for(self.NAME, 1 << 20, [6.0] * 5)
        rows += fx.rows_for(fx.bench_name("triton/onepass", 1 << 20, "cold"), 1 << 20, [5.0] * 5,
                            error="sum off the reference")
        n = self.file("n2.json", fx.sweep(rows))
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("triton/onepass/1048576/cold/manual_time (error: sum off the reference)", out)
        self.assertIn("NEW ERROR (not in BASE)", out)

    def test_skip_with_message_1_8(self):
        b, n = self.docs(version="1.8.3", new_skip="not supported on this device")
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("SKIPPED in NEW", out)
        self.assertIn("not supported on this device", out)
        out = self.assertExit(0, self.regress(b, n, "--allow-missing"))
        self.assertIn("skipped in NEW", out)


class OneSided(Case):
    """Benchmarks on one side only: missing from NEW fails (unless --allow-missing), only in NEW does not."""
    KEPT = fx.bench_name("cub", 1 << 20, "cold")
    GONE = fx.bench_name("thrust/reduce", 1 << 20, "hot")
    ADDED = fx.bench_name("cuda/onepass", 1 << 20, "cold")

    def pair(self, base_names, new_names):
        def doc(names, seed):
            rng = random.Random(seed)
            rows = []
            for name in names:
                rows += fx.rows_for(name, 1 << 20, fx.noisy(7.0, 5, 0.01, rng))
            return fx.sweep(rows)
        return self.file("b.json", doc(base_names, 1)), self.file("n.json", doc(new_names, 2))

    def test_missing_from_new_fails_and_is_named(self):
        b, n = self.pair([self.KEPT, self.GONE], [self.KEPT])
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("1 only in BASE: missing from NEW (FAIL; --allow-missing to accept):\n  " + self.GONE + "\n",
                      out)
        self.assertIn("regress: FAIL: 1 benchmark(s): " + self.GONE + " (MISSING in NEW)", out)
        self.assertNotIn("regress: OK", out)

    def test_allow_missing_passes_and_still_names_it(self):
        b, n = self.pair([self.KEPT, self.GONE], [self.KEPT])
        out = self.assertExit(0, self.regress(b, n, "--allow-missing"))
        self.assertIn("  " + self.GONE + "\n", out)
        self.assertIn("warning: 1 benchmark(s) of BASE missing from NEW (allowed by --allow-missing): " + self.GONE,
                      out)
        self.assertIn("regress: OK", out)

    def test_allow_missing_does_not_hide_a_regression(self):
        b, _ = self.pair([self.KEPT, self.GONE], [])
        n = self.file("slow.json", fx.sweep(fx.rows_for(self.KEPT, 1 << 20, [7.7, 7.8, 7.75, 7.7, 7.72])))
        out = self.assertExit(1, self.regress(b, n, "--allow-missing"))
        self.assertIn("regress: FAIL: 1 benchmark(s): " + self.KEPT, out)
        self.assertNotIn("MISSING in NEW", out)

    def test_filter_excluding_the_missing_row_passes(self):
        b, n = self.pair([self.KEPT, self.GONE], [self.KEPT])
        out = self.assertExit(0, self.regress(b, n, "--filter", "^cub/"))
        self.assertNotIn(self.GONE, out)
        self.assertIn("regress: OK", out)
        # The filter selects BASE rows too: one that matches it and is missing still fails.
        out = self.assertExit(1, self.regress(b, n, "--filter", "/1048576/"))
        self.assertIn(self.GONE + " (MISSING in NEW)", out)

    def test_only_in_new_does_not_fail(self):
        b, n = self.pair([self.KEPT], [self.KEPT, self.ADDED])
        out = self.assertExit(0, self.regress(b, n))
        self.assertIn("1 only in NEW (not compared):\n  " + self.ADDED + "\n", out)
        self.assertNotIn("only in BASE", out)
        self.assertNotIn("MISSING in NEW", out)
        self.assertIn("regress: OK", out)

    def test_error_only_rows_in_new_are_a_new_error_not_missing(self):
        b, _ = self.pair([self.KEPT, self.GONE], [])
        rows = fx.rows_for(self.KEPT, 1 << 20, [7.0] * 5)
        rows += fx.rows_for(self.GONE, 1 << 20, [7.0] * 5, error="sum off the reference")
        n = self.file("err.json", fx.sweep(rows))
        out = self.assertExit(1, self.regress(b, n, "--allow-missing"))
        self.assertIn(self.GONE + " (NEW ERROR)", out)
        self.assertNotIn("only in BASE", out)
        self.assertNotIn("MISSING in NEW", out)

    def test_missing_row_that_base_never_measured_does_not_fail(self):
        # BASE's row was itself a skip: NEW losing it loses no measurement.
        rows = fx.rows_for(self.KEPT, 1 << 20, fx.noisy(7.0, 5, 0.01, random.Random(1)))
        rows += fx.rows_for(self.GONE, 1 << 20, [7.0] * 5, error="skipped: needs 8.6 GB of host memory")
        b = self.file("b2.json", fx.sweep(rows))
        n = self.file("n2.json", fx.sweep(fx.rows_for(self.KEPT, 1 << 20, fx.noisy(7.0, 5, 0.01, random.Random(2)))))
        out = self.assertExit(0, self.regress(b, n))
        self.assertIn("1 only in BASE, not measured there either", out)
        self.assertNotIn("MISSING in NEW", out)

    def test_benchmarks_on_one_side_are_listed(self):
        a = self.file("a.json", fx.gpu_sweep(reps=5, backends=["cub", "thrust"], cpu=False, seed=1))
        b = self.file("b.json", fx.gpu_sweep(reps=5, backends=["cub", "cuda/onepass"], cpu=False, seed=2))
        out = self.assertExit(1, self.regress(a, b))
        self.assertIn("{} only in BASE: missing from NEW".format(2 * len(fx.SIZES)), out)
        self.assertIn("{} only in NEW (not compared)".format(2 * len(fx.SIZES)), out)
        self.assertIn("  thrust/1024/cold/manual_time", out)
        self.assertIn("FAIL: {} benchmark(s)".format(2 * len(fx.SIZES)), out)
        self.assertExit(0, self.regress(a, b, "--allow-missing"))


class Units(Case):
    def test_time_units_are_converted(self):
        name = "cub/1024/cold/manual_time"
        base = fx.rows_for(name, 1024, [5.0, 5.1, 4.9, 5.0, 5.0])
        new = fx.rows_for(name, 1024, [5000.0, 5100.0, 4900.0, 5000.0, 5000.0])
        for r in new:
            r["time_unit"] = "ns"
        out = self.assertExit(0, self.regress(self.file("b.json", fx.sweep(base)), self.file("n.json", fx.sweep(new))))
        self.assertIn("+0.00%", out)


class MannWhitney(unittest.TestCase):
    """The U test itself, against values worked out by hand."""

    @classmethod
    def setUpClass(cls):
        cls.r = load_regress_module()

    def test_complete_separation_exact(self):
        t = self.r.mann_whitney([1, 2, 3], [4, 5, 6])
        self.assertEqual(t["method"], "exact")
        self.assertEqual(t["u"], 9)
        self.assertAlmostEqual(t["p_greater"], 1 / 20)
        self.assertAlmostEqual(t["p_less"], 1.0)

    def test_small_exact_by_enumeration(self):
        # x = [1, 4], y = [2, 3, 5]: U_y = #(y > x) = (2>1)+(3>1)+(5>1)+(5>4) = 4. Of the C(5,2) = 10
        # orderings, U_y >= 4 in those with U in {4, 5, 6}: counts of U for m=2, n=3 are
        # 1,1,2,2,2,1,1 (u = 0..6), so P(U >= 4) = (2 + 1 + 1) / 10.
        t = self.r.mann_whitney([1, 4], [2, 3, 5])
        self.assertEqual(t["u"], 4)
        self.assertAlmostEqual(t["p_greater"], 0.4)
        self.assertAlmostEqual(t["p_less"], (1 + 1 + 2 + 2 + 2) / 10)
        self.assertEqual(self.r._u_counts(2, 3), (1, 1, 2, 2, 2, 1, 1))

    def test_counts_sum_to_binomial(self):
        for m in range(1, 9):
            for n in range(1, 9):
                c = self.r._u_counts(m, n)
                self.assertEqual(sum(c), math.comb(m + n, m))
                self.assertEqual(list(c), list(reversed(c)))  # symmetric about mn/2

    def test_direction_symmetry(self):
        rng = random.Random(5)
        for _ in range(20):
            x = [rng.random() for _ in range(rng.randint(2, 12))]
            y = [rng.random() + 0.1 for _ in range(rng.randint(2, 12))]
            a, b = self.r.mann_whitney(x, y), self.r.mann_whitney(y, x)
            self.assertAlmostEqual(a["p_greater"], b["p_less"])
            self.assertAlmostEqual(a["p_less"], b["p_greater"])

    def test_ties_use_corrected_normal(self):
        # x = [1, 2, 2], y = [2, 3, 3]: ranks 1, 3, 3, 3, 5.5, 5.5 -> R_y = 14, U_y = 14 - 6 = 8.
        # Ties: t = 3 and t = 2: sum(t^3 - t) = 24 + 6 = 30. var = 9/12 * (7 - 30/30) = 4.5.
        # p_greater = P(Z >= (8 - 4.5 - 0.5) / sqrt(4.5)).
        t = self.r.mann_whitney([1, 2, 2], [2, 3, 3])
        self.assertEqual(t["method"], "normal")
        self.assertAlmostEqual(t["u"], 8)
        z = 3.0 / math.sqrt(4.5)
        self.assertAlmostEqual(t["p_greater"], 0.5 * math.erfc(z / math.sqrt(2)))

    def test_all_equal(self):
        t = self.r.mann_whitney([5.0] * 4, [5.0] * 4)
        self.assertEqual((t["p_greater"], t["p_less"]), (1.0, 1.0))

    def test_large_samples_use_normal(self):
        t = self.r.mann_whitney(list(range(60)), [v + 0.5 for v in range(60)])
        self.assertEqual(t["method"], "normal")
        self.assertGreater(t["p_greater"], 0.1)

    def test_min_p(self):
        self.assertAlmostEqual(self.r.min_one_sided_p(2, 2), 1 / 6)
        self.assertAlmostEqual(self.r.min_one_sided_p(5, 5), 1 / 252)


class Planted(Case):
    """The changes the gate exists for, planted in NEW: each fails, whatever NEW's own scatter."""
    NAME = "cub/4096/hot/manual_time"
    BASE = [10.0, 10.1, 9.9, 10.05, 9.95]

    def test_three_of_five_repetitions_twice_as_slow(self):
        # NEW's other two repetitions are where BASE's are: U = 15 + 4 + 3 = 22 of 25, exact p = P(U <= 3)
        # = 7/252 (the partitions of 0..3 into at most 5 parts of at most 5: 1 + 1 + 2 + 3).
        # NEW's relative IQR is ~100%: a floor from the larger of the two sides' scatter vetoed this.
        new = [20.1, 19.9, 20.2, 10.08, 10.02]
        b, n = self.one_bench(self.NAME, self.BASE, new)
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("| SLOWER", out)
        self.assertIn("| 0.0278 |", out)
        self.assertIn("regress: FAIL: 1 benchmark(s): " + self.NAME + " (+", out)

    def test_every_repetition_ten_percent_slower(self):
        b, n = self.one_bench(self.NAME, self.BASE, [1.10 * x for x in self.BASE])
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("| +10.0% [", out)
        self.assertIn("| SLOWER", out)

    def test_consistent_shift_with_wider_scatter_in_new(self):
        # +10% on every repetition, NEW's repetitions spread over -7%..+12% around their median (BASE:
        # +-1%): NEW's relative IQR is 9%, so twice the larger side's scatter (18%) vetoed it. The pooled
        # residuals' IQR stays at BASE's size.
        new = [11.0 * (1 + w) for w in (-0.07, -0.04, 0.0, 0.05, 0.12)]
        b, n = self.one_bench(self.NAME, self.BASE, new)
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("| SLOWER", out)
        self.assertNotIn("noisy", out)
        r = load_regress_module()
        self.assertLess(r.within_scatter(self.BASE, new), 2.0)

    def test_identical_copy_passes(self):
        rng = random.Random(4)
        rows = []
        for n in fx.SIZES:
            rows += fx.rows_for(fx.bench_name("cub", n, "cold"), n, fx.noisy(fx.model_time("cub", n, "cold"), 5,
                                                                                0.05, rng))
        f = self.file("a.json", fx.sweep(rows))
        g = self.file("b.json", fx.sweep(rows))
        out = self.assertExit(0, self.regress(f, g))
        self.assertIn("{} compared: {} same".format(len(fx.SIZES), len(fx.SIZES)), out)
        self.assertIn("| +0.0% [", out)


class MissingRepetitions(Case):
    """NEW with fewer repetition rows than BASE: an interrupted or cut sweep."""
    NAME = "cub/4096/hot/manual_time"

    def pair(self):
        base = [10.0, 10.1, 9.9, 10.05, 9.95]
        return self.one_bench(self.NAME, base, base[:3])

    def test_two_of_five_missing_fails(self):
        b, n = self.pair()
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("| MISSING REPETITIONS 3/5", out)
        self.assertIn("regress: FAIL: 1 benchmark(s): " + self.NAME + " (MISSING REPETITIONS 3/5)", out)

    def test_allow_missing_warns(self):
        b, n = self.pair()
        out = self.assertExit(0, self.regress(b, n, "--allow-missing"))
        self.assertIn("missing repetitions 3/5 (allowed by --allow-missing)", out)
        self.assertIn("warning: 1 benchmark(s) with fewer repetitions in NEW than in BASE (allowed by "
                      "--allow-missing): " + self.NAME + " (3/5)", out)
        self.assertIn("regress: OK", out)

    def test_missing_and_slower_says_both(self):
        base = [10.0, 10.1, 9.9, 10.05, 9.95]
        b, n = self.one_bench(self.NAME, base, [1.2 * x for x in base[:4]])
        out = self.assertExit(1, self.regress(b, n))
        self.assertIn("| MISSING REPETITIONS 4/5 + SLOWER", out)
        out = self.assertExit(1, self.regress(b, n, "--allow-missing"))
        self.assertIn("| SLOWER", out)

    def test_more_repetitions_in_new_is_fine(self):
        base = [10.0, 10.1, 9.9, 10.05, 9.95]
        b, n = self.one_bench(self.NAME, base, base + [10.02, 9.98])
        self.assertExit(0, self.regress(b, n))

    def test_help_says_missing_repetitions_fail(self):
        out = self.assertExit(0, self.regress("--help"))
        self.assertIn("fewer repetition rows in NEW than in BASE", " ".join(out.split()))


class ShiftEstimate(unittest.TestCase):
    """The Hodges-Lehmann shift and Moses' interval, against values worked out by hand."""

    @classmethod
    def setUpClass(cls):
        cls.r = load_regress_module()

    def test_hand_checked_example(self):
        # new = 1.1 x base: every log(new_j / base_i) is log 1.1 + log(base_j / base_i), whose median is
        # log 1.1: the shift is +10% exactly. The 25 ratios base_j / base_i sorted: 1/5, 1/4, 1/3, 2/5,
        # 1/2, 1/2, 3/5, 2/3, 3/4, 4/5, 1 (x5), 5/4, 4/3, 3/2, 5/3, 2, 2, 5/2, 3, 4, 5. U of 5 + 5 has
        # P(U <= k) = 1, 2, 4, 7, 12, 19 / 252 for k = 0..5, so c = 21 (P(U >= 21) = 12/252 < 0.05 <=
        # P(U >= 20) = 19/252), and Moses' interval is the 25 - 21 + 1 = 5th and the 21st: 1.1 x 1/2
        # and 1.1 x 2, i.e. -45% and +120%.
        base = [1.0, 2.0, 3.0, 4.0, 5.0]
        hl = self.r.hodges_lehmann(base, [1.1 * x for x in base], 0.05)
        self.assertEqual(hl["method"], "exact")
        self.assertAlmostEqual(self.r.to_percent(hl["shift"]), 10.0, places=9)
        self.assertAlmostEqual(self.r.to_percent(hl["lo"]), -45.0, places=9)
        self.assertAlmostEqual(self.r.to_percent(hl["hi"]), 120.0, places=9)
        self.assertEqual(self.r.upper_critical_u(5, 5, 0.05), 21)
        self.assertEqual(sum(self.r._u_counts(5, 5)[21:]), 12)
        self.assertEqual(sum(self.r._u_counts(5, 5)[20:]), 19)

    def test_no_interval_when_no_data_can_reject(self):
        hl = self.r.hodges_lehmann([1.0, 2.0, 3.0], [4.0, 5.0, 6.0], 0.05)  # min p = 1/20, not < 0.05
        self.assertIsNone(hl["lo"])
        self.assertIsNone(hl["hi"])
        self.assertIsNone(self.r.hodges_lehmann([0.0, 1.0], [1.0, 2.0]))

    def test_lower_end_above_zero_exactly_when_significant(self):
        rng = random.Random(8)
        for _ in range(300):
            m, n = rng.randint(4, 12), rng.randint(4, 12)
            x = [math.exp(rng.gauss(0, 0.1)) for _ in range(m)]
            y = [math.exp(rng.gauss(rng.choice([0.0, 0.05, 0.1]), 0.1)) for _ in range(n)]
            hl = self.r.hodges_lehmann(x, y, 0.05)
            t = self.r.mann_whitney(x, y)
            self.assertEqual(hl["lo"] > 0, t["p_greater"] < 0.05, (x, y))
            self.assertEqual(hl["hi"] < 0, t["p_less"] < 0.05, (x, y))

    def test_normal_approximation_matches_the_test(self):
        # Ties: the critical U comes from the same tie-corrected normal approximation as the p-value.
        rng = random.Random(9)
        for _ in range(100):
            m, n = rng.randint(5, 30), rng.randint(5, 30)
            x = [round(rng.gauss(10, 1), 0) + 10 for _ in range(m)]
            y = [round(rng.gauss(10.7, 1), 0) + 10 for _ in range(n)]
            c = self.r.upper_critical_u(m, n, 0.05, self.r._tie_term(x + y))
            t = self.r.mann_whitney(x, y)
            if c is not None:
                self.assertEqual(t["u"] >= c, t["p_greater"] < 0.05, (x, y))

    def test_coverage_is_nominal(self):
        # 2000 pairs of log-normal samples with a known shift: the 95% interval (each end a one-sided
        # 97.5% bound) holds the true shift in about 95% of them (more for small m, n: U is discrete).
        rng = random.Random(10)
        covered = 0
        for _ in range(2000):
            m, n = rng.randint(5, 12), rng.randint(5, 12)
            delta = rng.uniform(-0.2, 0.2)
            x = [math.exp(rng.gauss(0, 0.1)) for _ in range(m)]
            y = [math.exp(rng.gauss(delta, 0.1)) for _ in range(n)]
            hl = self.r.hodges_lehmann(x, y, 0.025)
            covered += hl["lo"] <= delta <= hl["hi"]
        self.assertGreaterEqual(covered / 2000, 0.93)
        self.assertLessEqual(covered / 2000, 0.99)

    def test_coverage_normal_approximation(self):
        rng = random.Random(11)
        covered = 0
        for _ in range(300):
            x = [math.exp(rng.gauss(0, 0.1)) for _ in range(55)]
            y = [math.exp(rng.gauss(0.05, 0.1)) for _ in range(55)]
            hl = self.r.hodges_lehmann(x, y, 0.025)
            self.assertEqual(hl["method"], "normal")
            covered += hl["lo"] <= 0.05 <= hl["hi"]
        self.assertGreaterEqual(covered / 300, 0.91)
        self.assertLessEqual(covered / 300, 0.99)

    def test_within_scatter_is_bounded_by_base(self):
        # 5 + 5: at most 2 of NEW's residuals lie below (above) its median, so the pooled quartiles
        # lie within BASE's largest residual s: NEW's scatter alone cannot raise the floor above 2 s.
        rng = random.Random(13)
        for _ in range(500):
            base = [math.exp(rng.gauss(0, 0.02)) for _ in range(5)]
            new = [math.exp(rng.gauss(0.1, rng.choice([0.01, 0.1, 0.5]))) for _ in range(5)]
            med = sorted(base)[2]
            s = max(abs(v / med - 1) for v in base) * 100
            self.assertLessEqual(self.r.within_scatter(base, new), 2 * s + 1e-9)

    def test_within_scatter_ignores_a_consistent_shift(self):
        base = [9.0 + 0.2 * i for i in range(10)]
        self.assertAlmostEqual(self.r.within_scatter(base, [1.5 * x for x in base]),
                               self.r.within_scatter(base, base))
        # Two of five NEW repetitions doubled: the pooled quartiles stay among the unmoved residuals.
        quiet = [10.0, 10.1, 9.9, 10.05, 9.95]
        self.assertLess(self.r.within_scatter(quiet, [10.0, 10.1, 9.9, 20.1, 19.9]), 2.0)


class GatePower(Case):
    """scripts/gate_power.py on two small synthetic identical runs, with the standard library only."""

    def test_table(self):
        rng = random.Random(12)

        def run():
            rows = []
            for n in fx.SIZES:
                rows += fx.rows_for(fx.bench_name("cub", n, "cold"), n,
                                    fx.noisy(fx.model_time("cub", n, "cold"), 5, 0.005, rng))
            return fx.sweep(rows)
        a, b = self.file("a.json", run()), self.file("b.json", run())
        p = subprocess.run([sys.executable, "-S", "-I", GATE_POWER, a, b], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        total = len(fx.SIZES)
        first_table = p.stdout.split("did not fail")[0]
        lines = {l.split(" | ")[0].lstrip("| "): l for l in first_table.splitlines() if l.startswith("| ")}
        zero, every = "0.0% (0/{})".format(total), "100.0% ({0}/{0})".format(total)
        self.assertEqual(lines["none: BASE against a copy of itself"].count(zero), 2, p.stdout)
        self.assertEqual(lines["none: the other identical run (false failures)"].count(zero), 2, p.stdout)
        self.assertEqual(lines["every repetition +3%"].count(zero), 2, p.stdout)
        self.assertEqual(lines["every repetition +10%"].count(every), 2, p.stdout)
        self.assertEqual(lines["2 of 5 repetitions dropped (the last two)"].count(every), 2, p.stdout)
        self.assertRegex(p.stdout, r"Generated by `[^`]*scripts/gate_power\.py ")  # its path as run from the cwd
        # Options after -- go to the gate.
        p = subprocess.run([sys.executable, GATE_POWER, a, b, "--", "--allow-missing", "--threshold", "20"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("(--allow-missing --threshold 20)", p.stdout)
        first_table = p.stdout.split("did not fail")[0]
        lines = {l.split(" | ")[0].lstrip("| "): l for l in first_table.splitlines() if l.startswith("| ")}
        self.assertEqual(lines["every repetition +10%"].count(zero), 2, p.stdout)
        self.assertEqual(lines["2 of 5 repetitions dropped (the last two)"].count(zero), 2, p.stdout)


    def test_committed_page(self):
        # results/ci-2core/regress_identical/power.md is what its `Generated by` command makes of the
        # committed pair with this gate: change the gate, regenerate the page.
        page = os.path.join(ROOT, "results", "ci-2core", "regress_identical", "power.md")
        with open(page, encoding="utf-8") as f:
            committed = f.read()
        self.assertIn("Generated by `scripts/gate_power.py --out results/ci-2core/regress_identical/power.md`.",
                      committed)
        out = os.path.join(self.dir, "power.md")
        p = subprocess.run([sys.executable, GATE_POWER, "--out", out], cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(out, encoding="utf-8") as f:
            again = f.read()

        def body(text):
            return [l for l in text.splitlines() if not l.startswith("Generated by `")]
        self.assertEqual(body(again), body(committed))

class LongOutput(Case):
    """No line but the table's is longer than regress.LINE_MAX, however many rows fail."""
    LIMIT = 200
    BASELINE = os.path.join("results", "h200", "baseline.json.gz")  # relative: the BASE line quotes it

    def regress_in_root(self, *args):
        p = subprocess.run([REGRESS] + list(args), capture_output=True, text=True, cwd=ROOT)
        return p.returncode, p.stdout + p.stderr

    def assertShortLines(self, out):
        long_lines = [l[:80] + "... ({})".format(len(l)) for l in out.splitlines()
                      if len(l) > self.LIMIT and not l.startswith("|")]
        self.assertEqual(long_lines, [])

    def filtered_baseline(self, prefix):
        with gzip.open(os.path.join(ROOT, self.BASELINE), "rt", encoding="utf-8") as f:
            doc = json.load(f)
        doc["benchmarks"] = [r for r in doc["benchmarks"] if r["name"].startswith(prefix)]
        self.assertTrue(doc["benchmarks"])
        return self.file("filtered.json", doc)

    def test_filtered_run_against_the_baseline(self):
        # A run of the cub rows alone against the whole baseline: over a thousand rows missing.
        out = self.assertExit(1, self.regress_in_root(self.BASELINE, self.filtered_baseline("cub/")))
        self.assertShortLines(out)
        listed = int(re_search(r"\n(\d+) only in BASE: missing from NEW", out))
        self.assertGreater(listed, 1000)
        last = out.splitlines()[-1]
        self.assertRegex(last, r"^regress: FAIL: {0} benchmark\(s\) \({0} MISSING in NEW\): \S+ \(MISSING in NEW\)"
                               r".* \.\.\. and \d+ more; all listed above$".format(listed))
        shown = last.count(" (MISSING in NEW)")
        self.assertEqual(int(re_search(r"and (\d+) more", last)) + shown, listed, last)
        hint = [l for l in out.splitlines() if l.startswith("hint: ")]
        self.assertEqual(len(hint), 1)
        self.assertTrue(hint[0].startswith("hint: NEW lacks {} of BASE's benchmarks; for a run of a subset, --filter "
                                           "REGEX".format(listed)), hint)

    def test_allow_missing_warning_is_short_too(self):
        out = self.assertExit(0, self.regress_in_root(self.BASELINE, self.filtered_baseline("cub/"),
                                                      "--allow-missing"))
        self.assertShortLines(out)
        self.assertRegex(out, r"\nwarning: \d+ benchmark\(s\) of BASE missing from NEW \(allowed by "
                              r"--allow-missing\): \S+.* \.\.\. and \d+ more; listed above\n")
        self.assertEqual(out.splitlines()[-1], "regress: OK")

    def test_counts_by_cause(self):
        rng = random.Random(4)
        base, new = [], []
        slow = [fx.bench_name("cub", 1 << p, "cold") for p in range(10, 30)]
        for name in slow:
            times = fx.noisy(10.0, 5, 0.01, rng)
            base += fx.rows_for(name, 1 << 20, times)
            new += fx.rows_for(name, 1 << 20, [t * 1.5 for t in times])
        gone = fx.bench_name("thrust", 1 << 20, "cold")
        base += fx.rows_for(gone, 1 << 20, fx.noisy(10.0, 5, 0.01, rng))
        broken = fx.bench_name("cuda/onepass", 1 << 20, "cold")
        base += fx.rows_for(broken, 1 << 20, fx.noisy(10.0, 5, 0.01, rng))
        new += fx.rows_for(broken, 1 << 20, [1.0] * 5, error="wrong sum")
        out = self.assertExit(1, self.regress(self.file("b.json", fx.sweep(base)), self.file("n.json", fx.sweep(new))))
        self.assertShortLines(out)
        last = out.splitlines()[-1]
        self.assertTrue(last.startswith("regress: FAIL: 22 benchmark(s) (20 SLOWER, 1 NEW ERROR, 1 MISSING in NEW): "
                                        + slow[0] + " (+"), last)
        self.assertRegex(last, r" \.\.\. and \d+ more; all listed above$")

    def test_few_failures_are_all_named(self):
        b, n = self.one_bench("cub/1024/cold/manual_time", [10.0 + 0.01 * i for i in range(5)],
                              [15.0 + 0.01 * i for i in range(5)])
        out = self.assertExit(1, self.regress(b, n))
        self.assertRegex(out.splitlines()[-1], r"^regress: FAIL: 1 benchmark\(s\): cub/1024/cold/manual_time "
                                               r"\(\+\d+\.\d+%\)$")


def re_search(pattern, text):
    m = re.search(pattern, text)
    if not m:
        raise AssertionError("no match for {!r} in:\n{}".format(pattern, text[-3000:]))
    return m.group(1)


class StdlibOnly(Case):
    def test_runs_without_site_packages(self):
        # -S -I: no site-packages, no user site, no PYTHONPATH: only the standard library.
        f = self.file("a.json", fx.gpu_sweep(reps=5))
        p = subprocess.run([sys.executable, "-S", "-I", REGRESS, f, f], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
