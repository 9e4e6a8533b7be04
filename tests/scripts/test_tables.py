"""The table generators on synthetic sweeps: bench_json.py's readers, kernel_table.py,
cpu_summary.py, tuning_history.py (on a fixture tree, and on a throw-away git repository when git
is installed: no history of this repository is needed).

Run one class:  python3 test_tables.py TuningHistory   (CTest runs each class as its own test)
Standard library only.
"""
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixtures as fx  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(ROOT, "scripts")
sys.path.insert(0, SCRIPTS)
import bench_json  # noqa: E402
import tuning_history  # noqa: E402

KERNEL_TABLE = os.path.join(SCRIPTS, "kernel_table.py")
CCCL_TABLE = os.path.join(SCRIPTS, "cccl_table.py")
CPU_SUMMARY = os.path.join(SCRIPTS, "cpu_summary.py")
TUNING_HISTORY = os.path.join(SCRIPTS, "tuning_history.py")
RULE_CHECK = os.path.join(SCRIPTS, "rule_check.py")


def run(*args, cwd=None):
    p = subprocess.run([sys.executable] + list(args), capture_output=True, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


class Case(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="tables_test_")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def file(self, name, doc):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return fx.write(path, doc)


def kernel_rows(backends, sizes=(1 << 20, 1 << 24, 1 << 28, 1 << 30), reps=3):
    rows = []
    for b in backends:
        for n in sizes:
            t = fx.model_time(b if b in fx.GPU_MODEL else "cuda/vec4", n, "cold")
            rows += fx.rows_for(fx.bench_name(b, n, "cold"), n, [t, t * 1.01, t * 0.99][:reps])
    return rows


class BenchJson(Case):
    def test_loads_matches_load(self):
        doc = fx.gpu_sweep(reps=3)
        path = self.file("a.json", doc)
        _, from_file = bench_json.load(path)
        with open(path, "rb") as f:
            _, from_bytes = bench_json.loads(f.read(), path)
        self.assertEqual(list(from_file), list(from_bytes))
        name = next(iter(from_file))
        self.assertEqual(from_file[name].samples, from_bytes[name].samples)
        self.assertEqual(len(from_file[name].reps), 3)
        self.assertEqual(len(from_file[name].rep_counters), 3)
        real, cpu, bps = from_file[name].reps[0]
        self.assertAlmostEqual(cpu, real * 1.01)  # fixtures: cpu_time = 1.01 real_time
        self.assertGreater(bps, 0)

    def test_loads_bad_input(self):
        with self.assertRaises(bench_json.BadInput):
            bench_json.loads(b"not json", "x")
        with self.assertRaises(bench_json.BadInput):
            bench_json.loads("{}", "x")

    def test_console(self):
        text = "\n".join([
            "Benchmark            Time             CPU   Iterations UserCounters...",
            "cub/1024/cold/manual_time_mean        4.50 us    100 us   5 bytes_per_second=1Gi/s",
            "cub/1024/cold/manual_time_median      4.47 us    100 us   5 bytes_per_second=1Gi/s",
            "cub/1024/cold/manual_time_stddev     0.011 us  0.254 us   5 bytes_per_second=1Gi/s",
            "cub/1024/cold/manual_time_cv          0.17 %     0.25 %   5 bytes_per_second=0.17%",
            "ref/read/1024/cold/manual_time        3.91 us    100 us 400 n=1.024k",
            "tune/cluster/t256_u4/1048576/cold/manual_time   ERROR OCCURRED: 'skipped: too large'",
            "cuda/x/1024/cold/manual_time   ERROR OCCURRED: 'sum 1 differs from 2'",
            "reduce_bench: 2 measured, 1 skipped, 1 failed",
        ])
        _, benches = bench_json.loads_console(text, "tune.log")
        self.assertEqual(benches["cub/1024/cold/manual_time"].median(), 4.47)
        self.assertEqual(benches["ref/read/1024/cold/manual_time"].samples, [3.91])
        self.assertEqual(benches["tune/cluster/t256_u4/1048576/cold/manual_time"].skips, ["skipped: too large"])
        self.assertEqual(benches["cuda/x/1024/cold/manual_time"].errors, ["sum 1 differs from 2"])
        with self.assertRaises(bench_json.BadInput):
            bench_json.loads_console("nothing here", "empty.log")

    def test_ordered_backends(self):
        given = ["cuda/b", "cub", "cuda/a", "cuda/c"]
        self.assertEqual(bench_json.ordered_backends({}, given), given)
        self.assertEqual(bench_json.ordered_backends({"backends": "cuda/a, cuda/b,cub"}, given),
                         ["cuda/a", "cuda/b", "cub", "cuda/c"])


class KernelTable(Case):
    def header(self, out):
        return next(l for l in out.splitlines() if l.startswith("| n |"))

    def test_first_appearance_order(self):
        path = self.file("k.json", fx.sweep(kernel_rows(["cuda/vec4", "cub", "cuda/onepass", "ref/read",
                                                          "cuda/zeta"])))
        code, out, err = run(KERNEL_TABLE, path)
        self.assertEqual(code, 0, err)
        self.assertEqual(self.header(out), "| n | cub | vec4 | onepass | zeta | ref/read |")
        self.assertIn("## cuda/onepass against the targets", out)
        self.assertIn("≥ 1.0× CUB at every size", out)

    def test_context_backends_order(self):
        ctx = dict(fx.H200_CONTEXT, backends="cub,cuda/onepass,cuda/zeta,cuda/vec4,ref/launch,ref/read")
        rows = kernel_rows(["cuda/vec4", "cub", "cuda/onepass", "ref/read", "ref/launch", "cuda/zeta"])
        path = self.file("k.json", fx.sweep(rows, context=ctx))
        out_path = os.path.join(self.dir, "summary.md")
        code, out, err = run(KERNEL_TABLE, path, "--out", out_path)
        self.assertEqual(code, 0, err)
        with open(out_path, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(self.header(text), "| n | cub | onepass | zeta | vec4 | ref/read |")
        self.assertIn("ref/launch + 4n", text)  # ref/launch and ref/read at 2^30 present

    def test_no_kernels(self):
        path = self.file("k.json", fx.sweep(kernel_rows(["cub", "ref/read"])))
        code, _, err = run(KERNEL_TABLE, path)
        self.assertEqual(code, 2)
        self.assertIn("no cold cuda/* rows", err)


class CcclTable(Case):
    """Two sweeps (toolkit CCCL, newer CCCL): times, ratios to the old cub, verification and the
    repeatable counter per row."""

    def rows(self, backends, times, repeatable=None, errors=()):
        out = []
        for b, t in zip(backends, times):
            for n in (1 << 10, 1 << 20):
                name = fx.bench_name(b, n, "cold")
                if (b, n) in errors:
                    out += fx.rows_for(name, n, [t], error="determinism check failed: ...")
                    continue
                r = fx.rows_for(name, n, [t], aggregates=False)
                r[0]["median_us"] = t
                r[0]["repeatable"] = 0.0 if repeatable and (b, n) in repeatable else 1.0
                out += r
        return out

    def test_table(self):
        old_ctx = dict(fx.H200_CONTEXT, cccl_version="3.0.1", cccl="CCCL 3.0.1 from the CUDA toolkit",
                       determinism="cub=run_to_run")
        new_ctx = dict(fx.H200_CONTEXT, cccl_version="3.4.2", cccl="CCCL 3.4.2 from cccl.tar.gz",
                       determinism="cub=run_to_run,cub/not_guaranteed=not_guaranteed,cub/gpu_to_gpu=gpu_to_gpu")
        old = self.file("old.json", fx.sweep(self.rows(["cub"], [10.0]), context=old_ctx))
        new_rows = self.rows(["cub", "cub/run_to_run", "cub/not_guaranteed", "cub/gpu_to_gpu", "cuda/onepass"],
                             [9.0, 9.5, 5.0, 20.0, 4.0], repeatable={("cub/not_guaranteed", 1 << 20)},
                             errors={("cub/gpu_to_gpu", 1 << 10)})
        new = self.file("new.json", fx.sweep(new_rows, context=new_ctx))
        code, out, err = run(CCCL_TABLE, old, new)
        self.assertEqual(code, 0, err)
        self.assertIn("| n | cub 3.0.1 | cub 3.4.2 | cub/run_to_run | cub/not_guaranteed | cub/gpu_to_gpu | cuda/onepass |", out)
        line = next(l for l in out.splitlines() if l.startswith("| 2^20 |"))
        self.assertIn("10.0 µs", line)
        self.assertIn("4.0 µs (1049 GB/s, 2.50×)", line)
        self.assertIn("| cub/not_guaranteed | 2 of 2 | 1 of 2 (differed: 2^20/cold) | not_guaranteed |", out)
        self.assertIn("| cub/gpu_to_gpu | 1 of 2 (failed: 2^10/cold) | 1 of 1 | gpu_to_gpu |", out)
        self.assertIn("| cub 3.0.1 | 2 of 2 | 2 of 2 | run_to_run |", out)

    def test_no_rows(self):
        empty = self.file("e.json", fx.sweep(self.rows(["cpu/accumulate_f32"], [1.0])))
        code, _, err = run(CCCL_TABLE, empty, empty)
        self.assertEqual(code, 2)
        self.assertIn("no cold cub", err)


class CpuSummary(Case):
    def cpu_rows(self, backend, n, gbps, threads=1, cpu_share=1.0, reps=5):
        rows = []
        t = 4.0 * n / (gbps * 1e3)
        for r in fx.rows_for(fx.bench_name(backend, n, "hot"), n, [t] * reps):
            if r["run_type"] == "iteration":
                r["threads"] = float(threads)
                r["cpu_time"] = r["real_time"] * cpu_share
            rows.append(r)
        return rows

    def test_table_and_checks(self):
        big, mid = 1 << 28, 1 << 20
        rows = (self.cpu_rows("cpu/avx2_f32", mid, 20.0) + self.cpu_rows("cpu/accumulate_f32", mid, 5.0)
                + self.cpu_rows("cpu/avx2_f32/threads", big, 30.0, threads=2)
                + self.cpu_rows("cpu/avx2_kahan/threads", big, 29.0, threads=2, cpu_share=0.5)
                + self.cpu_rows("ref/cpu_read", big, 31.0, threads=2)
                + fx.rows_for(fx.bench_name("cub", big, "cold"), big, [20.0, 21.0]))
        path = self.file("cpu.json", fx.sweep(rows, context=fx.CPU_CONTEXT))
        code, out, err = run(CPU_SUMMARY, path)
        self.assertEqual(code, 0, out + err)
        self.assertIn("| cpu/avx2_f32 | 2^20 | 20.00 |", out)
        self.assertIn("| cpu/avx2_kahan/threads | 2^28 | 29.00 | 29.00 | 0/5 (none clean: all used) |", out)
        self.assertNotIn("cub", out.replace("CUB", ""))
        self.assertIn("| cpu/avx2_f32 >= 2 x cpu/accumulate_f32 at 2^20 | 20.00 vs 5.00 | 4.00 | 4.00 | pass |", out)

    def test_miss_and_errors(self):
        mid = 1 << 20
        rows = (self.cpu_rows("cpu/avx2_f32", mid, 6.0) + self.cpu_rows("cpu/accumulate_f32", mid, 5.0)
                + fx.rows_for(fx.bench_name("cpu/x", 1 << 31, "hot"), 1 << 31, [1.0], error="skipped: too large"))
        path = self.file("cpu.json", fx.sweep(rows, context=fx.CPU_CONTEXT))
        code, out, _ = run(CPU_SUMMARY, path)
        self.assertEqual(code, 1)
        self.assertIn("MISS", out)
        self.assertIn("SKIPPED cpu/x/2147483648/hot/manual_time: skipped: too large", out)
        rows += fx.rows_for(fx.bench_name("cpu/y", mid, "hot"), mid, [1.0], error="sum differs")
        path = self.file("cpu2.json", fx.sweep(rows, context=fx.CPU_CONTEXT))
        code, out, _ = run(CPU_SUMMARY, path)
        self.assertIn("FAILED cpu/y/1048576/hot/manual_time: sum differs", out)
        code, _, err = run(CPU_SUMMARY, os.path.join(self.dir, "missing.json"))
        self.assertEqual(code, 2, err)


# The fixture tree for tuning_history.py: every file its sections read, small.
FIXTURE_SIZES = [1 << 20, 1 << 22]
CONTEXT = dict(fx.H200_CONTEXT, l2_flush="cold: read 2x L2 before each iteration")


def fixture_sweep(seed):
    rows = []
    for i, backend in enumerate(["cub", "cuda/onepass", "cuda/onepass_f64", "ref/read", "tune/onepass/t256_u4_b4"]):
        for n in FIXTURE_SIZES:
            base = 5.0 + i + seed + (n >> 20) / 10.0
            rows += fx.rows_for(fx.bench_name(backend, n, "cold"), n, [base, base + 0.1, base + 0.2])
    return fx.sweep(rows, context=CONTEXT)


CONSOLE = ("cub/1048576/cold/manual_time_median      6.27 us   101 us   5 bytes_per_second=1Ti/s\n"
           "tune/onepass/t256_u4_b4/1048576/cold/manual_time_median   5.44 us   101 us   5 n=1M\n")


def write_fixture_tree(root):
    """Every path tuning_history.py reads, with distinct medians per file."""
    paths = []
    for s in tuning_history.SECTIONS:
        paths += [(r["path"], r) for r in s["runs"]]
        paths += [(p, None) for p, _ in s.get("spreads", [])]
        paths += [(p, "text") for p, _, _ in s.get("texts", [])]
    for seed, (path, r) in enumerate(sorted(paths, key=lambda x: x[0])):
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if r == "text":
            with open(full, "w", encoding="utf-8") as f:
                f.write("| a | b |\n|---|---|\n| text of {} | 1 |\n".format(os.path.basename(path)))
        elif r and r["member"]:
            data = CONSOLE.encode()
            with tarfile.open(full, "w:gz") as tar:
                info = tarfile.TarInfo("./" + r["member"])
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        elif not os.path.exists(full):
            fx.write(full, fixture_sweep(seed % 7))


class TuningHistory(Case):
    def page(self, *args):
        code, out, err = run(TUNING_HISTORY, *args)
        self.assertEqual(code, 0, err)
        return out

    def test_page_from_tree(self):
        tree = os.path.join(self.dir, "tree")
        write_fixture_tree(tree)
        out_path = os.path.join(self.dir, "tuning.md")
        code, _, err = run(TUNING_HISTORY, "--tree", tree, "--out", out_path)
        self.assertEqual(code, 0, err)
        with open(out_path, encoding="utf-8") as f:
            text = f.read()
        # The anchors kernels/ cites, exactly so, each once.
        for anchor in ["round-%d" % k for k in range(1, 17)] + ["shapes-grid", "batch16", "spillfree"]:
            self.assertEqual(text.count('<a id="{}"></a>'.format(anchor)), 1, anchor)
        self.assertIn("Generated by `scripts/tuning_history.py --tree {} --out {}`".format(tree, out_path), text)
        # Round 2 comes from the console log inside logs.tgz, three significant figures.
        round2 = text[text.index('<a id="round-2">'):text.index('<a id="round-3">')]
        self.assertIn("| cub | 6.27 |", round2)
        self.assertIn("| tune/onepass/t256_u4_b4 | **5.44** |", round2)
        # A JSON round: medians per backend and n, the fastest non-ref row bold.
        round9 = text[text.index('<a id="round-9">'):text.index('<a id="round-10">')]
        self.assertRegex(round9, r"\| cub \| \*\*\d+\.\d\d\*\* \| \*\*\d+\.\d\d\*\* \|")
        self.assertIn("| backend | 2^20 | 2^22 |", round9)
        self.assertIn("**Kept:**", round9)
        # Two files in one table: rows labelled by their file.
        batch16 = text[text.index('<a id="batch16">'):text.index('<a id="spillfree">')]
        self.assertIn("| cuda/onepass (two batches of 8) |", batch16)
        self.assertIn("| cuda/onepass (one batch of 16) |", batch16)
        self.assertNotIn("tune/onepass", batch16)  # the section's row filter
        # Text files quoted.
        self.assertIn("| text of ncu_pipes.md | 1 |", text)
        # Deterministic: the same inputs give the same bytes.
        again = self.page("--tree", tree, "--out", out_path)
        self.assertEqual(again, "")
        with open(out_path, encoding="utf-8") as f:
            self.assertEqual(f.read(), text)

    def test_missing_file(self):
        tree = os.path.join(self.dir, "tree")
        write_fixture_tree(tree)
        os.remove(os.path.join(tree, "results/h200/diagnose/16_early/tune.json"))
        code, _, err = run(TUNING_HISTORY, "--tree", tree)
        self.assertEqual(code, 2)
        self.assertIn("16_early/tune.json", err)

    def test_table_and_spread(self):
        path = self.file("tune.json", fixture_sweep(0))
        out = self.page("--table", path)
        self.assertIn("| backend | 2^20 | 2^22 |", out)
        self.assertIn("| cub | **5.20** | **5.50** |", out)
        out = self.page("--spread", path)
        self.assertIn("| `tune.json` | cub 2^20 cold | 3 | 5.20 | 5.10 | 5.30 |", out)

    @unittest.skipIf(shutil.which("git") is None, "git not installed")
    def test_page_from_git(self):
        repo = os.path.join(self.dir, "repo")
        write_fixture_tree(repo)

        def git(*args):
            subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main",
                            "-c", "commit.gpgsign=false"] + list(args), cwd=repo, check=True, capture_output=True)

        git("init", "-q")
        git("add", "-A")
        git("commit", "-q", "-m", "fixture")
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
        shutil.rmtree(os.path.join(repo, "results"))  # read from the commit, not the work tree
        # The page pins one source to a commit of this repository's history; the throw-away
        # repository has only its own, so read every source at --commit here.
        code = ("import sys; sys.path.insert(0, {!r}); import tuning_history as t\n"
                "for s in t.SECTIONS:\n"
                "    for r in s['runs']: r['rev'] = None\n"
                "sys.exit(t.main(sys.argv[1:]))\n").format(SCRIPTS)
        p = subprocess.run([sys.executable, "-c", code, "--commit", sha[:10]], cwd=repo, capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        tree = os.path.join(self.dir, "tree")
        write_fixture_tree(tree)
        from_tree = self.page("--tree", tree)
        self.assertIn("Generated by `scripts/tuning_history.py --commit {}`".format(sha), p.stdout)
        self.assertEqual(p.stdout.split("\n", 3)[3], from_tree.split("\n", 3)[3])
        p = subprocess.run([sys.executable, TUNING_HISTORY, "--commit", "0" * 40], cwd=repo, capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 2)


class CommittedPage(unittest.TestCase):
    """results/h200/tuning.md has every anchor kernels/ cites; where the commit its header names is
    in this clone (CI clones may be shallow), regenerating it gives the same bytes."""

    def test_committed_page(self):
        path = os.path.join(ROOT, "results", "h200", "tuning.md")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for anchor in ["round-%d" % k for k in range(1, 17)] + ["shapes-grid", "batch16", "spillfree"]:
            self.assertEqual(text.count('<a id="{}"></a>'.format(anchor)), 1, anchor)
        m = re.search(r"Generated by `scripts/tuning_history\.py --commit ([0-9a-f]{40}) --out ([^`]+)`", text)
        self.assertIsNotNone(m, "the header names the command")
        sha = m.group(1)
        have = shutil.which("git") and subprocess.run(
            ["git", "cat-file", "-e", sha + "^{commit}"], cwd=ROOT, capture_output=True).returncode == 0
        if not have:
            print("commit {} not in this clone: anchors checked, page not regenerated".format(sha))
            return
        code, out, err = run(TUNING_HISTORY, "--commit", sha, cwd=ROOT)
        self.assertEqual(code, 0, err)
        self.assertEqual(out.replace("--commit {}`".format(sha), "--commit {} --out {}`".format(sha, m.group(2)), 1),
                         text)


class RuleCheck(Case):
    """rule_check.py agree --paired: both rules in each process; a per-process offset shared by the
    two rules must not fail the check, a bias of the rule must."""

    N = 1 << 20

    def process(self, name, offset, bias, reps=3):
        """One --compare_min_time process: its twin at offset * 5 us (plus jitter), the rule's rows
        at (1 + bias) times that."""
        rows = []
        for mode, base in (("cold", 6.0), ("hot", 5.0)):
            twin = [base * offset * (1 + 0.001 * r) for r in range(reps)]
            for bench, times in ((fx.bench_name("cub", self.N, mode), [t * (1 + bias) for t in twin]),
                                 (fx.bench_name("cub", self.N, mode + "/min_time:0.200"), twin)):
                for r in fx.rows_for(bench, self.N, times):
                    if r["run_type"] == "iteration":
                        r["median_us"] = r["real_time"]
                    rows.append(r)
        return self.file(name, fx.sweep(rows))

    def test_offsets_between_processes_cancel(self):
        files = [self.process("p1.json", 1.00, 0.002), self.process("p2.json", 1.05, -0.002),
                 self.process("p3.json", 0.97, 0.0)]
        code, out, err = run(RULE_CHECK, "agree", "--paired", *files)
        self.assertEqual(code, 0, out + err)
        self.assertIn("| cub/1048576/cold | ", out)
        self.assertIn("| 3 | 0.9980 – 1.0020 | 9, 9 | 7.8%, 8.0% | yes |", out)
        # The same processes compared across files (rule of one, twin of another) would not agree.
        code, out, _ = run(RULE_CHECK, "agree", "--rule", files[1], "--mintime", files[2])
        self.assertEqual(code, 1, out)

    def test_a_biased_rule_fails(self):
        files = [self.process("p1.json", 1.0, 0.02), self.process("p2.json", 1.04, 0.02)]
        code, out, _ = run(RULE_CHECK, "agree", "--paired", *files, "--tolerance", "0.01")
        self.assertEqual(code, 1, out)
        self.assertIn("**no**", out)
        self.assertIn("largest difference: 2.00%", out)
        code, out, _ = run(RULE_CHECK, "agree", "--paired", *files, "--tolerance", "0.025")
        self.assertEqual(code, 0, out)

    def test_bad_input(self):
        lone = self.file("lone.json", fx.sweep(fx.rows_for(fx.bench_name("cub", self.N, "cold"), self.N, [6.0, 6.1])))
        code, _, err = run(RULE_CHECK, "agree", "--paired", lone)
        self.assertEqual(code, 2)
        self.assertIn("no benchmark in both rules", err)
        code, _, err = run(RULE_CHECK, "agree", "--paired", os.path.join(self.dir, "missing.json"))
        self.assertEqual(code, 2)
        self.assertIn("cannot read", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
