"""scripts/compare: the pinned release's comparison, our geomean and colour rule.

  python3 test_compare.py TwoRuns --compare-py=PATH --reduce-bench=PATH
      two small real CPU runs: the "Time Old"/"Time New" columns are each run's real_time
  python3 test_compare.py Geomean --compare-py=PATH
      OVERALL_GEOMEAN over the benchmarks in both files only, and the line that counts them
  python3 test_compare.py Color --compare-py=PATH
      colour codes on a terminal only, unless --color or --no-color says otherwise
Exit 77 (skipped) where this interpreter lacks numpy or scipy, or no compare.py is given.
"""
import json
import os
import pty
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import fixtures as fx  # noqa: E402
from script_case import SCRIPTS, TempDirCase  # noqa: E402

COMPARE = os.path.join(SCRIPTS, "compare")
OPTIONS = {"--compare-py": None, "--reduce-bench": None}
ESC = "\033["


class Case(TempDirCase):
    PREFIX = "compare_test_"

    def command(self, *args):
        return [sys.executable, COMPARE, "--compare-py", OPTIONS["--compare-py"], *args]

    def compare(self, *args, env=None):
        p = subprocess.run(self.command(*args), capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        return p.stdout


class TwoRuns(Case):
    def test_time_columns_are_the_medians(self):
        prog = OPTIONS["--reduce-bench"]
        if not prog:
            self.skipTest("no --reduce-bench")
        runs, paths = [], []
        for tag in ("a", "b"):
            path = os.path.join(self.dir, tag + ".json")
            subprocess.run([prog, "--sizes=2^10,2^16,2^20", "--benchmark_filter=^cpu/(accumulate|avx2)/[0-9]",
                            "--max_time=20ms", "--benchmark_out=" + path], check=True, capture_output=True)
            with open(path) as f:
                runs.append({r["name"]: r["real_time"] for r in json.load(f)["benchmarks"]})
            paths.append(path)
        out = self.compare("--no-color", *paths)
        seen = 0
        for line in out.splitlines():
            m = re.match(r"^(\S+)\s+[+-]\d+\.\d+\s+[+-]\d+\.\d+\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s*$", line)
            if not m or m.group(1) not in runs[0]:
                continue
            seen += 1
            name, old, new = m.group(1), int(m.group(2)), int(m.group(3))
            self.assertNotEqual(old, 0, line)
            self.assertNotEqual(new, 0, line)
            self.assertLessEqual(abs(old - round(runs[0][name])), 1, line)
            self.assertLessEqual(abs(new - round(runs[1][name])), 1, line)
        self.assertEqual(seen, len(runs[0]), out)


def time_changes(out):
    """{benchmark: the Time column} of compare's table."""
    rows = re.findall(r"^(\S+)\s+([+-]\d+\.\d+)\s+[+-]\d+\.\d+\s+\d+\s+\d+\s+\d+\s+\d+\s*$", out, re.M)
    return {name: float(change) for name, change in rows}


class Geomean(Case):
    def test_only_benchmarks_in_both_files_count(self):
        # BASE: five GPU backends and a CPU one; NEW: cub twice as fast, cuda/onepass the same,
        # nothing else. The geomean over the 24 common benchmarks is sqrt(0.5) - 1 = -0.2929;
        # compare.py's own, over every row of each file, says -0.56 (outside every row's change).
        base = self.file("a.json", fx.gpu_sweep(reps=3, rel_noise=0.0))
        new = self.file("b.json", fx.gpu_sweep(reps=3, rel_noise=0.0, backends=["cub", "cuda/onepass"],
                                               scale={"cub": 0.5}, cpu=False))
        out = self.compare("--no-color", "--no-utest", base, new)
        changes = time_changes(out)
        geomean = changes.pop("OVERALL_GEOMEAN")
        self.assertAlmostEqual(geomean, 2 ** -0.5 - 1, places=4)
        rows = [c for name, c in changes.items() if not re.search(r"_(mean|median|stddev|cv)$", name)]
        self.assertEqual(len(rows), 24, out)
        self.assertTrue(min(rows) <= geomean <= max(rows), out)
        self.assertIn("\nOVERALL_GEOMEAN: over the 24 benchmark(s) in both files; left out: 40 only in {}, "
                      "0 only in {}\n".format(base, new), out)

    def test_identical_files_change_nothing(self):
        f = self.file("a.json", fx.gpu_sweep(reps=3))
        self.assertEqual(time_changes(self.compare("--no-color", f, f))["OVERALL_GEOMEAN"], 0.0)

    def test_dump_to_json_holds_the_same_geomean(self):
        base = self.file("a.json", fx.gpu_sweep(reps=3, rel_noise=0.0))
        new = self.file("b.json", fx.gpu_sweep(reps=3, rel_noise=0.0, backends=["cub"], scale={"cub": 0.8}, cpu=False))
        dump = os.path.join(self.dir, "diff.json")
        self.compare("--no-color", "--dump_to_json", dump, base, new)
        with open(dump) as f:
            rows = {r["name"]: r for r in json.load(f)}
        self.assertAlmostEqual(rows["OVERALL_GEOMEAN"]["measurements"][0]["time"], -0.2, places=9)


class Color(Case):
    def setUp(self):
        super().setUp()
        self.base = self.file("a.json", fx.gpu_sweep(reps=2, backends=["cub"], cpu=False))
        self.new = self.file("b.json", fx.gpu_sweep(reps=2, backends=["cub"], cpu=False, seed=2))
        self.env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}

    def on_terminal(self, *args, env=None):
        """compare's stdout when it is a terminal (a pseudo-terminal here)."""
        master, slave = pty.openpty()
        p = subprocess.Popen(self.command(*args), stdout=slave, stderr=subprocess.PIPE, env=env or self.env)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the terminal's other end is closed
                break
            if not data:
                break
            chunks.append(data)
        os.close(master)
        self.assertEqual(p.wait(), 0, p.stderr.read())
        p.stderr.close()
        return b"".join(chunks).decode()

    def test_redirected_output_has_no_codes(self):
        out = self.compare(self.base, self.new, env=self.env)
        self.assertIn("OVERALL_GEOMEAN", out)
        self.assertNotIn(ESC, out)

    def test_color_forces_them(self):
        self.assertIn(ESC, self.compare("--color", self.base, self.new, env=self.env))

    def test_terminal_gets_them(self):
        out = self.on_terminal(self.base, self.new)
        self.assertIn("OVERALL_GEOMEAN", out)
        self.assertIn(ESC, out)

    def test_no_color_and_NO_COLOR_on_a_terminal(self):
        self.assertNotIn(ESC, self.on_terminal("--no-color", self.base, self.new))
        self.assertNotIn(ESC, self.on_terminal(self.base, self.new, env=dict(self.env, NO_COLOR="1")))


if __name__ == "__main__":
    for arg in list(sys.argv[1:]):
        key, _, value = arg.partition("=")
        if key in OPTIONS:
            OPTIONS[key] = value
            sys.argv.remove(arg)
    try:
        import numpy  # noqa: F401
        import scipy  # noqa: F401
    except ImportError:
        print("skipped: this interpreter has no numpy/scipy")
        sys.exit(77)
    if not OPTIONS["--compare-py"] or not os.path.isfile(OPTIONS["--compare-py"]):
        print("skipped: no compare.py at {}".format(OPTIONS["--compare-py"]))
        sys.exit(77)
    unittest.main(verbosity=2)
