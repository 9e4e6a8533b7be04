#!/usr/bin/env python3
"""No C++ or CUDA line is longer than .clang-format's ColumnLimit (120).

usage: line_length.py ROOT [--min-files N]
"""
import argparse
import pathlib
import sys

LIMIT = 120
DIRS = ("bench", "kernels", "common", "tools", "examples", "tests")
SUFFIXES = {".hpp", ".cpp", ".cuh", ".cu", ".h"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root", type=pathlib.Path)
    parser.add_argument("--min-files", type=int, default=50)
    args = parser.parse_args()
    fixture_run = "fixtures" in args.root.parts
    checked, long_lines = 0, []
    for top in DIRS:
        for path in sorted((args.root / top).rglob("*")):
            rel = path.relative_to(args.root)
            if path.suffix not in SUFFIXES or (not fixture_run and rel.parts[:2] == ("tests", "fixtures")):
                continue  # the fixtures break the rules on purpose
            checked += 1
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if len(line) > LIMIT:
                    long_lines.append(f"  {rel}:{number}: {len(line)} columns")
    if checked < args.min_files:
        sys.exit(f"only {checked} files found under {args.root}: wrong root?")
    if long_lines:
        sys.exit(f"lines over {LIMIT} columns (clang-format --lines=N:N fixes one):\n" + "\n".join(long_lines))
    print(f"line length: {checked} files, none over {LIMIT} columns")


if __name__ == "__main__":
    main()
