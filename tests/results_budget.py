#!/usr/bin/env python3
"""results/ is evidence, not a notebook: at most 8 MiB, and no code.

usage: results_budget.py [--root DIR] [--limit-bytes N]   check DIR/results (default: this repository)
       results_budget.py --self-test                       show that the check fails when it should

The files counted are those the repository holds or would hold under results/: in a git checkout
`git ls-files --cached --others --exclude-standard results` (tracked files and new ones not
ignored; a tracked file deleted from the work tree is not counted), else every file under
results/. Fails (exit 1) when their sizes add up to more than the limit (8 MiB), or when any has a
code extension (.cu .cuh .cpp .cc .cxx .hpp .hh .h .c .py .sh): code belongs in the source tree,
and probes that left results/ are in git history (results/README.md, "History").
Exit status: 0 within budget, 1 over budget or code found, 2 usage or no results/ folder.
Standard library only.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

LIMIT = 8 * 1024 * 1024
CODE = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".hpp", ".hh", ".h", ".c", ".py", ".sh")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def files_under_results(root):
    """(relative paths of the files results/ holds, how they were listed)."""
    if shutil.which("git"):
        p = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"], capture_output=True, text=True)
        if p.returncode == 0 and os.path.realpath(p.stdout.strip()) == os.path.realpath(root):
            p = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                                "--", "results"], capture_output=True)
            if p.returncode == 0:
                paths = sorted({x.decode("utf-8", "surrogateescape") for x in p.stdout.split(b"\0") if x})
                return [x for x in paths if os.path.isfile(os.path.join(root, x))], "git ls-files"
    out = []
    for dirpath, _, names in os.walk(os.path.join(root, "results")):
        out += [os.path.relpath(os.path.join(dirpath, n), root) for n in names]
    return sorted(out), "the directory tree"


def check(root, limit=LIMIT):
    """(problems, summary line). problems: [] when results/ is within budget and holds no code."""
    if not os.path.isdir(os.path.join(root, "results")):
        raise FileNotFoundError(os.path.join(root, "results"))
    paths, how = files_under_results(root)
    sizes = {p: os.path.getsize(os.path.join(root, p)) for p in paths}
    total = sum(sizes.values())
    problems = []
    if total > limit:
        largest = sorted(sizes.items(), key=lambda kv: -kv[1])[:10]
        problems.append("results/ holds {} bytes ({:.2f} MiB) in {} files, over the {:.2f} MiB budget; the largest:\n{}"
                        .format(total, total / 2 ** 20, len(paths), limit / 2 ** 20,
                                "\n".join("  {:>10}  {}".format(s, p) for p, s in largest)))
    code = [p for p in paths if p.lower().endswith(CODE)]
    if code:
        problems.append("code under results/ (keep it in the source tree, or in git history):\n" +
                        "\n".join("  " + p for p in code))
    summary = "results/: {} files, {} bytes ({:.2f} MiB of {:.2f} MiB), listed by {}".format(
        len(paths), total, total / 2 ** 20, limit / 2 ** 20, how)
    return problems, summary


def self_test():
    """The check on throw-away trees: within budget passes, over budget fails, code fails, and in
    a git checkout ignored files do not count while new untracked ones do."""
    failures = []

    def expect(name, root, ok, limit=LIMIT, needle=None):
        problems, summary = check(root, limit)
        text = "\n".join(problems)
        if (not problems) != ok or (needle and needle not in text):
            failures.append("{}: expected {}, got {}: {}".format(name, "pass" if ok else "fail", summary, text or "no problem"))
        else:
            print("self-test {}: {} as expected ({})".format(name, "passed" if ok else "failed", summary))

    def write(root, rel, size=0, sparse=False):
        full = os.path.join(root, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            if sparse:
                f.truncate(size)
            else:
                f.write(b"x" * size)

    with tempfile.TemporaryDirectory(prefix="results_budget_") as tmp:
        plain = os.path.join(tmp, "plain")
        write(plain, "results/m/baseline.json.gz", 1000)
        write(plain, "results/m/README.md", 100)
        expect("small tree", plain, True)
        write(plain, "results/m/bulk.json", LIMIT, sparse=True)  # 8 MiB + 1100 bytes in all
        expect("over 8 MiB", plain, False, needle="over the 8.00 MiB budget")
        os.remove(os.path.join(plain, "results/m/bulk.json"))
        expect("back under", plain, True)
        for ext in (".cu", ".py", ".sh", ".H"):
            write(plain, "results/m/repro" + ext, 10)
            expect("code " + ext, plain, False, needle="results/m/repro" + ext)
            os.remove(os.path.join(plain, "results/m/repro" + ext))
        expect("limit at the total", plain, True, limit=1100)
        expect("limit one byte short", plain, False, limit=1099)

        if shutil.which("git"):
            repo = os.path.join(tmp, "repo")
            write(repo, "results/m/baseline.json.gz", 1000)
            write(repo, ".gitignore", 0)
            with open(os.path.join(repo, ".gitignore"), "w") as f:
                f.write("/results/latest.json\n")
            git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
            for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "t"]):
                subprocess.run(git + args, check=True, capture_output=True)
            write(repo, "results/latest.json", LIMIT, sparse=True)  # ignored: not counted
            expect("git: ignored file", repo, True)
            write(repo, "results/m/new.json", LIMIT, sparse=True)  # untracked, not ignored: counted
            expect("git: new file", repo, False, needle="results/m/new.json")
            os.remove(os.path.join(repo, "results/m/new.json"))
            write(repo, "results/m/probe.cuh", 10)
            expect("git: new code", repo, False, needle="probe.cuh")
            os.remove(os.path.join(repo, "results/m/probe.cuh"))
            os.remove(os.path.join(repo, "results/m/baseline.json.gz"))  # tracked, deleted: not counted
            expect("git: deleted file", repo, True)
        else:
            print("self-test: git not installed: the git listing was not exercised")
    for f in failures:
        print("SELF-TEST FAILED " + f, file=sys.stderr)
    return 1 if failures else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=ROOT, help="the repository root (default: this one)")
    ap.add_argument("--limit-bytes", type=int, default=LIMIT, help="the budget (default: 8 MiB)")
    ap.add_argument("--self-test", action="store_true", help="run the check on throw-away trees")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    try:
        problems, summary = check(args.root, args.limit_bytes)
    except FileNotFoundError as e:
        print("results_budget: no {} folder".format(e), file=sys.stderr)
        return 2
    print(summary)
    for p in problems:
        print("results_budget: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
