"""Cross-checks scripts/regress's Mann-Whitney U against scipy.stats.mannwhitneyu.

Needs scipy (Debian's /usr/bin/python3 has it; CI's default python3 does not). Exits 77, which
CTest reports as skipped, when scipy cannot be imported.
"""
import random
import sys
import unittest

try:
    from scipy import stats
except ImportError as e:  # pragma: no cover - depends on the interpreter
    print("skipped: scipy not importable by {}: {}".format(sys.executable, e))
    sys.exit(77)

from test_regress import load_regress_module

R = load_regress_module()


class AgainstScipy(unittest.TestCase):
    def check(self, x, y, method):
        ours = R.mann_whitney(x, y)
        self.assertEqual(ours["method"], method)
        for alt, key in (("greater", "p_greater"), ("less", "p_less")):
            # mannwhitneyu(y, x, alternative="greater"): H1 y stochastically greater than x.
            ref = stats.mannwhitneyu(y, x, alternative=alt, use_continuity=True,
                                     method="exact" if method == "exact" else "asymptotic")
            self.assertAlmostEqual(ours["u"], ref.statistic, places=9)
            self.assertAlmostEqual(ours[key], ref.pvalue, places=12, msg="{} {} {}".format(alt, x, y))

    def test_exact_without_ties(self):
        rng = random.Random(11)
        for _ in range(200):
            m, n = rng.randint(1, 15), rng.randint(1, 15)
            shift = rng.choice([0.0, 0.2, 0.5, 1.0])
            x = [rng.gauss(10, 1) for _ in range(m)]
            y = [rng.gauss(10 + shift, 1) for _ in range(n)]
            self.check(x, y, "exact")

    def test_normal_with_ties(self):
        rng = random.Random(12)
        for _ in range(200):
            m, n = rng.randint(2, 30), rng.randint(2, 30)
            # Rounded timings: ties are frequent, as with a coarse timer.
            x = [round(rng.gauss(10, 1), 0) for _ in range(m)]
            y = [round(rng.gauss(10.5, 1), 0) for _ in range(n)]
            if len(set(x + y)) == 1:
                continue
            self.check(x, y, "normal")

    def test_normal_for_large_samples(self):
        rng = random.Random(13)
        x = [rng.random() for _ in range(80)]
        y = [rng.random() + 0.05 for _ in range(70)]
        self.check(x, y, "normal")


if __name__ == "__main__":
    unittest.main(verbosity=2)
