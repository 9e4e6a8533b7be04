"""The flag lists in the docs against reduce_bench itself, so that neither can drift.

  python3 test_usage_docs.py Flags --reduce-bench=PATH
      docs/usage.md's flag table ("reduce_bench's flags") has a row for every flag that
      `reduce_bench --help` lists before Google Benchmark's, and no other
  python3 test_usage_docs.py Dists --reduce-bench=PATH
      every --dist name that reduce_bench accepts is in README.md's and docs/usage.md's --dist rows
"""
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REDUCE_BENCH = None  # --reduce-bench=PATH


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def help_flags(text):
    """The flags of the help's "reduce_bench flags:" block, each with its short spelling."""
    block = text.split("reduce_bench flags:\n", 1)[1].split("\n\n", 1)[0]
    flags = set()
    for line in block.splitlines():
        m = re.match(r"^  (-[-\w]+)(?:=\S+)?(?:, (-\w))?", line)
        if m:
            flags.update(f for f in m.groups() if f)
    return flags


def table_flags(markdown, heading):
    """The flags in the first cell of each row of the table under `heading`."""
    section = markdown.split(heading + "\n", 1)[1]
    section = re.split(r"\n#+ ", section, maxsplit=1)[0]
    flags = set()
    for row in re.findall(r"^\| ([^|]*(?:\\\|[^|]*)*)\|", section, re.M):
        flags.update(re.findall(r"`(-{1,2}\w+)", row))
    return flags


def dist_names(markdown):
    """The names the --dist row documents: `name` anywhere in it, or --dist=a\\|b in its first cell."""
    rows = [line for line in markdown.splitlines() if line.startswith("| `--dist")]
    if len(rows) != 1:
        raise AssertionError("{} table rows start with `--dist".format(len(rows)))
    first_cell = rows[0].split(" | ")[0]
    spelled = re.search(r"--dist=([\w\\|]+)", first_cell)
    names = set(re.findall(r"`(\w+)`", rows[0])) | set(spelled.group(1).split("\\|") if spelled else [])
    return {n for n in names if not n.isupper()}  # not the placeholder of --dist=NAME


class Flags(unittest.TestCase):
    def test_usage_table_lists_every_flag_of_the_help(self):
        text = subprocess.run([REDUCE_BENCH, "--help"], capture_output=True, text=True).stdout
        in_help = help_flags(text)
        self.assertIn("--sizes", in_help)  # the parse found the block
        in_docs = table_flags(read("docs/usage.md"), "## reduce_bench's flags")
        self.assertEqual(sorted(in_help - in_docs), [], "in --help, not in docs/usage.md's flag table")
        # The help shows no short spellings: -h is documented beside --help and must print the same.
        short = subprocess.run([REDUCE_BENCH, "-h"], capture_output=True, text=True).stdout
        self.assertEqual(short, text)
        self.assertEqual(sorted(in_docs - in_help - {"-h"}), [], "in docs/usage.md's flag table, not in --help")

    def test_the_parsers_see_a_missing_row(self):
        table = "## reduce_bench's flags\n\n| flag | meaning |\n|---|---|\n| `--sizes=LIST` | x |\n\n## next\n"
        self.assertEqual(table_flags(table, "## reduce_bench's flags"), {"--sizes"})
        self.assertEqual(help_flags("reduce_bench flags:\n  --a=X   y\n             z\n  --help, -h  q\n\nmore"),
                         {"--a", "--help", "-h"})


class Dists(unittest.TestCase):
    def test_every_dist_is_documented(self):
        p = subprocess.run([REDUCE_BENCH, "--dist=no_such_dist", "--list_backends"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        listed = re.search(r"expected ([\w, ]+) or (\w+)", p.stderr)
        self.assertIsNotNone(listed, p.stderr)
        names = [n.strip() for n in listed.group(1).split(",")] + [listed.group(2)]
        self.assertIn("positive", names)
        for doc in ("README.md", "docs/usage.md"):
            self.assertEqual([n for n in names if n not in dist_names(read(doc))], [], doc)

    def test_the_parser_sees_a_missing_name(self):
        self.assertEqual(dist_names("| `--dist=NAME` | `harmonic` 1/(i+1), `uniform` or `normal` |"),
                         {"harmonic", "uniform", "normal"})
        self.assertEqual(dist_names("| `--dist=harmonic\\|normal` | x[i] = 1/(i+1), a positive x |"),
                         {"harmonic", "normal"})


if __name__ == "__main__":
    for arg in list(sys.argv[1:]):
        if arg.startswith("--reduce-bench="):
            REDUCE_BENCH = arg.split("=", 1)[1]
            sys.argv.remove(arg)
    if not REDUCE_BENCH:
        sys.exit("usage: test_usage_docs.py CLASS --reduce-bench=PATH")
    unittest.main(verbosity=2)
