"""scripts/renames.json: rows measured under an old name pair with the same rows under the new one.

  python3 test_renames.py Gate       scripts/regress: the committed baseline (old names) against
                                     itself renamed pairs row for row; a slow-down planted on a
                                     renamed row fails; the `renames:` line is printed once
  python3 test_renames.py Compare --compare-py=PATH   scripts/compare pairs them too (exit 77
                                     without numpy/scipy or compare.py)
  python3 test_renames.py Mapping    the mapping against the registered rows and the release
"""
import copy
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from renames import read_renames, rename_rows, renamed  # noqa: E402

BASELINE = os.path.join(ROOT, "results", "h200", "baseline.json.gz")
REGRESS = os.path.join(ROOT, "scripts", "regress")
COMPARE = os.path.join(ROOT, "scripts", "compare")
OPTIONS = {"--compare-py": None}
SLOWED = "cpu/avx2/threads/1048576/hot/manual_time"  # cpu/avx2_f32/threads in the baseline


def baseline():
    with gzip.open(BASELINE, "rt", encoding="utf-8") as f:
        return json.load(f)


class Case(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.renames, cls.until = read_renames()
        cls.old = baseline()
        cls.renamed_count = len({r["run_name"] for r in cls.old["benchmarks"]
                                 if renamed(r["run_name"], cls.renames) != r["run_name"]})

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="renames_test_")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def contender(self, slow=None, factor=1.5):
        """The baseline under the new names, the rows of `slow` `factor` times slower."""
        doc = copy.deepcopy(self.old)
        self.assertEqual(rename_rows(doc, self.renames), self.renamed_count)
        for row in doc["benchmarks"]:
            if row["run_name"] == slow:
                for key in ("real_time", "cpu_time", "median_us"):
                    if key in row:
                        row[key] *= factor
        path = os.path.join(self.dir, "new.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        return path


class Gate(Case):
    def regress(self, new):
        p = subprocess.run([REGRESS, BASELINE, new], capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    def test_old_names_pair_with_new(self):
        self.assertGreater(self.renamed_count, 300)  # 15 CPU rows x 19 benchmarks, cuda/onepass_f64's 58
        rc, out = self.regress(self.contender())
        self.assertEqual(rc, 0, out)
        self.assertNotIn("only in", out)
        names = {r["run_name"] for r in self.old["benchmarks"]}
        self.assertIn("\n{} compared: ".format(len(names)), out)
        self.assertEqual(out.count("renames: "), 1, out)
        self.assertIn("renames: {} benchmark(s) of BASE and 0 of NEW".format(self.renamed_count), out)
        self.assertIn("read until release " + self.until, out)

    def test_planted_slowdown_on_a_renamed_row(self):
        rc, out = self.regress(self.contender(slow=SLOWED))
        self.assertEqual(rc, 1, out)
        self.assertRegex(out.splitlines()[-1], r"^regress: FAIL: 1 benchmark\(s\): " + re.escape(SLOWED))
        self.assertEqual(out.count("renames: "), 1, out)

    def test_a_file_with_both_names_is_bad_input(self):
        doc = copy.deepcopy(self.old)
        twin = dict(doc["benchmarks"][0], name="cpu/accumulate/1024/hot/manual_time",
                    run_name="cpu/accumulate/1024/hot/manual_time")
        doc["benchmarks"].append(twin)
        path = os.path.join(self.dir, "both.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        rc, out = self.regress(path)
        self.assertEqual(rc, 2, out)
        self.assertIn("holds both cpu/accumulate_f32/1024/hot/manual_time and its new name", out)


class Compare(Case):
    def test_old_names_pair_with_new(self):
        for module in ("numpy", "scipy"):
            try:
                __import__(module)
            except ImportError:
                sys.exit(77)
        if not OPTIONS["--compare-py"] or not os.path.isfile(OPTIONS["--compare-py"]):
            sys.exit(77)
        p = subprocess.run([sys.executable, COMPARE, "--compare-py", OPTIONS["--compare-py"], "--no-color", "-a",
                            "--no-utest", BASELINE, self.contender(slow=SLOWED, factor=2.0)],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        names = {r["run_name"] for r in self.old["benchmarks"]}
        self.assertIn("over the {} benchmark(s) in both files; left out: 0 only in".format(len(names)), p.stdout)
        self.assertIn(", 0 only in ", p.stdout)
        self.assertEqual(p.stdout.count("renames: {} benchmark(s) of BASE and 0 of NEW".format(self.renamed_count)), 1)
        self.assertRegex(p.stdout, re.escape(SLOWED) + r"_median\s+\+1\.0000")


class Mapping(Case):
    def test_names(self):
        with open(os.path.join(ROOT, "tests", "bench", "backends", "builtin_backends.txt"), encoding="utf-8") as f:
            registered = {line.split()[1] for line in f if line.startswith(("cpu ", "gpu "))}
        for old, new in self.renames.items():
            self.assertNotIn(old, registered)
            self.assertIn(new, registered)
            self.assertNotIn(new, self.renames, "a chain of renames")
        self.assertEqual(len(set(self.renames.values())), len(self.renames))
        # Only the backend: an element type's row and a longer name keep theirs.
        self.assertEqual(renamed("cpu/avx2_f32/threads/1024/hot/manual_time_median", self.renames),
                         "cpu/avx2/threads/1024/hot/manual_time_median")
        for kept in ("cpu/avx2@f64/1024/hot/manual_time", "cpu/avx2_kahan/1024/hot", "tune/onepass_f64/t256_u4/1024/cold"):
            self.assertEqual(renamed(kept, self.renames), kept)

    def test_read_until_the_next_release(self):
        with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
            version = re.search(r"project\(reduce_bench VERSION (\d+)\.(\d+)\.(\d+)", f.read()).groups()
        until = tuple(int(x) for x in self.until.split("."))
        self.assertLess(tuple(int(x) for x in version), until,
                        "release {}: delete scripts/renames.json and its readers".format(self.until))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not any(a.startswith(k + "=") for k in OPTIONS)]
    for a in sys.argv[1:]:
        key, _, value = a.partition("=")
        if key in OPTIONS:
            OPTIONS[key] = value
    unittest.main(argv=[sys.argv[0]] + args)
