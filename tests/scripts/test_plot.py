"""scripts/plot.py on synthetic sweeps.

  python3 test_plot.py Summary   markdown summary only (--no-png): standard library only
  python3 test_plot.py Charts    the PNGs: needs matplotlib; exits 77 (CTest: skipped) without it
"""
import os
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixtures as fx  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
PLOT = os.path.join(ROOT, "scripts", "plot.py")
ALL_CHARTS = ["{}_{}.png".format(kind, mode) for mode in ("cold", "hot")
              for kind in ("bandwidth", "speedup_vs_cub", "pct_of_ceiling")]


class Case(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="plot_test_")
        self.dir = self._tmp.name
        self.out = os.path.join(self.dir, "out")

    def tearDown(self):
        self._tmp.cleanup()

    def file(self, name, doc):
        return fx.write(os.path.join(self.dir, name), doc)

    def plot(self, *args, python=(sys.executable,)):
        p = subprocess.run(list(python) + [PLOT, "--out-dir", self.out] + list(args),
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    def summary(self):
        with open(os.path.join(self.out, "summary.md"), encoding="utf-8") as f:
            return f.read()

    def section(self, mode):
        text = self.summary()
        start = text.index("## " + mode + "\n")
        end = text.find("\n## ", start + 1)
        return text[start:] if end < 0 else text[start:end]

    def rows_for_n(self, text, n):
        return [l for l in text.splitlines() if l.startswith("| {:,} ".format(n))]


class Summary(Case):
    def run_summary(self, *args):
        code, out = self.plot("--no-png", *args)
        self.assertEqual(code, 0, out)
        return out

    def test_fastest_and_speedup_tables(self):
        # Noise-free model: cuda/onepass has the lowest latency (3.9 us vs cub's 6.4 us), cub the
        # highest bandwidth (4640 vs 4600 GB/s), so cub wins at 2^30.
        f = self.file("s.json", fx.gpu_sweep(reps=5, rel_noise=0.0))
        self.run_summary(f)
        cold = self.section("cold")
        self.assertIn("### Fastest backend at each n", cold)
        first, = self.rows_for_n(cold.split("### Speed-up")[0], 1024)
        self.assertIn("| cuda/onepass | 3.90 |", first)
        self.assertIn("| 1.64x |", first)  # 6.4 / 3.9
        last, = self.rows_for_n(cold.split("### Speed-up")[0], 1 << 30)
        self.assertIn("| cub |", last)
        self.assertIn("% of ref/read", cold)
        # Speed-up table: columns in backend order, ref/read and cub excluded from the columns.
        self.assertIn("| n | cub (us) | cuda/onepass | cuda/vec4 | thrust |", cold)
        self.assertNotIn("ref/read |", cold.split("### Speed-up")[1].splitlines()[2])
        hot = self.section("hot")
        self.assertIn("cpu/accumulate_f64", hot)

    def test_reference_backends_never_win(self):
        # Make ref/read the fastest at every n: it is still not listed as the fastest backend.
        f = self.file("s.json", fx.gpu_sweep(reps=3, rel_noise=0.0, scale={"ref/read": 0.1}))
        self.run_summary(f)
        fastest = self.summary().split("### Speed-up")[0]
        self.assertNotIn("| ref/read |", fastest)

    def test_host_backends_have_no_gpu_ceiling(self):
        f = self.file("s.json", fx.gpu_sweep(reps=3, rel_noise=0.0, scale={"cpu/accumulate_f64": 0.001}))
        self.run_summary(f, "--mode", "hot")
        row, = self.rows_for_n(self.section("hot").split("### Speed-up")[0], 1024)
        self.assertIn("| cpu/accumulate_f64 |", row)
        self.assertIn("| - |", row)  # no % of ref/read for a host backend

    def test_mode_option(self):
        self.run_summary(self.file("s.json", fx.gpu_sweep(reps=3)), "--mode", "hot")
        self.assertNotIn("## cold", self.summary())
        self.assertIn("## hot", self.summary())

    def test_backends_option_keeps_cub_as_reference(self):
        self.run_summary(self.file("s.json", fx.gpu_sweep(reps=3, rel_noise=0.0)), "--backends", "^cuda/")
        text = self.summary()
        self.assertNotIn("thrust", text)
        self.assertIn("| n | cub (us) | cuda/onepass | cuda/vec4 |", text)

    def test_without_cub(self):
        f = self.file("s.json", fx.gpu_sweep(reps=3, backends=["cuda/onepass", "thrust", "ref/read"]))
        out = self.run_summary(f)
        self.assertNotIn("### Speed-up", self.summary())
        self.assertNotIn("vs cub |", self.summary())
        self.assertIn("no `cub` results in cold mode", self.summary())
        self.assertIn("no `cub` results", out)

    def test_theoretical_peak_when_no_ref_read(self):
        f = self.file("s.json", fx.gpu_sweep(reps=3, backends=["cub", "cuda/onepass"]))
        self.run_summary(f)
        self.assertIn("% of peak", self.summary())
        self.assertIn("theoretical peak 4814 GB/s", self.summary())

    def test_cpu_only(self):
        rows = []
        for n in (1024, 4096):
            rows += fx.rows_for(fx.bench_name("cpu/accumulate_f32", n, "hot"), n, [n / 4.5e3] * 3)
        self.run_summary(self.file("cpu.json", fx.sweep(rows, fx.CPU_CONTEXT)))
        text = self.summary()
        self.assertIn("host ci (no GPU)", text)
        self.assertIn("No cold results.", text)
        self.assertIn("no `ref/read` results and no gpu_peak_bandwidth_GBps", text)

    def test_errors_are_listed_not_tabulated(self):
        doc = fx.gpu_sweep(reps=3, backends=["cub"], cpu=False)
        doc["benchmarks"] += fx.rows_for(fx.bench_name("cuda/onepass", 1024, "cold"), 1024, [3.0] * 3,
                                         error="sum off the reference by 12 ulp")
        self.run_summary(self.file("e.json", doc))
        text = self.summary()
        self.assertIn("## Errors and skips", text)
        self.assertIn("`cuda/onepass/1024/cold/manual_time` error: sum off the reference", text)
        self.assertNotIn("| cuda/onepass |", text)

    def test_1_8_skips_and_aggregates_only(self):
        rows = fx.rows_for(fx.bench_name("cub", 1024, "cold"), 1024, [6.0, 6.4, 6.2], "1.8.3",
                           aggregates_only=True)
        rows += fx.rows_for(fx.bench_name("cub", 1 << 31, "cold"), 1 << 31, [1.0], "1.8.3",
                            skip="needs 8.6 GB of device memory")
        self.run_summary(self.file("a.json", fx.sweep(rows, version="1.8.3")))
        text = self.summary()
        row, = self.rows_for_n(text, 1024)
        self.assertIn("| cub | 6.20 |", row)  # the median aggregate
        self.assertIn("skipped: needs 8.6 GB", text)

    def test_several_files_pool_repetitions(self):
        name = fx.bench_name("cub", 1024, "cold")
        a = self.file("a.json", fx.sweep(fx.rows_for(name, 1024, [5.0, 6.0, 7.0])))
        b = self.file("b.json", fx.sweep(fx.rows_for(name, 1024, [8.0, 9.0, 10.0, 11.0])))
        self.run_summary(a, b)
        row, = self.rows_for_n(self.summary(), 1024)
        self.assertIn("| cub | 8.00 |", row)  # median of the 7 pooled values
        self.assertIn("median over 7 repetitions", self.summary())

    def test_bad_input(self):
        bad = os.path.join(self.dir, "bad.json")
        with open(bad, "w") as f:
            f.write("{")
        code, out = self.plot("--no-png", bad)
        self.assertEqual(code, 2, out)
        code, out = self.plot("--no-png", os.path.join(self.dir, "missing.json"))
        self.assertEqual(code, 2, out)
        code, out = self.plot("--no-png", self.file("x.json", fx.sweep([])))
        self.assertEqual(code, 2, out)

    def test_missing_matplotlib_still_writes_the_summary(self):
        # -S -I: no site-packages, so no matplotlib whatever the interpreter has installed.
        f = self.file("s.json", fx.gpu_sweep(reps=3))
        code, out = self.plot(f, python=(sys.executable, "-S", "-I"))
        self.assertEqual(code, 3, out)
        self.assertIn("matplotlib", out)
        self.assertIn("## cold", self.summary())
        self.assertFalse(any(n.endswith(".png") for n in os.listdir(self.out)))


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


class Charts(Case):
    def charts(self):
        return sorted(n for n in os.listdir(self.out) if n.endswith(".png"))

    def test_all_charts_for_a_gpu_sweep(self):
        for version in ("1.7.1", "1.8.3"):
            code, out = self.plot(self.file("s.json", fx.gpu_sweep(version=version, reps=5)))
            self.assertEqual(code, 0, out)
            self.assertEqual(self.charts(), sorted(ALL_CHARTS))
            for name in ALL_CHARTS:
                size = png_size(os.path.join(self.out, name))
                self.assertIsNotNone(size, name)
                self.assertGreater(size[0], 600, name)
                self.assertGreater(size[1], 400, name)

    def test_one_mode(self):
        code, out = self.plot(self.file("s.json", fx.gpu_sweep(reps=3)), "--mode", "cold")
        self.assertEqual(code, 0, out)
        self.assertEqual(self.charts(), ["bandwidth_cold.png", "pct_of_ceiling_cold.png", "speedup_vs_cub_cold.png"])

    def test_without_cub_no_speedup_chart(self):
        f = self.file("s.json", fx.gpu_sweep(reps=3, backends=["cuda/onepass", "ref/read"]))
        code, out = self.plot(f)
        self.assertEqual(code, 0, out)
        self.assertFalse(any(n.startswith("speedup") for n in self.charts()))
        self.assertIn("pct_of_ceiling_cold.png", self.charts())

    def test_cpu_only(self):
        rows = []
        for n in (1024, 4096, 16384):
            for b in ("cpu/accumulate_f32", "cpu/accumulate_f64"):
                rows += fx.rows_for(fx.bench_name(b, n, "hot"), n, [n / 4.5e3] * 3)
        code, out = self.plot(self.file("cpu.json", fx.sweep(rows, fx.CPU_CONTEXT)))
        self.assertEqual(code, 0, out)
        self.assertEqual(self.charts(), ["bandwidth_hot.png"])

    def test_many_backends_get_distinct_styles(self):
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import plot  # noqa: E402
        names = ["b{}".format(i) for i in range(25)] + ["ref/read"]
        st = plot.styles(names)
        self.assertNotIn("ref/read", st)
        combos = {(s["color"], s["marker"], s["linestyle"]) for s in st.values()}
        self.assertEqual(len(combos), 25)


if __name__ == "__main__":
    wanted = sys.argv[1:]
    if any(w.startswith("Charts") for w in wanted):
        try:
            import matplotlib  # noqa: F401
        except ImportError as e:
            print("skipped: matplotlib not importable by {}: {}".format(sys.executable, e))
            sys.exit(77)
    unittest.main(verbosity=2)
