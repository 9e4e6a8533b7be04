"""scripts/tracker_export.py: the Bencher (BMF) export and the github-action-benchmark view.

Run one class:  python3 test_tracker_export.py Bmf   (CTest runs each class as its own test)
Classes: Bmf, GoogleCpp, RealSweep (the committed sweep results/h200/checks/every_call/readme.json.gz).
Standard library only. Expected values are computed here from the rows written (real_time and
time_unit, p10_us/p90_us, bytes_per_second), or typed as constants, never taken from the
exporter. GoogleCpp also runs the action's parsing rule under node where node is installed.
"""
import gzip
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures as fx  # noqa: E402
from script_case import ROOT, SCRIPTS, TempDirCase, run_python  # noqa: E402

EXPORT = os.path.join(SCRIPTS, "tracker_export.py")
REAL_SWEEP = os.path.join(ROOT, "results", "h200", "checks", "every_call", "readme.json.gz")

NS_PER = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
US_PER = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
BMF_KEYS = {"value", "lower_value", "upper_value"}


def run(*args):
    return run_python(EXPORT, *args)


def strict_loads(text):
    """json.loads that refuses NaN/Infinity, as JavaScript's JSON.parse and serde_json do."""
    def refuse(token):
        raise ValueError("non-standard JSON token " + token)
    return json.loads(text, parse_constant=refuse)


def measured(name, n, times_us, unit="us", version="1.7.1", aggregates=False, bandwidth=True):
    """The rows reduce_bench writes for one benchmark: one per repetition (plus aggregates),
    real_time = the median of the samples in `unit`, counters in us: p10 = 0.95, p90 = 1.08
    times the median."""
    rows = fx.rows_for(name, n, times_us, version, aggregates=aggregates)
    for r in rows:
        t = r["real_time"]  # us
        if r["run_type"] == "iteration":
            r.update(median_us=t, p10_us=0.95 * t, p90_us=1.08 * t, mean_us=1.01 * t, min_us=0.9 * t,
                     samples=50.0, precision=0.004, target_met=1.0)
        if r.get("aggregate_unit") != "percentage":
            r["real_time"] = t * US_PER["us"] / US_PER[unit]
            r["cpu_time"] = r["cpu_time"] / US_PER[unit]
            if "bytes_per_second" in r and r["real_time"] > 0:
                r["bytes_per_second"] = 4.0 * n / (t * 1e-6)
        r["time_unit"] = unit
        if not bandwidth:
            r.pop("bytes_per_second", None)
    return rows


def expected_from_rows(rows):
    """{bmf key: (latency ns, p10 ns, p90 ns, GB/s or None)} computed from single-repetition rows."""
    out = {}
    for r in rows:
        if r.get("run_type") != "iteration" or r.get("error_occurred") or r.get("skipped"):
            continue
        key = r["name"][: -len("/manual_time")]
        gbps = r["bytes_per_second"] / 1e9 if "bytes_per_second" in r else None
        out[key] = (r["real_time"] * NS_PER[r["time_unit"]], r.get("p10_us", 0) * 1e3,
                    r.get("p90_us", 0) * 1e3, gbps)
    return out


class Case(TempDirCase):
    PREFIX = "tracker_test_"

    def raw(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def bmf(self, *paths):
        code, out, err = run("bmf", *paths)
        self.assertEqual(code, 0, err)
        doc = strict_loads(out)
        self.assertBmfShape(doc)
        return doc, err

    def googlecpp(self, path, expect=0):
        code, out, err = run("googlecpp", path)
        self.assertEqual(code, expect, err)
        return (strict_loads(out) if expect == 0 else out), err

    def assertClose(self, actual, expected, msg=None):
        self.assertTrue(math.isclose(actual, expected, rel_tol=1e-12, abs_tol=0.0),
                        "{} != {} {}".format(actual, expected, msg or ""))

    def assertBmfShape(self, doc):
        """The documented BMF shape: an object of benchmarks, each an object of measures, each
        measure {value[, lower_value, upper_value]} with finite numbers, lower <= value <= upper."""
        self.assertIsInstance(doc, dict)
        self.assertTrue(doc, "no benchmark")
        for name, measures in doc.items():
            self.assertIsInstance(name, str)
            self.assertTrue(name and len(name) <= 1024, name)
            self.assertIsInstance(measures, dict, name)
            self.assertTrue(measures, name)
            for slug, metric in measures.items():
                self.assertIsInstance(metric, dict, (name, slug))
                self.assertIn("value", metric, (name, slug))
                self.assertLessEqual(set(metric), BMF_KEYS, (name, slug))
                for k, v in metric.items():
                    self.assertTrue(isinstance(v, (int, float)) and not isinstance(v, bool), (name, slug, k))
                    self.assertTrue(math.isfinite(v), (name, slug, k, v))
                if "lower_value" in metric:
                    self.assertLessEqual(metric["lower_value"], metric["value"], (name, slug))
                if "upper_value" in metric:
                    self.assertLessEqual(metric["value"], metric["upper_value"], (name, slug))


GPU_LIKE = [("cub", 1 << 20, "cold", 21.5), ("cuda/onepass", 1 << 20, "cold", 5.888),
            ("cuda/onepass", 1 << 20, "hot", 3.1), ("cpu/avx2/openmp", 1024, "hot", 0.769),
            ("nccl/onepass/reduce", 1 << 24, "cold", 40.25), ("thrust/reduce", 1000000, "cold", 126.0)]


def gpu_like_rows(unit="us", version="1.7.1"):
    rows = []
    for backend, n, mode, t in GPU_LIKE:
        rows += measured(fx.bench_name(backend, n, mode), n, [t], unit, version)
    rows += measured(fx.bench_name("ref/launch", 1024, "cold"), 1024, [2.592], unit, version, bandwidth=False)
    return rows


class Bmf(Case):
    def test_values_names_and_shape(self):
        rows = gpu_like_rows()
        doc, err = self.bmf(self.file("sweep.json", fx.sweep(rows)))
        expected = expected_from_rows(rows)
        self.assertEqual(set(doc), set(expected))
        self.assertEqual(len(doc), len(rows))
        self.assertIn("cpu/avx2/openmp/1024/hot", doc)  # slashes in the backend kept
        for key, (ns, p10, p90, gbps) in expected.items():
            self.assertClose(doc[key]["latency"]["value"], ns, key)
            self.assertClose(doc[key]["latency"]["lower_value"], p10, key)
            self.assertClose(doc[key]["latency"]["upper_value"], p90, key)
            if gbps is None:
                self.assertEqual(set(doc[key]), {"latency"}, key)
            else:
                self.assertEqual(set(doc[key]), {"latency", "bandwidth"}, key)
                self.assertClose(doc[key]["bandwidth"]["value"], gbps, key)
        # Typed-in figures: 5.888 us over 4 MiB.
        onepass = doc["cuda/onepass/1048576/cold"]
        self.assertClose(onepass["latency"]["value"], 5888.0)
        self.assertClose(onepass["latency"]["lower_value"], 5593.6)
        self.assertClose(onepass["latency"]["upper_value"], 6359.04)
        self.assertClose(onepass["bandwidth"]["value"], 4 * 1048576 / 5.888e-6 / 1e9)
        self.assertClose(onepass["bandwidth"]["value"], 712.3478260869565)
        self.assertIn("7 benchmarks (6 with bandwidth)", err)
        self.assertNotIn("excluded", err)

    def test_time_units(self):
        # The same measurements written in ns, us, ms and s: the same BMF, in ns.
        docs = {}
        for unit in NS_PER:
            rows = gpu_like_rows(unit)
            docs[unit], _ = self.bmf(self.file("sweep_{}.json".format(unit), fx.sweep(rows)))
            self.assertClose(docs[unit]["cub/1048576/cold"]["latency"]["value"], 21500.0, unit)
            for key, (ns, _, _, gbps) in expected_from_rows(rows).items():
                self.assertClose(docs[unit][key]["latency"]["value"], ns, (unit, key))
        for unit in ("ns", "ms", "s"):
            self.assertEqual(set(docs[unit]), set(docs["us"]))

    def test_repetitions_pooled_by_median(self):
        n = 1 << 20
        name = fx.bench_name("cub", n, "cold")
        times = [12.0, 10.0, 11.0, 30.0, 9.0]  # median 11, mean 14.4
        rows = measured(name, n, times, aggregates=True)
        self.assertEqual(sum(1 for r in rows if r["run_type"] == "aggregate"), 4)
        doc, _ = self.bmf(self.file("reps.json", fx.sweep(rows)))
        self.assertEqual(list(doc), ["cub/1048576/cold"])  # no _mean/_median/_stddev/_cv entries
        lat = doc["cub/1048576/cold"]["latency"]
        self.assertClose(lat["value"], 11000.0)
        self.assertClose(lat["lower_value"], 0.95 * 11000.0)
        self.assertClose(lat["upper_value"], 1.08 * 11000.0)
        self.assertClose(doc["cub/1048576/cold"]["bandwidth"]["value"], 4.0 * n / 11e-6 / 1e9)
        # An even count: the mean of the two middle repetitions.
        rows = measured(name, n, [20.0, 10.0, 14.0, 12.0], "ns", aggregates=True)
        doc, _ = self.bmf(self.file("even.json", fx.sweep(rows)))
        self.assertClose(doc["cub/1048576/cold"]["latency"]["value"], 13000.0)
        self.assertClose(doc["cub/1048576/cold"]["bandwidth"]["value"], 4.0 * n / 13e-6 / 1e9)

    def test_files_pooled(self):
        n = 4096
        name = fx.bench_name("cuda/vec4", n, "hot")
        only_a = fx.bench_name("cub", n, "hot")
        a = self.file("a.json", fx.sweep(measured(name, n, [10.0, 11.0]) + measured(only_a, n, [3.0])))
        b = self.file("b.json", fx.sweep(measured(name, n, [12.0, 40.0, 9.0], "ns")))
        doc, err = self.bmf(a, b)
        self.assertEqual(set(doc), {"cuda/vec4/4096/hot", "cub/4096/hot"})
        self.assertClose(doc["cuda/vec4/4096/hot"]["latency"]["value"],
                         statistics.median([10.0, 11.0, 12.0, 40.0, 9.0]) * 1e3)
        self.assertClose(doc["cuda/vec4/4096/hot"]["latency"]["value"], 11000.0)
        self.assertClose(doc["cub/4096/hot"]["latency"]["value"], 3000.0)
        self.assertIn("from 6 repetition row(s) in 2 file(s)", err)

    def test_error_and_skipped_rows_excluded(self):
        n = 1 << 20
        rows = measured(fx.bench_name("cub", n, "cold"), n, [20.0], version="1.8.3")
        rows += fx.rows_for(fx.bench_name("cuda/vec4", n, "cold"), n, [1.0], "1.8.3",
                            error="verification failed: |sum - ref| > bound")
        rows += fx.rows_for(fx.bench_name("cuda/shfl", 1 << 31, "cold"), 1 << 31, [1.0], "1.8.3",
                            error="skipped: n = 2147483648 needs 8 GiB, 4 GiB free")
        rows += fx.rows_for(fx.bench_name("torch/sum", n, "cold"), n, [1.0], "1.8.3", skip="no torch")
        # One benchmark with two good repetitions and a failed one.
        mixed = measured(fx.bench_name("cuda/onepass", n, "cold"), n, [8.0, 6.0], version="1.8.3")
        bad = fx.rows_for(fx.bench_name("cuda/onepass", n, "cold"), n, [1.0], "1.8.3", error="wrong sum")
        rows += mixed + bad
        self.assertEqual(sum(1 for r in rows if r.get("error_occurred") or r.get("skipped")), 4)
        doc, err = self.bmf(self.file("errors.json", fx.sweep(rows, version="1.8.3")))
        self.assertEqual(set(doc), {"cub/1048576/cold", "cuda/onepass/1048576/cold"})
        self.assertClose(doc["cuda/onepass/1048576/cold"]["latency"]["value"], 7000.0)
        self.assertIn("excluded 4 error/skipped row(s)", err)
        self.assertIn("cuda/vec4/1048576/cold/manual_time", err)

    def test_optional_counters(self):
        # A row without p10_us/p90_us has no bounds; one without bytes_per_second no bandwidth.
        n = 1024
        rows = measured(fx.bench_name("cub", n, "hot"), n, [4.0])
        for r in rows:
            del r["p10_us"], r["p90_us"]
        rows += measured(fx.bench_name("ref/launch", n, "hot"), n, [2.0], bandwidth=False)
        doc, _ = self.bmf(self.file("sparse.json", fx.sweep(rows)))
        self.assertEqual(doc["cub/1024/hot"]["latency"], {"value": 4000.0})
        self.assertEqual(set(doc["ref/launch/1024/hot"]), {"latency"})

    def test_non_finite_counters_stay_out(self):
        # precision: Infinity (below 6 effective samples), NaN elsewhere: the output is standard JSON.
        n = 1024
        rows = measured(fx.bench_name("cub", n, "hot"), n, [4.0])
        path = self.file("inf.json", fx.sweep(rows))
        with open(path, encoding="utf-8") as f:
            text = f.read().replace('"precision": 0.004', '"precision": Infinity, "rel_err": NaN')
        self.assertIn("Infinity", text)
        doc, _ = self.bmf(self.raw("inf.json", text))
        self.assertClose(doc["cub/1024/hot"]["latency"]["value"], 4000.0)

    def test_output_option_and_measure_slug(self):
        path = self.file("s.json", fx.sweep(gpu_like_rows()))
        out = os.path.join(self.dir, "bmf.json")
        code, stdout, err = run("bmf", path, "-o", out)
        self.assertEqual(code, 0, err)
        self.assertEqual(stdout, "")
        with open(out, encoding="utf-8") as f:
            from_file = strict_loads(f.read())
        self.assertEqual(from_file, strict_loads(run("bmf", path)[1]))
        doc = strict_loads(run("bmf", path, "--bandwidth-measure", "gbps")[1])
        self.assertEqual(set(doc["cub/1048576/cold"]), {"latency", "gbps"})

    def test_bad_inputs_exit_2(self):
        n = 1024
        name = fx.bench_name("cub", n, "hot")
        cases = {
            "missing": os.path.join(self.dir, "nope.json"),
            "not json": self.raw("text.json", "cub/1024/hot 3.2 us\n"),
            "not gbench": self.file("other.json", {"results": []}),
            "empty": self.file("empty.json", fx.sweep([])),
            "all errors": self.file("err.json", fx.sweep(fx.rows_for(name, n, [1.0], error="wrong sum"))),
            "aggregates only": self.file("agg.json", fx.sweep(fx.rows_for(name, n, [1.0, 2.0, 3.0],
                                                                            aggregates_only=True))),
            "negative time": self.file("neg.json", fx.sweep(measured(name, n, [-1.0]))),
        }
        for what, path in cases.items():
            code, out, err = run("bmf", path)
            self.assertEqual(code, 2, (what, out, err))
            self.assertEqual(out, "", what)
            self.assertEqual(len(err.strip().splitlines()), 1, (what, err))
        self.assertIn("aggregate", run("bmf", cases["aggregates only"])[2])
        # One bad file among good ones fails the whole export.
        good = self.file("good.json", fx.sweep(measured(name, n, [1.0])))
        self.assertEqual(run("bmf", good, cases["not json"])[0], 2)
        self.assertEqual(run("bmf")[0], 2)  # usage


class GoogleCpp(Case):
    def test_one_series_per_row(self):
        rows = gpu_like_rows()
        series, err = self.googlecpp(self.file("sweep.json", fx.sweep(rows)))
        self.assertEqual(len(series), len(rows))
        for s, r in zip(series, rows):
            self.assertEqual(set(s), {"name", "value", "unit", "extra"})
            self.assertEqual(s["name"], r["name"])
            self.assertEqual(s["value"], r["real_time"])  # exactly: the action stores real_time
            self.assertEqual(s["unit"], "us/iter")
            self.assertTrue(s["extra"].startswith("iterations: 1000\ncpu: "), s["extra"])
        self.assertEqual(series[1]["value"], 5.888)
        self.assertNotIn("warning", err)
        for unit in ("ns", "ms", "s"):
            series, _ = self.googlecpp(self.file("u.json", fx.sweep(gpu_like_rows(unit))))
            self.assertEqual({s["unit"] for s in series}, {unit + "/iter"})
            self.assertEqual(series[0]["value"], 21.5 * US_PER["us"] / US_PER[unit])

    def test_extra_prints_numbers_as_javascript(self):
        n = 1024
        cases = [(12.5, 1, "12.5", "1"), (1e-7, 16.0, "1e-7", "16"), (886.3740000002451, 1.0, "886.3740000002451", "1"),
                 (1.5e21, 2.0, "1.5e+21", "2"), (123456789012345680000.0, 1, "123456789012345680000", "1"),
                 (0.000001, 1, "0.000001", "1"), (2.5e-7, 1, "2.5e-7", "1"), (100.0, 1, "100", "1")]
        rows = []
        for i, (cpu, threads, _, _) in enumerate(cases):
            r = measured(fx.bench_name("cpu/avx2/threads", n * (i + 1), "hot"), n, [1.0])[0]
            r.update(cpu_time=cpu, threads=threads, iterations=1)
            rows.append(r)
        series, _ = self.googlecpp(self.file("js.json", fx.sweep(rows)))
        for s, (_, _, cpu_text, threads_text) in zip(series, cases):
            self.assertEqual(s["extra"], "iterations: 1\ncpu: {} us\nthreads: {}".format(cpu_text, threads_text))

    def test_aggregates_are_separate_series(self):
        n = 1 << 20
        name = fx.bench_name("cub", n, "cold")
        rows = measured(name, n, [10.0, 11.0, 15.0], aggregates=True)
        series, err = self.googlecpp(self.file("reps.json", fx.sweep(rows)))
        names = [s["name"] for s in series]
        self.assertEqual(names, [name] * 3 + [name + "_mean", name + "_median", name + "_stddev", name + "_cv"])
        by = {s["name"]: s for s in series[3:]}
        self.assertEqual([s["value"] for s in series[:3]], [10.0, 11.0, 15.0])
        self.assertClose(by[name + "_mean"]["value"], 12.0)
        self.assertClose(by[name + "_median"]["value"], 11.0)
        self.assertClose(by[name + "_stddev"]["value"], statistics.stdev([10.0, 11.0, 15.0]))
        self.assertClose(by[name + "_cv"]["value"], statistics.stdev([10.0, 11.0, 15.0]) / 12.0)
        self.assertEqual(by[name + "_cv"]["unit"], "us/iter")  # a ratio under a time unit
        self.assertIn("1 name(s) stored more than once", err)
        self.assertIn(name + " (x3)", err)
        self.assertIn("1 cv aggregate row(s)", err)
        # Aggregates only: one series per aggregate, no repeated name.
        rows = fx.rows_for(name, n, [10.0, 11.0, 15.0], aggregates_only=True)
        series, err = self.googlecpp(self.file("agg.json", fx.sweep(rows)))
        self.assertEqual(len(series), 4)
        self.assertEqual(len({s["name"] for s in series}), 4)
        self.assertNotIn("more than once", err)

    def test_error_rows_warned(self):
        n = 1 << 20
        rows = measured(fx.bench_name("cub", n, "cold"), n, [20.0], version="1.8.3")
        rows += fx.rows_for(fx.bench_name("cuda/vec4", n, "cold"), n, [1.0], "1.8.3", error="wrong sum")
        rows += fx.rows_for(fx.bench_name("torch/sum", n, "cold"), n, [1.0], "1.8.3", skip="no torch")
        series, err = self.googlecpp(self.file("errors.json", fx.sweep(rows, version="1.8.3")))
        self.assertEqual(len(series), 3)  # the action does not skip them
        self.assertEqual([s["value"] for s in series], [20.0, 0.0, 0.0])
        self.assertIn("warning: 2 error/skipped row(s)", err)
        self.assertIn("cuda/vec4/1048576/cold/manual_time", err)
        self.assertIn("torch/sum/1048576/cold/manual_time", err)

    def test_non_finite_tokens_rejected_and_strict_copy(self):
        n = 1024
        rows = measured(fx.bench_name("cub", n, "hot"), n, [4.0])
        rows += fx.rows_for(fx.bench_name("cuda/vec4", n, "hot"), n, [1.0], error="wrong sum")
        path = self.file("inf.json", fx.sweep(rows))
        with open(path, encoding="utf-8") as f:
            text = f.read().replace('"precision": 0.004', '"precision": Infinity')
        path = self.raw("inf.json", text)
        out, err = self.googlecpp(path, expect=1)
        self.assertEqual(out, "")
        self.assertIn("would reject", err)
        self.assertIn("Infinity x1", err)
        clean = os.path.join(self.dir, "clean.json")
        code, _, err = run("strict", path, "--drop-errors", "-o", clean)
        self.assertEqual(code, 0, err)
        self.assertIn("1 non-finite number(s) written as null (precision x1)", err)
        self.assertIn("1 error/skipped row(s) dropped", err)
        with open(clean, encoding="utf-8") as f:
            doc = strict_loads(f.read())
        self.assertEqual([r["name"] for r in doc["benchmarks"]], [rows[0]["name"]])
        self.assertIsNone(doc["benchmarks"][0]["precision"])
        self.assertEqual(doc["benchmarks"][0]["real_time"], 4.0)
        series, err = self.googlecpp(clean)
        self.assertEqual([(s["name"], s["value"]) for s in series], [(rows[0]["name"], 4.0)])
        self.assertNotIn("warning", err)

    def test_bad_inputs(self):
        for what, path in {"missing": os.path.join(self.dir, "nope.json"),
                           "not json": self.raw("t.json", "hello"),
                           "not gbench": self.file("o.json", {"benchmarks": {}})}.items():
            code, out, err = run("googlecpp", path)
            self.assertEqual(code, 2, (what, err))
            self.assertEqual(len(err.strip().splitlines()), 1, (what, err))
        code, _, err = run("googlecpp", self.file("e.json", fx.sweep([])))
        self.assertEqual(code, 1, err)  # the action finds no result and fails

    @unittest.skipUnless(shutil.which("node"), "node not installed")
    def test_agrees_with_javascript(self):
        # The action's rule, in JavaScript: JSON.parse, then per row name, real_time,
        # time_unit + "/iter" and the extra string in a template literal.
        rule = ("const fs=require('fs');let d;try{d=JSON.parse(fs.readFileSync(process.argv[1],'utf8'))}"
                "catch(e){process.exit(3)}"
                "process.stdout.write(JSON.stringify(d.benchmarks.map(b=>({name:b.name,value:b.real_time,"
                "unit:b.time_unit+'/iter',extra:`iterations: ${b.iterations}\\ncpu: ${b.cpu_time} "
                "${b.time_unit}\\nthreads: ${b.threads}`}))))")
        n = 1 << 20
        rows = gpu_like_rows("ns") + measured(fx.bench_name("cub", n, "hot"), n, [1.1, 2.3, 3.7], aggregates=True)
        rows[0].update(cpu_time=886.3740000002451, threads=16.0)
        path = self.file("js.json", fx.sweep(rows))
        js = subprocess.run(["node", "-e", rule, path], capture_output=True, text=True)
        self.assertEqual(js.returncode, 0, js.stderr)
        ours, _ = self.googlecpp(path)
        self.assertEqual(ours, json.loads(js.stdout))
        with open(path, encoding="utf-8") as f:
            inf = self.raw("inf.json", f.read().replace('"samples": 50.0', '"samples": Infinity', 1))
        self.assertEqual(subprocess.run(["node", "-e", rule, inf], capture_output=True).returncode, 3)
        self.googlecpp(inf, expect=1)


class RealSweep(Case):
    """The committed H200 sweep (results/h200/checks/every_call/readme.json.gz): 1248 rows, one
    repetition each, time_unit ns, no error rows; ref/launch (62 rows) has no bytes_per_second;
    35 rows have no precision (no interval), none a non-finite number."""

    def setUp(self):
        super().setUp()
        if not os.path.exists(REAL_SWEEP):
            self.skipTest("no " + REAL_SWEEP)
        self.path = os.path.join(self.dir, "readme.json")
        with gzip.open(REAL_SWEEP, "rb") as src, open(self.path, "wb") as dst:
            shutil.copyfileobj(src, dst)
        with open(self.path, encoding="utf-8") as f:
            self.rows = json.load(f)["benchmarks"]

    def test_counts_of_the_input(self):
        # What the other tests rely on, read straight from the file.
        self.assertEqual(len(self.rows), 1248)
        self.assertEqual({r["time_unit"] for r in self.rows}, {"ns"})
        self.assertEqual({r["run_type"] for r in self.rows}, {"iteration"})
        self.assertFalse([r for r in self.rows if r.get("error_occurred") or r.get("skipped")])
        self.assertEqual(sum(1 for r in self.rows if "bytes_per_second" in r), 1186)
        self.assertEqual(sum(1 for r in self.rows if "precision" not in r), 35)
        self.assertFalse([r for r in self.rows if not all(math.isfinite(v) for v in r.values() if isinstance(v, float))])

    def test_bmf(self):
        doc, err = self.bmf(self.path)
        self.assertEqual(len(doc), 1248)
        self.assertEqual(set(doc), {r["name"][: -len("/manual_time")] for r in self.rows})
        self.assertEqual(sum(1 for e in doc.values() if "bandwidth" in e), 1186)
        self.assertEqual(sum(1 for e in doc.values() if "lower_value" in e["latency"]), 1248)
        for r in self.rows:
            e = doc[r["name"][: -len("/manual_time")]]
            self.assertClose(e["latency"]["value"], r["real_time"], r["name"])  # already ns
            self.assertClose(e["latency"]["lower_value"], r["p10_us"] * 1e3, r["name"])
            self.assertClose(e["latency"]["upper_value"], r["p90_us"] * 1e3, r["name"])
            if "bytes_per_second" in r:
                self.assertClose(e["bandwidth"]["value"], r["bytes_per_second"] / 1e9, r["name"])
                self.assertClose(e["bandwidth"]["value"], 4 * r["n"] / (r["real_time"] * 1e-9) / 1e9, r["name"])
        self.assertClose(doc["cpu/accumulate_f32/1024/hot"]["latency"]["value"], 798.0)  # measured under that name
        self.assertIn("1248 benchmarks (1186 with bandwidth)", err)
        self.assertNotIn("excluded", err)

    def test_googlecpp(self):
        # Standard JSON as committed (no Infinity since precision is left out without an interval):
        # the action's JSON.parse reads it, and strict changes nothing.
        series, err = self.googlecpp(self.path)
        self.assertEqual(len(series), 1248)
        self.assertEqual([s["name"] for s in series], [r["name"] for r in self.rows])
        self.assertEqual([s["value"] for s in series], [r["real_time"] for r in self.rows])
        self.assertEqual({s["unit"] for s in series}, {"ns/iter"})
        self.assertTrue(series[0]["extra"].startswith("iterations: 1\ncpu: "), series[0]["extra"])
        self.assertNotIn("warning", err)
        clean = os.path.join(self.dir, "clean.json")
        code, _, err = run("strict", self.path, "--drop-errors", "-o", clean)
        self.assertEqual(code, 0, err)
        self.assertIn("1248 row(s) kept", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
