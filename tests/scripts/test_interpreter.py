"""scripts/interpreter.py through compare and plot.py: the python3 first on PATH lacks numpy, scipy
and matplotlib, as CI's pyenv build and a venv do.

  python3 test_interpreter.py Fallback [--compare-py=PATH]
      a venv of /usr/bin/python3 (no system packages) first on PATH: compare and plot.py run
      again under /usr/bin/python3 and work. Exits 77 (skipped) where /usr/bin/python3 itself
      lacks numpy, scipy or matplotlib.
  python3 test_interpreter.py NoneHas
      stand-ins on PYTHONPATH that fail to import hide the modules from every interpreter: plot.py
      still writes summary.md and exits 3, compare exits 2, each naming the Debian package.
"""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures as fx  # noqa: E402
from script_case import ROOT, TempDirCase  # noqa: E402

COMPARE = os.path.join(ROOT, "scripts", "compare")
PLOT = os.path.join(ROOT, "scripts", "plot.py")
FALLBACK = "/usr/bin/python3"
COMPARE_PY = None  # --compare-py=PATH: the pinned release's tools/compare.py


class Case(TempDirCase):
    PREFIX = "interpreter_test_"

    def setUp(self):
        super().setUp()
        self.env = dict(os.environ)
        self.env.pop("RB_PYTHON_FALLBACK_FROM", None)
        self.base = self.file("a.json", fx.gpu_sweep(reps=3, seed=1))
        self.new = self.file("b.json", fx.gpu_sweep(reps=3, seed=2, scale={"cub": 0.5}))

    def run_in(self, *cmd):
        p = subprocess.run(list(cmd), capture_output=True, text=True, env=self.env)
        return p.returncode, p.stdout, p.stderr

    def pngs(self, out):
        return sorted(n for n in os.listdir(out) if n.endswith(".png")) if os.path.isdir(out) else []


def fallback_has_them():
    try:
        return subprocess.run([FALLBACK, "-c", "import numpy, scipy, matplotlib"], capture_output=True).returncode == 0
    except OSError:
        return False


class Fallback(Case):
    def setUp(self):
        super().setUp()
        bin_dir = self.python_without_packages()
        self.env["PATH"] = bin_dir + os.pathsep + self.env.get("PATH", "")
        # The premise: the python3 that PATH finds first imports none of them.
        code, _, _ = self.run_in("python3", "-c", "import numpy")
        self.assertNotEqual(code, 0, "the python3 first on PATH imports numpy: the test proves nothing")

    def python_without_packages(self):
        """A bin/ folder whose python3 has no site packages: a venv, else a wrapper with -S."""
        venv = os.path.join(self.dir, "venv")
        made = subprocess.run([FALLBACK, "-m", "venv", "--without-pip", venv], capture_output=True)
        if made.returncode == 0:
            return os.path.join(venv, "bin")
        bin_dir = os.path.join(self.dir, "bin")
        os.makedirs(bin_dir)
        with open(os.path.join(bin_dir, "python3"), "w") as f:
            f.write('#!/bin/sh\nexec {} -S "$@"\n'.format(FALLBACK))
        os.chmod(os.path.join(bin_dir, "python3"), 0o755)
        return bin_dir

    def test_plot_draws_the_charts(self):
        out = os.path.join(self.dir, "plots")
        code, stdout, stderr = self.run_in("python3", PLOT, self.base, "--out-dir", out)
        self.assertEqual(code, 0, stdout + stderr)
        self.assertEqual(len(self.pngs(out)), 6, stdout + stderr)

    def test_compare_prints_its_table(self):
        if not COMPARE_PY or not os.path.isfile(COMPARE_PY):
            self.skipTest("no compare.py given")
        code, stdout, stderr = self.run_in(COMPARE, "--compare-py", COMPARE_PY, self.base, self.new)
        self.assertEqual(code, 0, stdout + stderr)
        self.assertRegex(stdout, r"\ncub/1024/cold/manual_time +-0\.\d{4} ")
        self.assertIn("\nOVERALL_GEOMEAN: over the ", stdout)

    def test_the_message_names_only_what_is_missing_there(self):
        # /usr/bin/python3 has numpy: a scipy that fails to import is the one package to install.
        stubs(self.dir, self.env, ["scipy"])
        code, stdout, stderr = self.run_in(COMPARE, self.base, self.new)
        self.assertEqual(code, 2, stdout + stderr)
        self.assertIn("apt install python3-scipy (Debian, Ubuntu)", stderr)
        self.assertNotIn("python3-numpy", stderr)


class NoneHas(Case):
    def setUp(self):
        super().setUp()
        stubs(self.dir, self.env, ["numpy", "scipy", "matplotlib"])

    def test_plot_writes_the_summary_and_names_the_package(self):
        out = os.path.join(self.dir, "plots")
        code, stdout, stderr = self.run_in("python3", PLOT, self.base, "--out-dir", out)
        self.assertEqual(code, 3, stdout + stderr)
        self.assertIn("apt install python3-matplotlib (Debian, Ubuntu)", stderr)
        self.assertEqual(self.pngs(out), [])
        with open(os.path.join(out, "summary.md"), encoding="utf-8") as f:
            summary = f.read()
        self.assertIn("## cold", summary)
        self.assertIn("charts not drawn: needs matplotlib", summary)

    def test_plot_without_png_needs_nothing(self):
        out = os.path.join(self.dir, "plots")
        code, stdout, stderr = self.run_in("python3", PLOT, self.base, "--out-dir", out, "--no-png")
        self.assertEqual(code, 0, stdout + stderr)
        self.assertNotIn("matplotlib", stderr)

    def test_compare_names_both_packages(self):
        code, stdout, stderr = self.run_in(COMPARE, self.base, self.new)
        self.assertEqual(code, 2, stdout + stderr)
        self.assertIn("compare: needs numpy and scipy", stderr)
        self.assertIn("apt install python3-numpy python3-scipy (Debian, Ubuntu)", stderr)
        self.assertEqual(stdout, "")


def stubs(root, env, modules):
    """Packages named like the modules, first on PYTHONPATH, that raise ImportError: every
    interpreter started with env then lacks them, /usr/bin/python3 included."""
    where = os.path.join(root, "stubs")
    for m in modules:
        os.makedirs(os.path.join(where, m), exist_ok=True)
        with open(os.path.join(where, m, "__init__.py"), "w") as f:
            f.write("raise ImportError('{} hidden by test_interpreter.py')\n".format(m))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (where, env.get("PYTHONPATH")) if p)


if __name__ == "__main__":
    for arg in list(sys.argv[1:]):
        if arg.startswith("--compare-py="):
            COMPARE_PY = arg.split("=", 1)[1]
            sys.argv.remove(arg)
    if "Fallback" in sys.argv[1:] and not fallback_has_them():
        print("skipped: {} lacks numpy, scipy or matplotlib".format(FALLBACK))
        sys.exit(77)
    unittest.main(verbosity=2)
