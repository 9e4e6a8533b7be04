"""scripts/plot.py on synthetic sweeps.

  python3 test_plot.py Summary   markdown summary only (--no-png): standard library only
  python3 test_plot.py Charts    the PNGs: needs matplotlib; exits 77 (CTest: skipped) without it
  python3 test_plot.py DistinctSeries
                                 no two series of one chart share both color and marker, on a
                                 synthetic sweep of every backend and on the committed sweep:
                                 needs matplotlib; exits 77 without it
"""
import gzip
import json
import os
import re
import struct
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures as fx  # noqa: E402
from script_case import ROOT, TempDirCase  # noqa: E402

PLOT = os.path.join(ROOT, "scripts", "plot.py")
ALL_CHARTS = ["{}_{}.png".format(kind, mode) for mode in ("cold", "hot")
              for kind in ("bandwidth", "speedup_vs_cub", "pct_of_ceiling")]


class Case(TempDirCase):
    PREFIX = "plot_test_"

    def setUp(self):
        super().setUp()
        self.out = os.path.join(self.dir, "out")

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
        self.assertIn("cpu/accumulate_accf64", hot)

    def test_reference_backends_never_win(self):
        # Make ref/read the fastest at every n: it is still not listed as the fastest backend.
        f = self.file("s.json", fx.gpu_sweep(reps=3, rel_noise=0.0, scale={"ref/read": 0.1}))
        self.run_summary(f)
        fastest = self.summary().split("### Speed-up")[0]
        self.assertNotIn("| ref/read |", fastest)

    def test_host_backends_have_no_gpu_ceiling(self):
        f = self.file("s.json", fx.gpu_sweep(reps=3, rel_noise=0.0, scale={"cpu/accumulate_accf64": 0.001}))
        self.run_summary(f, "--mode", "hot")
        row, = self.rows_for_n(self.section("hot").split("### Speed-up")[0], 1024)
        self.assertIn("| cpu/accumulate_accf64 |", row)
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
            rows += fx.rows_for(fx.bench_name("cpu/accumulate", n, "hot"), n, [n / 4.5e3] * 3)
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
            for b in ("cpu/accumulate", "cpu/accumulate_accf64"):
                rows += fx.rows_for(fx.bench_name(b, n, "hot"), n, [n / 4.5e3] * 3)
        code, out = self.plot(self.file("cpu.json", fx.sweep(rows, fx.CPU_CONTEXT)))
        self.assertEqual(code, 0, out)
        self.assertEqual(self.charts(), ["bandwidth_hot.png"])

    def test_hot_subtitle_bounds_the_l2_residency(self):
        # The hot charts reach 2^30 floats, far past a 60 MiB L2: "cache-resident" was false there.
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import plot  # noqa: E402
        import matplotlib.pyplot as plt
        titles = {}
        for context in (fx.H200_CONTEXT, fx.CPU_CONTEXT):
            sweep = plot.read_sweeps([self.file("s.json", fx.gpu_sweep(reps=3, context=context))])
            for name, fig in plot.build_charts(sweep, plot.MODES, sweep.backends):
                suptitle = getattr(fig, "_suptitle", None)  # a figure of several panels
                titles[context["host_name"], name] = " ".join(
                    [ax.get_title() for ax in fig.axes] + ([suptitle.get_text()] if suptitle else []))
                plt.close(fig)
        hot = titles["h200-runner", "bandwidth_hot.png"]
        self.assertIn("hot (not flushed: L2-resident only while the input fits in the 60 MiB L2)", hot)
        self.assertIn("cache-resident only while the input fits in cache", titles["ci", "bandwidth_hot.png"])
        self.assertIn("cold (L2 flushed before each sample)", titles["h200-runner", "bandwidth_cold.png"])
        self.assertFalse([k for k, t in titles.items() if "(cache-resident)" in t])

    def test_many_backends_get_distinct_styles(self):
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import plot  # noqa: E402
        names = ["b{}".format(i) for i in range(25)] + ["ref/read"]
        st = plot.styles(names)
        self.assertNotIn("ref/read", st)
        combos = {(s["color"], s["marker"], s["linestyle"]) for s in st.values()}
        self.assertEqual(len(combos), 25)


# Every backend name of a real sweep: results/h200/checks/every_call/readme.json.gz (GPU rows and
# cpu/* rows), plus the rows only some builds have (CCCL's environment API, TBB's std::reduce).
# The file's names are added at run time too, so a new backend is covered once it is measured.
REAL_BACKENDS = [
    "cpu/accumulate", "cpu/accumulate_accf64", "cpu/avx2", "cpu/avx2/openmp", "cpu/avx2/threads",
    "cpu/avx2_accf64", "cpu/avx2_accf64/openmp", "cpu/avx2_accf64/threads", "cpu/avx2_kahan", "cpu/avx2_kahan/threads",
    "cpu/avx512", "cpu/avx512/threads", "cpu/avx512_accf64", "cpu/avx512_accf64/threads", "cpu/avx512_kahan",
    "cpu/avx512_kahan/threads", "cpu/unrolled8", "cpu/unrolled8_accf64", "cub", "cuda/auto", "cuda/onepass",
    "cuda/onepass_accf64", "cuda/shfl", "cuda/vec4", "cuda/vec4_ilp4", "nccl/cub", "nccl/onepass",
    "nccl/onepass/reduce", "ref/cpu_read", "ref/launch", "ref/read", "thrust/reduce", "thrust/reduce_cached",
    "torch/sum", "triton/onepass", "triton/two_pass",
]
SOMETIMES_BACKENDS = ["cub/run_to_run", "cub/not_guaranteed", "cub/gpu_to_gpu", "cpu/avx2/std_par",
                      "cpu/std_reduce_par", "cpu/std_reduce_par_unseq"]
# Names outside plot.py's style table (the examples' kernels, a new library): the fallback styles.
UNKNOWN_BACKENDS = ["cuda/my_kernel", "cpu/my_kernel", "cpu/my_sum", "cupy/sum", "jax/sum", "kokkos/reduce"]
EVERY_CALL = os.path.join(ROOT, "results", "h200", "checks", "every_call", "readme.json.gz")
BASELINE_JSON = os.path.join(ROOT, "results", "h200", "baseline.json.gz")
MAIN = ("^(cub|cuda/onepass|cuda/vec4|triton/onepass|torch/sum|thrust/reduce|ref/read|ref/cpu_read|"
        "cpu/avx512_f32/threads|cpu/accumulate_f32)$")  # results/h200/README.md's MAIN, the sweep's own names


def measured_backends(path):
    """The <backend> of every <backend>/<n>/<mode> row of a (gzipped) sweep JSON."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    out = set()
    for row in doc.get("benchmarks", []):
        m = re.match(r"^(.+)/(\d+)/(cold|hot)(/|$)", row.get("run_name", row.get("name", "")))
        if m:
            out.add(m.group(1))
    return out


def clashes(figure_rows):
    """What makes a chart's series hard to tell apart; [] when nothing does.

    figure_rows: per axes of one figure, [(label, color, marker, linestyle), ...] (plot.series_styles).
    Fails: two labels with the same (color, marker) anywhere in the figure; one label drawn in two
    styles; and, in an axes of at most 20 series, two series (lines with markers) sharing a color
    or a marker, or a reference line (no marker) sharing a color with another line."""
    problems = []
    style_of, label_of = {}, {}
    for rows in figure_rows:
        for label, color, marker, linestyle in rows:
            style = (color.lower(), marker, linestyle)
            if style_of.setdefault(label, style) != style:
                problems.append("{} drawn as {} and as {}".format(label, style_of[label], style))
            other = label_of.setdefault((color.lower(), marker), label)
            if other != label:
                problems.append("{} and {} share color {} and marker {}".format(other, label, color, marker))
    for rows in figure_rows:
        if len(rows) > 20:
            continue
        marked = [r for r in rows if r[2] != "None"]
        for what, key in (("color", 1), ("marker", 2)):
            seen = {}
            for r in marked:
                v = r[key].lower() if key == 1 else r[key]  # markers "p" and "P" differ
                if seen.setdefault(v, r[0]) != r[0]:
                    problems.append("{} and {} share {} {} in one axes".format(seen[v], r[0], what, r[key]))
        colors = [r[1].lower() for r in rows]
        for r in rows:
            if r[2] == "None" and colors.count(r[1].lower()) > 1:
                problems.append("reference line {} shares its color {} in one axes".format(r[0], r[1]))
    return problems


class DistinctSeries(Case):
    """Every chart's series can be told apart: the matplotlib artists of the figures plot.py draws."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import plot
        cls.plot = plot

    def figures(self, path, regex=None):
        """[(file name, per-axes rows)] of every chart plot.py draws for the sweep at path."""
        import matplotlib.pyplot as plt
        sweep = self.plot.read_sweeps([path])
        pattern = re.compile(regex) if regex else None

        def selected(mode):
            return [b for b in sweep.backends(mode) if pattern is None or pattern.search(b)]

        out = []
        for name, fig in self.plot.build_charts(sweep, self.plot.MODES, selected):
            out.append((name, self.plot.series_styles(fig)))
            plt.close(fig)
        return out

    def assertDistinct(self, figures):
        self.assertTrue(figures)
        for name, rows in figures:
            self.assertTrue(any(rows), name)
            self.assertEqual(clashes(rows), [], name)

    def synthetic_names(self):
        names = set(REAL_BACKENDS + SOMETIMES_BACKENDS + UNKNOWN_BACKENDS)
        if os.path.exists(EVERY_CALL):  # measured before the rows' renames: read as the rows are named now
            from renames import read_renames, renamed  # scripts/, on the path from setUpClass
            renames, _ = read_renames()
            names |= {renamed(b, renames) for b in measured_backends(EVERY_CALL)}
        return sorted(names)

    def synthetic(self):
        """A sweep with every backend: GPU rows cold and hot, cpu/* rows hot (as reduce_bench runs)."""
        rows = []
        for i, b in enumerate(self.synthetic_names()):
            for n in fx.SIZES:
                for mode in (("hot",) if b.startswith("cpu/") else ("cold", "hot")):
                    t = 3.0 + 0.37 * i + 4.0 * n / ((1000.0 + 97.0 * i) * 1e3)
                    rows += fx.rows_for(fx.bench_name(b, n, mode), n, [t, t * 1.01, t * 0.99])
        return self.file("all.json", fx.sweep(rows))

    def test_the_check_catches_shared_styles(self):
        ok = [[("cub", "#000000", "None", "-"), ("cuda/onepass", "#1f77b4", "o", "-"),
               ("torch/sum", "#ff7f0e", "s", "--"), ("ref/read (read ceiling)", "#7f7f7f", "None", "--")]]
        self.assertEqual(clashes(ok), [])
        # The bug this guards against: 10 colors and 10 markers cycled together, so series 1 and 11
        # (cub and thrust/reduce, cuda/onepass and torch/sum) differ only in line style.
        same = [[("cub", "#bcbd22", ">", "--"), ("thrust/reduce", "#BCBD22", ">", "-.")]]
        self.assertTrue(any("share color" in p for p in clashes(same)), clashes(same))
        # ... also when the two sit in different panels of one figure.
        panels = [[("cuda/onepass", "#1f77b4", "o", "-")], [("torch/sum", "#1f77b4", "o", "--")]]
        self.assertTrue(clashes(panels))
        # One backend, two styles in one figure.
        self.assertTrue(clashes([[("cub", "#000000", "None", "-")], [("cub", "#000000", "o", "-")]]))
        # A small axes: a shared color alone (or a shared marker alone) is already too close.
        self.assertTrue(clashes([[("a", "#1f77b4", "o", "-"), ("b", "#1f77b4", "s", "-")]]))
        self.assertTrue(clashes([[("a", "#1f77b4", "o", "-"), ("b", "#ff7f0e", "o", "-")]]))
        # The styles plot.styles gave with the old cycle, fed through the same check: caught.
        old = [[(b, c, m, "-") for b, c, m in zip(
            ["b{}".format(i) for i in range(17)],
            ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
             "#17becf"] * 2, ["o", "s", "^", "D", "v", "P", "X", "<", ">", "*"] * 2)]]
        self.assertEqual(len([p for p in clashes(old) if "share color" in p and "and marker" in p]), 7)

    def test_style_table(self):
        plot = self.plot
        pairs = [(c.lower(), m) for c, m in plot.STYLE_TABLE.values()]
        self.assertEqual(len(pairs), len(set(pairs)))
        reserved = {c.lower() for c in plot.RESERVED_COLORS}
        by_family = {}
        for b, (c, m) in plot.STYLE_TABLE.items():
            self.assertNotIn(c.lower(), reserved, b)
            by_family.setdefault(plot.family(b), []).append((c.lower(), m))
        for fam, styles in by_family.items():
            self.assertEqual(len({c for c, _ in styles}), len(styles), fam)
            self.assertEqual(len({m for _, m in styles}), len(styles), fam)
        self.assertTrue(set(REAL_BACKENDS + SOMETIMES_BACKENDS) - {"cub"} - {b for b in REAL_BACKENDS
                                                                          if b.startswith("ref/")}
                        <= set(plot.STYLE_TABLE))

    def test_styles_are_fixed_per_backend(self):
        names = self.synthetic_names()
        full = self.plot.styles(names)
        self.assertFalse([b for b in full if b.startswith("ref/")])
        for subset in (["cub", "cuda/onepass"], [b for b in names if b.startswith("cpu/")], names[::3]):
            part = self.plot.styles(subset)
            for b in part:
                if b in self.plot.STYLE_TABLE or b == "cub":
                    self.assertEqual(part[b], full[b], b)
        self.assertEqual(self.plot.styles(names), full)  # deterministic
        # Many unknown names beside every known one: still no shared (color, marker).
        many = self.plot.styles(names + ["lib{}/sum".format(i) for i in range(120)])
        pairs = [(s["color"], s["marker"]) for s in many.values()]
        self.assertEqual(len(pairs), len(set(pairs)))

    def test_synthetic_sweep_of_every_backend(self):
        names = self.synthetic_names()
        drawn = [b for b in names if not b.startswith("ref/")]
        self.assertGreaterEqual(len(drawn), 20)
        figures = self.figures(self.synthetic())
        self.assertEqual(sorted(n for n, _ in figures), sorted(ALL_CHARTS))
        self.assertDistinct(figures)
        labels = {r[0] for name, rows in figures if name == "bandwidth_hot.png" for axes in rows for r in axes}
        self.assertLessEqual(set(drawn), labels)
        # One style per backend across every chart and mode.
        seen = {}
        for name, rows in figures:
            for label, color, marker, linestyle in (r for axes in rows for r in axes):
                self.assertEqual(seen.setdefault(label, (color, marker, linestyle)), (color, marker, linestyle),
                                 "{} in {}".format(label, name))

    def test_committed_sweep(self):
        if not os.path.exists(BASELINE_JSON):
            self.skipTest("no " + BASELINE_JSON)
        self.assertDistinct(self.figures(BASELINE_JSON))
        self.assertDistinct(self.figures(BASELINE_JSON, MAIN))  # results/h200/main/: one axes


if __name__ == "__main__":
    wanted = sys.argv[1:]
    if any(w.startswith(("Charts", "DistinctSeries")) for w in wanted):
        try:
            import matplotlib  # noqa: F401
        except ImportError as e:
            print("skipped: matplotlib not importable by {}: {}".format(sys.executable, e))
            sys.exit(77)
    unittest.main(verbosity=2)
