"""scripts/gpu without a GPU: every subcommand against stand-ins (cmake, ctest, ncu, cuobjdump,
compute-sanitizer and a reduce_bench that writes Google Benchmark JSON), checking the files each
leaves in OUT, the sweep's command file, and the exit status when a step fails.

Run one class:  python3 test_gpu_driver.py Sweep   (CTest runs each class as its own test)
Needs bash, tar and gzip; exits 77 (CTest: skipped) without them.
"""
import gzip
import json
import os
import shutil
import stat
import subprocess
import sys
import tarfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_case import HERE, SCRIPTS, TempDirCase  # noqa: E402

GPU = os.path.join(SCRIPTS, "gpu")

FAKE_BENCH = textwrap.dedent('''\
    #!{python}
    # A stand-in for reduce_bench: rows for the backends its filter selects, JSON as Google Benchmark writes.
    import json, os, re, sys
    sys.path.insert(0, {tests!r})
    import fixtures as fx
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
    def sizes(text):
        out = []
        for part in text.split(","):
            lo, _, hi = part.partition("..")
            a = 1 << int(lo[2:]) if lo.startswith("2^") else int(float(lo))
            b = (1 << int(hi[2:]) if hi.startswith("2^") else int(float(hi))) if hi else a
            while a <= b:
                out.append(a)
                a *= 2
        return out
    ns = sizes(args.get("sizes", "2^20,2^24,2^28,2^30"))
    reps = int(args.get("benchmark_repetitions", "1"))
    pattern = re.compile(args.get("benchmark_filter", "."))
    rows, lines = [], []
    # --shapes: one shape of each axis and type, ours at 80% of the floor ref/segmented.
    for backend in ["ref/segmented", "cuda/segmented", "cub/segmented"] if "shapes" in args else []:
        for b, n, axis in ((1 << 20, 16, ""), (16, 1 << 20, "/cols")):
            for at in ("", "@bf16"):
                name = "{{}}{{}}/{{}}x{{}}{{}}/cold/manual_time".format(backend, at, b, n, axis)
                if pattern.search(name):
                    rows += fx.rows_for(name, b * n, [20.0 if backend == "ref/segmented" else 25.0])
                    lines.append("{{}} 25 us 100 us 5".format(name))
    for backend in [] if "shapes" in args else ["cub", "cuda/onepass", "cuda/onepass_accf64", "thrust/reduce",
                                                 "ref/launch", "ref/read", "tune/onepass/t256_u4_b4"]:
        for n in ns:
            for mode in ("cold", "hot"):
                name = fx.bench_name(backend, n, mode)
                if not pattern.search(name):
                    continue
                t = 3.0 + 4.0 * n / 4.6e6
                rows += fx.rows_for(name, n, [t * (1 + 0.001 * r) for r in range(reps)])
                if "compare_min_time" in args:  # the twin under Google Benchmark's rule
                    twin = name.replace("/manual_time", "/min_time:0.200/manual_time")
                    rows += fx.rows_for(twin, n, [t * (1 + 0.001 * r) for r in range(reps)])
                lines.append("{{}}_median {{:.2f}} us 100 us 5".format(name, t))
                lines.append("{{}}_cv 0.10 % 0.10 % 5".format(name))
    if "processes" in args:  # pooled: each process's rows, at +-0.4% and agreeing
        rows = [dict(r, process=p, precision=0.004, target_met=1) for p in range(int(args["processes"]))
                for r in rows if r["run_type"] == "iteration"]
    if "benchmark_out" in args:
        doc = fx.sweep(rows)
        doc["context"]["stub_page_touch_mib"] = args.get("page_touch_mib", "unset")
        with open(args["benchmark_out"], "w") as f:
            json.dump(doc, f)
    if args.get("samples_csv"):
        open(args["samples_csv"], "a").close()
    print("\\n".join(lines))
    print("reduce_bench: {{}} measured: {{}} exact, 0 skipped, 0 failed".format(len(lines) // 2, len(lines) // 2))
''')

GTEST = textwrap.dedent('''\
    #!/bin/sh
    case "$*" in *--gtest_list_tests*) printf 'Suite.\\n  One\\n  Two\\n'; exit 0;; esac
    echo "[  PASSED  ] 2 tests."
''')

STUBS = {
    "cmake": '#!/bin/sh\ncase "$1" in --preset) echo "-- reduce-bench: stand-in configure";; esac\nexit 0\n',
    "ctest": '#!/bin/sh\necho "100% tests passed, 0 tests failed out of 3"\nexit ${STUB_CTEST_RC:-0}\n',
    "cuobjdump": ('#!/bin/sh\necho "  Function : _ZN2rb4cuda6detail19single_block_kernelIfEEvPKf"\n'
                  'echo "        /*0000*/  MOV R1, c[0x0][0x28] ;"\necho "        /*0010*/  EXIT ;"\n'),
    "compute-sanitizer": textwrap.dedent('''\
        #!/bin/sh
        while [ $# -gt 0 ]; do
          case "$1" in --tool|--leak-check|--error-exitcode) shift 2;; *) break;; esac
        done
        "$@"
        echo "========= ERROR SUMMARY: ${STUB_SANITIZER_ERRORS:-0} errors"
        [ "${STUB_SANITIZER_ERRORS:-0}" = 0 ] || exit 86
    '''),
    "ncu": textwrap.dedent('''\
        #!{python}
        import sys
        if "--query-metrics" in sys.argv:
            print("gpu__time_duration\\ndram__throughput\\nsmsp__issue_active")
            sys.exit(0)
        metrics = sys.argv[sys.argv.index("--metrics") + 1].split(",")
        units = ["us" if m.startswith("gpu__time") else "MB" if m.startswith("dram__bytes") else "%" for m in metrics]
        print('"ID","Kernel Name",' + ",".join('"%s"' % m for m in metrics))
        print('"","",' + ",".join('"%s"' % u for u in units))
        print('"0","void kernel(float*)",' + ",".join('"1.5"' for _ in metrics))
    '''),
}


def executable(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


class Case(TempDirCase):
    PREFIX = "gpu_driver_test_"

    def setUp(self):
        super().setUp()
        self.stubs = os.path.join(self.dir, "stubs")
        self.build = os.path.join(self.dir, "build")
        os.makedirs(self.stubs)
        for name, text in STUBS.items():
            executable(os.path.join(self.stubs, name), text.replace("{python}", sys.executable))
        for sub in ("bench", "tests/mutants", "tests/kernels/cuda"):
            os.makedirs(os.path.join(self.build, sub))
        executable(os.path.join(self.build, "bench", "reduce_bench"),
                   FAKE_BENCH.format(python=sys.executable, tests=HERE))
        for side in ("cpu", "gpu"):
            executable(os.path.join(self.build, "tests", "mutants", "test_mutants_" + side),
                       "#!/bin/sh\necho '| mutant | caught |'\necho '[       OK ] Mutants.All'\n")
        for t in ("test_onepass", "test_layout"):
            executable(os.path.join(self.build, "tests", "kernels", "cuda", t), GTEST)
        self.out = os.path.join(self.dir, "out")

    def check_agree(self, processes):
        with open(os.path.join(self.out, "agree.md")) as f:
            agree = f.read()
        self.assertIn("{} processes, each running both rules side by side".format(processes), agree)
        self.assertIn("medians over all {} repetitions of each rule".format(3 * processes), agree)
        self.assertIn("| cub/1048576/cold | ", agree)
        self.assertIn("| {0} | 1.0000 – 1.0000 | {1}, {1} |".format(processes, 3 * processes), agree)
        self.assertNotIn("**no**", agree)
        with tarfile.open(os.path.join(self.out, "agree.tgz")) as tar:
            self.assertEqual(sorted(tar.getnames()), sorted(
                ["agree.log"] + ["agree_paired{}.json".format(i) for i in range(1, processes + 1)]))

    def gpu(self, *args, **env):
        full = dict(os.environ, PATH=self.stubs + os.pathsep + os.environ.get("PATH", ""), RB_BUILD=self.build,
                    PYTHON=sys.executable, COMPUTE_SANITIZER=os.path.join(self.stubs, "compute-sanitizer"))
        full.update(env)
        p = subprocess.run(["bash", GPU] + list(args), capture_output=True, text=True, cwd=self.dir, env=full)
        self.assertNotIn("tar:", p.stderr)  # the logs archive
        return p.returncode, p.stdout + p.stderr

    def gpu_exits(self, expected, *args, **env):
        """scripts/gpu's output, after checking that it exits with `expected`."""
        code, out = self.gpu(*args, **env)
        self.assertEqual(code, expected, out)
        return out

    def files(self):
        return sorted(os.listdir(self.out))

    def logs(self):
        with tarfile.open(os.path.join(self.out, "logs.tgz")) as tar:
            return sorted(os.path.basename(n) for n in tar.getnames() if not n.endswith("/"))


class Usage(Case):
    def test_usage(self):
        out = self.gpu_exits(2)
        self.assertIn("scripts/gpu sweep OUT [NAME [ARGS]]", out)
        self.assertEqual(self.gpu("bogus", self.out)[0], 2)
        self.assertEqual(self.gpu("tune", self.out, "bogus")[0], 2)


class Rule(Case):
    def test_rule(self):
        self.gpu_exits(0, "rule", self.out)
        self.assertEqual(self.files(), ["agree.md", "agree.tgz", "cv.json", "cv.md", "logs.tgz", "pages.tgz",
                                        "pages_off.md", "pages_on.md", "readme.command.txt", "readme.json.gz",
                                        "readme.log.gz", "targets.txt"])
        self.check_agree(3)
        with open(os.path.join(self.out, "cv.md")) as f:
            cv = f.read()
        self.assertIn("| cuda/onepass/16777216/cold | 10 |", cv)
        self.assertIn("| cub/268435456/hot | 10 |", cv)
        for side, env in (("on", "unset"), ("off", "0")):
            with open(os.path.join(self.out, "pages_{}.md".format(side))) as f:
                self.assertIn("| cuda/onepass/1048576/cold | 20 |", f.read())
            with tarfile.open(os.path.join(self.out, "pages.tgz")) as tar:
                doc = json.load(tar.extractfile("pages_{}.json".format(side)))
            self.assertEqual(doc["context"]["stub_page_touch_mib"], env, side)
            self.assertTrue(all("/cold/" in b["name"] for b in doc["benchmarks"]))


class Agree(Case):
    def test_agree_alone(self):
        self.gpu_exits(0, "agree", self.out, RB_RULE_PROCESSES="2")
        self.assertEqual(self.files(), ["agree.md", "agree.tgz", "logs.tgz"])
        self.check_agree(2)


class Sweep(Case):
    def test_named_sweep(self):
        self.gpu_exits(0, "sweep", self.out, "uniform", "--dist=uniform", "--benchmark_min_time=1x")
        self.assertEqual(self.files(), ["uniform.command.txt", "uniform.json", "uniform.log.gz"])
        with open(os.path.join(self.out, "uniform.command.txt")) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "{}/bench/reduce_bench --benchmark_repetitions=3 "
                                   "--benchmark_display_aggregates_only=true --benchmark_out={}/uniform.json "
                                   "--benchmark_out_format=json --dist=uniform --benchmark_min_time=1x"
                         .format(self.build, self.out))
        self.assertRegex(lines[1], r"^sweep rc=0 wall \d+s$")
        self.assertRegex(lines[2], r"^reduce_bench: \d+ measured: .* 0 failed$")
        self.assertEqual(len(lines), 3)
        with gzip.open(os.path.join(self.out, "uniform.log.gz"), "rt") as f:
            self.assertIn("reduce_bench:", f.read())

    def test_default_name_and_missing_build(self):
        out = self.gpu_exits(0, "sweep", self.out)
        self.assertEqual(self.files(), ["baseline.command.txt", "baseline.json", "baseline.log.gz"])
        out = self.gpu_exits(2, "sweep", self.out, RB_BUILD=os.path.join(self.dir, "nowhere"))
        self.assertIn("scripts/gpu check", out)


class Aa(Case):
    def test_two_pools_and_their_table(self):
        out = self.gpu_exits(0, "aa", self.out)
        self.assertEqual(self.files(), ["aa", "aa.md", "logs.tgz", "pool1.command.txt", "pool1.json",
                                        "pool1.log.gz", "pool2.command.txt", "pool2.json", "pool2.log.gz"])
        with open(os.path.join(self.out, "pool1.command.txt")) as f:
            self.assertEqual(f.readline().split()[:6], ["timeout", "--foreground", "--preserve-status", "-s", "INT",
                                                        "270"])
        # 56 rows in 3 processes a pool: 3 pairs within a pool, 9 across the two, each row.
        self.assertIn("| GPU | within one pool | all | 336 | 0 | **0.0%** |", out)
        self.assertIn("| GPU | across processes | all | 504 | 0 | **0.0%** |", out)
        self.assertEqual(sorted(os.listdir(os.path.join(self.out, "aa"))), ["pool1.json.gz", "pool2.json.gz"])

    def test_one_pool_asks_for_another(self):
        out = self.gpu_exits(0, "aa", self.out, "first", RB_AA_SECONDS="60")
        self.assertIn("1 pool in {}; the table takes two".format(self.out), out)
        self.assertNotIn("aa.md", self.files())
        out = self.gpu_exits(0, "aa", self.out, "second")
        self.assertIn("| GPU | across processes | all | 504 | 0 | **0.0%** |", out)


class Shapes(Case):
    def test_shapes(self):
        for t in ("kernels/cuda/test_segmented", "kernels/cuda/test_segmented_plan", "mutants/test_mutants_shaped_gpu"):
            executable(os.path.join(self.build, "tests", t), GTEST)
        out = self.gpu_exits(0, "shapes", self.out)
        self.assertEqual(self.files(), ["logs.tgz", "shapes.command.txt", "shapes.json", "shapes.log.gz", "table.md"])
        self.assertIn("test_mutants_shaped_gpu rc=0: [  PASSED  ] 2 tests.", out)
        with open(os.path.join(self.out, "shapes.command.txt")) as f:
            self.assertIn(" --shapes=default --dtype=f32,bf16 --benchmark_filter=/cold ", f.readline())
        with open(os.path.join(self.out, "table.md"), encoding="utf-8") as f:
            table = f.read()
        for title in ("f32, each row (dim=1), total 2^24", "bf16, each column (dim=0), total 2^24"):
            self.assertIn("### " + title, table)
        self.assertIn("(80%", table)

    def test_a_failing_test_fails(self):
        executable(os.path.join(self.build, "tests", "kernels", "cuda", "test_segmented"), "#!/bin/sh\nexit 1\n")
        for t in ("kernels/cuda/test_segmented_plan", "mutants/test_mutants_shaped_gpu"):
            executable(os.path.join(self.build, "tests", t), GTEST)
        out = self.gpu_exits(1, "shapes", self.out)
        self.assertIn("test_segmented rc=1", out)


class Check(Case):
    def test_check(self):
        out = self.gpu_exits(0, "check", self.out)
        self.assertEqual(self.files(), ["logs.tgz", "thrust.json"])
        self.assertEqual(self.logs(), ["build.log", "configure.log", "ctest.log", "mutants_cpu.log", "mutants_gpu.log",
                                       "thrust.log"])
        self.assertIn("ctest rc=0", out)
        self.assertIn("mutants_gpu rc=0", out)
        self.assertIn("thrust/reduce/1048576/cold/manual_time_median", out)

    def test_failing_tests_fail(self):
        out = self.gpu_exits(1, "check", self.out, STUB_CTEST_RC="8")
        self.assertIn("ctest rc=8", out)


class Kernels(Case):
    def test_kernels(self):
        self.gpu_exits(0, "kernels", self.out)
        self.assertEqual(self.files(), ["accuracy.md", "cv.json", "kernels.command.txt", "kernels.json",
                                        "kernels.log.gz", "logs.tgz", "ncu_onepass_vs_cub.md",
                                        "ncu_onepass_vs_cub_raw.tgz", "summary.md", "uniform.json"])
        with open(os.path.join(self.out, "summary.md"), encoding="utf-8") as f:
            self.assertIn("| n | cub | onepass | onepass_accf64 | ref/read |", f.read())
        with open(os.path.join(self.out, "ncu_onepass_vs_cub.md"), encoding="utf-8") as f:
            self.assertIn("| cuda/onepass | 2^20 | `void kernel` |", f.read())


class Profile(Case):
    def test_profile(self):
        self.gpu_exits(0, "profile", self.out, "--pipes", "cuda/onepass:2^24")
        self.assertEqual(self.files(), ["logs.tgz", "ncu.md", "ncu_raw.tgz"])
        with open(os.path.join(self.out, "ncu.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("issue active %", text)
        self.assertIn("| cuda/onepass | 2^24 |", text)


class Sanitize(Case):
    def test_clean(self):
        self.gpu_exits(0, "sanitize", self.out)
        self.assertEqual(self.files(), ["logs.tgz", "sanitize_bench.txt", "sanitize_tests.txt"])
        with open(os.path.join(self.out, "sanitize_tests.txt")) as f:
            lines = f.read().splitlines()
        self.assertEqual([l.split()[0] for l in lines], ["memcheck", "racecheck", "initcheck", "synccheck"])
        self.assertIn("ok: 0 errors, 2 tests passed, 0 skipped", lines[0])
        self.assertIn("memcheck.test_onepass.log", self.logs())
        self.assertIn("bench_synccheck.log", self.logs())

    def test_errors_fail(self):
        out = self.gpu_exits(1, "sanitize", self.out, STUB_SANITIZER_ERRORS="3")
        self.assertIn("FAILED: 3 errors", out)


class Tune(Case):
    def test_tune_sweep(self):
        out = self.gpu_exits(0, "tune", self.out, "sweep", RB_TUNE_SIZES="2^20,2^22")
        self.assertEqual(self.files(), ["cub_cv.json", "logs.tgz", "samples.csv.gz", "sass_sizes.txt",
                                        "tune.command.txt", "tune.json", "tune.log.gz"])
        self.assertIn("| backend | 2^20 | 2^22 |", out)
        self.assertIn("| tune/onepass/t256_u4_b4 |", out)
        with open(os.path.join(self.out, "sass_sizes.txt")) as f:
            self.assertEqual(f.read().split(), ["2", "_ZN2rb4cuda6detail19single_block_kernelIfEEvPKf"])


if __name__ == "__main__":
    if not all(shutil.which(tool) for tool in ("bash", "tar", "gzip")):
        print("skipped: scripts/gpu needs bash, tar and gzip")
        sys.exit(77)
    unittest.main(verbosity=2)
