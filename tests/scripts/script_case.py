"""The script tests' shared set-up: a temporary directory per test, the synthetic sweeps of
fixtures.py written into it, and a script run under this interpreter as a subprocess."""
import os
import subprocess
import sys
import tempfile
import unittest

import fixtures as fx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(ROOT, "scripts")


class TempDirCase(unittest.TestCase):
    """Each test with its own directory, self.dir, removed after it; PREFIX names it."""
    PREFIX = "script_test_"

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix=self.PREFIX)
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def file(self, name, doc):
        """doc as JSON at name under self.dir, its folders made; returns the path."""
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return fx.write(path, doc)


def run_python(*args, cwd=None):
    """args under this interpreter: (exit status, stdout, stderr)."""
    p = subprocess.run([sys.executable] + list(args), capture_output=True, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr
