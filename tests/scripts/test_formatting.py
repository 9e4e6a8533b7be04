"""scripts/formatting.py: the size, time and ratio formats and the markdown table writer that the
table generators, plot.py and regress share. Each expected string is what a committed page shows.

Run one class:  python3 test_formatting.py Table   (CTest runs each class as its own test)
Standard library only.
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts"))
import formatting as f  # noqa: E402


class Sizes(unittest.TestCase):
    def test_pow2(self):
        self.assertEqual(f.pow2(1), "2^0")
        self.assertEqual(f.pow2(1 << 20), "2^20")
        self.assertEqual(f.pow2(1 << 31), "2^31")
        self.assertEqual(f.pow2(1000000), "1000000")
        self.assertEqual(f.pow2(3 << 20), "3145728")
        # 0 is no power of two (its bit_length - 1 would say 2^-1).
        self.assertEqual(f.pow2(0), "0")
        self.assertFalse(f.is_pow2(0))
        self.assertTrue(f.is_pow2(1 << 40))
        self.assertFalse(f.is_pow2(6))

    def test_other_formats(self):
        self.assertEqual(f.pow2(1000000, f.commas), "1,000,000")
        self.assertEqual(f.pow2(1 << 28, f.commas), "2^28")
        # kernel_table.py: one significant digit, "e+0" shortened.
        self.assertEqual(f.pow2(1000000, f.e_rounded), "1e6")
        self.assertEqual(f.pow2(500000000, f.e_rounded), "5e8")
        self.assertEqual(f.pow2(1500000, f.e_rounded), "2e6")
        self.assertEqual(f.pow2(10 ** 10, f.e_rounded), "1e+10")
        # tune_table.py: only exact multiples of a power of ten, from 10^4.
        self.assertEqual(f.pow2(10000, f.e_exact), "1e4")
        self.assertEqual(f.pow2(500000000, f.e_exact), "5e8")
        self.assertEqual(f.pow2(1500000, f.e_exact), "1500000")
        self.assertEqual(f.pow2(5000, f.e_exact), "5000")

    def test_long(self):
        self.assertEqual(f.fmt_n_long(1 << 20), "1,048,576 (2^20)")
        self.assertEqual(f.fmt_n_long(1024), "1,024 (2^10)")
        self.assertEqual(f.fmt_n_long(10000), "10,000")
        self.assertEqual(f.fmt_n_long(0), "0")


class Numbers(unittest.TestCase):
    def test_us(self):
        self.assertEqual(f.fmt_us(7.5), "7.50")
        self.assertEqual(f.fmt_us(999.99), "999.99")
        self.assertEqual(f.fmt_us(1000.0), "1,000")
        self.assertEqual(f.fmt_us(1886.3), "1,886")
        self.assertEqual(f.fmt_us(123456.7), "123,457")
        # tune_table.py's variant: a tenth of a µs above 1000, no separators.
        self.assertEqual(f.fmt_us(1886.34, large="{:.1f}"), "1886.3")
        self.assertEqual(f.fmt_us(12.345, large="{:.1f}"), "12.35")

    def test_ratio(self):
        self.assertEqual(f.fmt_ratio(1.234), "1.23")
        self.assertEqual(f.fmt_ratio(0.1), "0.10")
        self.assertEqual(f.fmt_ratio(0.01234), "0.012")
        self.assertEqual(f.fmt_ratio(0.0005), "0.0005")

    def test_gbps(self):
        self.assertEqual(f.fmt_gbps(4.567), "4.6")
        self.assertEqual(f.fmt_gbps(99.94), "99.9")
        self.assertEqual(f.fmt_gbps(4321.6), "4322")

    def test_g2(self):
        self.assertEqual(f.fmt_g2(1.234e-7), "1.2e-07")
        self.assertEqual(f.fmt_g2(0.5), "0.5")
        self.assertEqual(f.fmt_g2(None), "–")
        self.assertEqual(f.fmt_g2(None, missing="-"), "-")


class Table(unittest.TestCase):
    def test_plain(self):
        self.assertEqual(f.md_table(["n", "cub", "ref/read"], [["2^20", "8.05", "-"], ["2^30", 944.69, 3]]),
                         ["| n | cub | ref/read |", "|---|---|---|", "| 2^20 | 8.05 | - |", "| 2^30 | 944.69 | 3 |"])

    def test_align(self):
        lines = f.md_table(["n", "fastest", "time (us)"], [["1,024 (2^10)", "cub", "4.80"]], align="rlr")
        self.assertEqual(lines[1], "|---:|---|---:|")
        self.assertEqual(f.md_table(["a", "b", "c"], [], align="c")[1], "|:---:|---|---|")  # short align: the rest l

    def test_empty(self):
        self.assertEqual(f.md_table(["benchmark", "ratio"], []), ["| benchmark | ratio |", "|---|---|"])

    def test_padded(self):
        # scripts/regress: columns line up as plain text; a right-aligned rule ends in ':'.
        lines = f.md_table(["benchmark", "change", "note"], [["cub/1024/cold", "+5.75%", ""], ["x", "-1.3%", "ties"]],
                           align="lrl", pad=True)
        self.assertEqual(lines, ["| benchmark     | change | note |",
                                 "|---------------|-------:|------|",
                                 "| cub/1024/cold | +5.75% |      |",
                                 "| x             |  -1.3% | ties |"])
        self.assertEqual(f.md_table(["a"], [["abc"]], align="c", pad=True), ["|  a  |", "|:---:|", "| abc |"])

    def test_row(self):
        self.assertEqual(f.md_row(["cuda/onepass", "2^24", "`void k`"]), "| cuda/onepass | 2^24 | `void k` |")

    def test_bad_input(self):
        with self.assertRaisesRegex(ValueError, "a row of 1 cells under a header of 2"):
            f.md_table(["n", "cub"], [["2^20"]])
        with self.assertRaisesRegex(ValueError, "align takes l, r or c"):
            f.md_table(["n"], [], align="x")


if __name__ == "__main__":
    unittest.main(verbosity=2)
