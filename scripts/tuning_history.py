#!/usr/bin/env python3
"""The tuning history of the hand-written kernels, one section per round: results/h200/tuning.md.

  scripts/tuning_history.py --commit SHA [--out FILE]   each round's files as `git show SHA:PATH`
  scripts/tuning_history.py --tree DIR [--out FILE]     each file from DIR/PATH (tests, fixtures)
  scripts/tuning_history.py --table SWEEP.json [--mode cold]   one sweep's table (scripts/gpu tune)
  scripts/tuning_history.py --spread SWEEP.json [...]   each benchmark's repetitions: median, cv, each

The rounds' raw JSON left the tree after the commit the page names (git history keeps it), so the
page is generated from git: `--commit` reads every file at that commit (a few sources pin the
earlier commit their comparison needs; --tree reads those from DIR/PATH too). Each section has a
fixed HTML anchor (round-1 ... round-16, shapes-grid, batch16, spillfree, stability, early), cited
from kernels/; the question, what was kept and each run's filter are written here, the tables
come from the JSON (through bench_json.py). Same inputs, same bytes: no dates, no local paths.
Exit status: 0, 2 a file missing or unreadable.
"""
import argparse
import io
import math
import os
import re
import statistics
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402
from bench_json import BadInput, loads, loads_console, parse_name  # noqa: E402

OUT_DEFAULT = "results/h200/tuning.md"
D = "results/h200/diagnose/"
SWEEP_FLAGS = ("cold, `--benchmark_repetitions=5 --benchmark_enable_random_interleaving=true "
               "--benchmark_min_time=400x`, built with `-DRB_TUNING_BACKENDS=ON`")


def run(path, label=None, rev=None, rows=None, sizes=None, member=None, console=False):
    """One measured file of a section. rows: a regex the backend must match; sizes: the n kept;
    member: a file inside a .tgz; console: Google Benchmark's console table, not JSON; rev: read
    at this commit instead of --commit's."""
    return dict(path=path, label=label, rev=rev, rows=rows, sizes=sizes, member=member, console=console)


def p2(*exps):
    return [1 << e for e in exps]


SECTIONS = [
    dict(anchor="shapes-grid", title="The launch-shape grid (first session)", added="541d8e9",
         question="Which launch shape for onepass (17 `tune/onepass/t<threads>_u<loads>_b<blocks per SM>` "
                  "shapes), vec4 or vec4_ilp4 for cuda/auto, which Triton shapes?",
         how="every backend and the tuning grid (`tune/*`, Triton's too), cold, one run per size: "
             "`reduce_bench --benchmark_filter='/cold' --sizes=2^10,2^13,2^16,2^20,2^22,2^24,2^26,2^28,2^30`, "
             "built with `-DRB_TUNING_BACKENDS=ON`",
         kept="cuda/auto takes vec4_ilp4 from 2^21 (`kAutoIlp4MinN`); t512_u8_b2 is onepass's large shape "
              "and ref/read's (`ReadShape`); Triton two_pass b8192_w16, onepass b4096_w8_p4 "
              "(kernels/triton/tuning.hpp).",
         runs=[run("results/h200/tuning/tune_cold.json")]),
    dict(anchor="round-1", title="Round 1: CUB's two cold modes, the flush, the first completion's shapes",
         added="f877bd2",
         question="Why does CUB cold at 2^24 settle into one of two modes per run, and which shapes "
                  "(clusters, L2 prefetch hints `_pf`) suit the first slot-word completion?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass|tune/onepass/t(64_u8_b1|128_u8_b1|128_u4_b1|256_u8_b2|"
             "512_u8_b2|256_u4_b4|1024_u8_b1)(_pf)?|tune/cluster/.*)/[0-9]+/cold`, 2^10 … 2^22, 2^24; CUB alone "
             "at 2^24 with one flush pass (`RB_FLUSH_PASSES=1`, `cub_samples.json`) and two (`cub_flush2.json`), "
             "6 repetitions of 300 iterations",
         kept="Two flush passes before every cold iteration (CUB's repetitions below: one pass alternates "
              "between two modes, two agree); the cluster path dropped (a cluster launch costs ~0.4 µs "
              "more, b29af0c); plain `__ldg` loads (`_pf` not taken).",
         runs=[run(D + "1_flush_and_shapes/tune.json")],
         spreads=[(D + "1_flush_and_shapes/cub_samples.json", "one flush pass"),
                  (D + "1_flush_and_shapes/cub_flush2.json", "two flush passes")]),
    dict(anchor="round-2", title="Round 2: the last block polling one slot at a time", added="1ed4d53",
         question="Is a grid completed by its last block polling the slot words one at a time fast enough?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass|tune/onepass/t(128_u8_b1|128_u4_b1|256_u8_b2|512_u8_b2|"
             "256_u4_b4|512_u4_b4|256_u8_b4)|tune/cluster/t(256|512)_u4)/[0-9]+/cold`, sizes as round 1. "
             "The JSON was not written: the medians come from the console log (`logs.tgz`: `tune.log`), "
             "three significant figures",
         kept="No: each poll waits behind the blocks still streaming, slow at large n; round 3 polls a "
              "batch of slots per round trip.",
         runs=[run(D + "2_slot_completion_first/logs.tgz", member="tune.log", console=True)]),
    dict(anchor="round-3", title="Round 3: the last block as the fixed finisher, batched polls", added="1ed4d53",
         question="The grid's last block as the fixed finisher, polling a batch of slots at once; "
                  "do L2-only loads (`_cg`) help?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass|cuda/onepass_f64|tune/onepass/t(128_u8_b1|256_u4_b4|"
             "256_u8_b2|256_u8_b4|512_u8_b2|512_u4_b4|1024_u8_b1)(_cg)?)/[0-9]+/cold`, 2^10 … 2^22, 2^24, "
             "2^26, 2^28",
         kept="The last block polls a batch of slots per L2 round trip (slots.cuh: `take_slots`); loads "
              "stay `__ldg` (`_cg` within 0.1 µs of it).",
         runs=[run(D + "3_finisher_polls/tune.json")]),
    dict(anchor="round-4", title="Round 4: three completions side by side", added="ff620fb",
         question="The last block polling, a relaxed ticket then polls (`_ticket`), or the classic fenced "
                  "ticket (`_fenced`), on the mid (t256_u4_b4) and large (t512_u8_b2) shapes?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass|tune/onepass/t(256_u4_b4|512_u8_b2)(_ticket|_fenced)?)"
             "/[0-9]+/cold`, 2^12, 2^14 … 2^22, 2^24, 2^26, 2^28",
         kept="The fenced ticket dropped (0.3-0.6 µs slower than the relaxed one); a hybrid: the last block "
              "polling below 2^23, the ticket from 2^23, where a 264-block grid took two batches of 8 "
              "slots per lane (see [batch16](#batch16)); Mid shape up to 3x2^18.",
         runs=[run(D + "4_completions/tune.json")]),
    dict(anchor="round-5", title="Round 5: the hybrid completion, one-warp tiny shapes", added="3f98375",
         question="Does the hybrid (last block below 2^23, ticket above) hold, and do one-warp shapes "
                  "(t32_u32_b1, t32_u16_b1, t64_u16_b1) serve tiny n?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass|cuda/onepass_f64|tune/onepass/t(32_u32_b1|64_u16_b1|"
             "32_u16_b1|128_u8_b1|256_u4_b4|512_u8_b2)(_ticket)?)/[0-9]+/cold`, 2^10 … 2^14, 2^18 … 2^24, "
             "2^26, 1e6, 1e7",
         kept="The hybrid stayed until rounds 7-8; no one-warp shape: tiny n went to the lean "
              "single-block kernel of round 6.",
         runs=[run(D + "5_hybrid/tune.json")]),
    dict(anchor="round-6", title="Round 6: the lean single-block kernel", added="3f98375",
         question="Up to one tile, does a lean single-block kernel (`tune/single/*`: no completion, no "
                  "64-bit chunk arithmetic) beat one block of the general kernel?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass|tune/single/.*|tune/onepass/t128_u8_b1)/[0-9]+/(cold|hot)`, "
             "2^10 … 2^14, 3000, 5000; SASS instructions per kernel below",
         kept="Tiny: single t256_u4 for n <= 4096; Small: single t512_u8 for n <= 16384 "
              "(`OnepassTinyShape`, `OnepassSmallShape`): 0.2-0.3 µs faster up to 8192 floats, within "
              "0.1 µs at 16384.",
         runs=[run(D + "6_single_block/tune.json")],
         texts=[(D + "6_single_block/sass_sizes.txt", "SASS instructions per kernel (`cuobjdump -sass`)", "sass")]),
    dict(anchor="round-7", title="Round 7: speculative slot loads", added="e577c7a",
         question="Every block loading all slots while its relaxed ticket is in flight (`_spec`), beside the "
                  "ticket and the last block polling, now with one 16-slot batch per lane?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass|tune/onepass/t(256_u4_b4|512_u8_b2|1024_u8_b1)"
             "(_ticket|_spec)?)/[0-9]+/cold`, 2^17, 2^18, 2^19, 1e6, 2^20 … 2^26, 2^28",
         kept="Speculative loads dropped (0.2-0.7 µs slower; the code is at 7f70128); the last block polling "
              "wins at every n.",
         runs=[run(D + "7_speculative/tune.json")]),
    dict(anchor="round-8", title="Round 8: an idle finisher block", added="2d30c70",
         question="One extra block that reads no input and polls from the start (`_idle`)?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass|tune/onepass/t(256_u4_b4|512_u8_b2)(_ticket|_idle)?)"
             "/[0-9]+/cold`, 2^15, 2^17, 2^18, 2^19, 1e6, 2^20 … 2^26, 2^28",
         kept="No idle block (no better, often worse; the code is at e577c7a); the last block polls for "
              "every grid, the ticket path gone; Mid below 3x2^18, Large from it (`kOnepassLargeMinN`: Large "
              "won 2^19 by 0.1 µs in float here, but not in double, see [spillfree](#spillfree)).",
         runs=[run(D + "8_idle_finisher/tune.json")]),
    dict(anchor="round-9", title="Round 9: the whole last block collects", added="55082fa",
         question="The last block collecting the partials with all its threads (`_block`) instead of its "
                  "warp 0? (This build had the spill-free warp loop: see [spillfree](#spillfree).)",
         how="`^(cub|ref/read|ref/launch|cuda/onepass|cuda/onepass_f64|tune/onepass/t(256_u4_b4|512_u8_b2)"
             "(_block)?)/[0-9]+/cold`, sizes as round 8",
         kept="The whole block collects above 2^22 (`kOnepassBlockCollectMinN`, FinishBlock): ~0.3 µs "
              "dearer on small grids, 0.3-0.5 µs cheaper from 2^24.",
         runs=[run(D + "9_block_collect/tune.json")]),
    dict(anchor="round-10", title="Round 10: the whole-block collection, confirmed", added="8ad9182",
         question="The same on the large shape around the switch, 2^19 … 2^27?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass|cuda/onepass_f64|tune/onepass/t512_u8_b2(_block)?)"
             "/[0-9]+/cold`, 2^19 … 2^27",
         kept="Confirms round 9 from 2^23 (the per-repetition times show a two-state completion at "
              "2^20-2^21).",
         runs=[run(D + "10_block_confirm/tune.json")]),
    dict(anchor="round-11", title="Round 11: bulk L2 prefetch ahead", added="4bb3f4f",
         question="Thread 0 of each block bulk-prefetching the block's next 1, 2 or 4 steps into L2 "
                  "(`_ahead1/2/4`, `cp.async.bulk.prefetch.L2.global`), float and double?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass(_f64)?|tune/onepass(_f64)?/t(512_u8_b2(_block(_ahead[124])?)?|"
             "256_u4_b4))/[0-9]+/cold`, 2^19, 1e6, 2^20, 2^22, 2^23, 1e7, 2^24, 2^25, 2^26, 2^28",
         kept="Not kept (15-19% slower at 2^24, 12-37% at 2^28; the code is not kept); the first double "
              "rows beside float.",
         runs=[run(D + "11_l2_ahead/tune.json")]),
    dict(anchor="round-12", title="Round 12: how a double accumulator takes a float4", added="4bb3f4f",
         question="4 conversions per float4 (the kernel), 2 after exact float two-sums (`_twosum`), or 1 "
                  "after a float sum (`_floatsum`, a probe that rounds like float)?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass(_f64)?|tune/onepass/t(512_u8_b2|256_u4_b4)|"
             "tune/onepass_f64/t(512_u8_b2(_block)?|256_u4_b4)(_twosum|_floatsum)?)/[0-9]+/cold`, 2^19, 2^20, "
             "2^22, 2^23, 1e7, 2^24, 2^25, 2^26, 2^28",
         kept="4 conversions (each float widened): `_twosum` is slower; the conversions are about two "
              "thirds of the float-double gap (the `_floatsum` probe), the double partials and trees the rest.",
         runs=[run(D + "12_widen/tune.json")]),
    dict(anchor="round-13", title="Round 13: half-phase warps, four blocks per SM", added="4bb3f4f",
         question="Odd warps taking half a step first so their conversions overlap the even warps' loads "
                  "(`_half`); four blocks of 256 per SM (`t256_u8_b4_block`)?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass(_f64)?|tune/onepass(_f64)?/t(512_u8_b2|256_u8_b4)_block"
             "(_half|_floatsum)?)/[0-9]+/cold`, 2^23 … 2^28, 2^30. This device instance ran ~2% slower "
             "throughout: compare within the run",
         kept="Neither: `_half` slower (the code is not kept), four blocks of 256 a tie.",
         runs=[run(D + "13_half_phase/tune.json")]),
    dict(anchor="round-14", title="Round 14: rolling loads", added="c2ad5af",
         question="Loading each float4 of the next step as soon as its slot is added (`_roll`), at 4 loads "
                  "in flight, the only depth where ptxas keeps that order?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass(_f64)?|tune/onepass(_f64)?/t(512_u8_b2|512_u4_b2|"
             "1024_u4_b1)_block(_roll)?)/[0-9]+/cold`, 2^23 … 2^26, 2^28, 2^30",
         kept="Not kept: rolling ties batched at 4 loads in flight, and both trail 8 batched loads "
              "(t512_u8_b2).",
         runs=[run(D + "14_rolling/tune.json")]),
    dict(anchor="round-15", title="Round 15: where onepass_f64's time goes (Nsight Compute)", added="e44b406",
         question="How busy are the SM's pipes and issue slots in cuda/onepass and cuda/onepass_f64 at "
                  "2^22 and 2^24? (A profile, not a sweep: no timing table.)",
         how="`scripts/ncu_table.py --pipes` (now `scripts/gpu profile OUT --pipes ...`)",
         kept="Nothing changed: the conversions run on the XU pipe, 24.9% busy at 2^24, which explains "
              "round 12's gap.",
         runs=[],
         texts=[(D + "15_f64_pipes/command.txt", "The command", "code"),
                (D + "15_f64_pipes/ncu_pipes.md", "The table (`ncu_pipes.md`)", "markdown")]),
    dict(anchor="round-16", title="Round 16: the last block's slot loads before its own tree", added="36d1cff",
         question="The last block's warp 0 issuing its slot loads before its own block tree (`_early`) "
                  "instead of after it, mid and large shapes, float and double?",
         how="`^(cub|ref/read|ref/launch|cuda/onepass(_f64)?|tune/onepass(_f64)?/t(256_u4_b4|512_u8_b2)(_early)?)"
             "/[0-9]+/cold`, 2^15 … 2^19, 1e6, 2^20 … 2^24",
         kept="FinishEarly (finish_early.cuh) for cuda/onepass up to 2^22: 0.1-0.4 µs faster up "
              "to 2^18; one batch of 256 slots, so the whole block collects above 2^22.",
         runs=[run(D + "16_early/tune.json")]),
    dict(anchor="batch16", title="One batch of 16 slots per lane, or two of 8", added="57ce471 and 3d768c4",
         question="A 264-block grid (2^23 and up on the large shape): do the partials cost one L2 round "
                  "trip (one batch of 16 slots per lane) or two (two batches of 8)?",
         how="the kernel sweep (`scripts/gpu kernels`: cub, ref/*, cuda/* cold, every default size, 5 "
             "randomly interleaved repetitions) at 57ce471 (`kernels/`: two batches of 8) and at the "
             "next commit (`kernels_batch16/`: one of 16); sizes from 2^20 shown",
         kept="Batch = 16 for the warp collection (experimental/completions.cuh; FinishBlock collects 4 per thread): two batches were 0.5-1 µs slower from 2^23.",
         runs=[run("results/h200/kernels/kernels.json", label="two batches of 8",
                   rows=r"^(cub|ref/read|cuda/onepass|cuda/onepass_f64)$", sizes=p2(*range(20, 32))),
               run("results/h200/kernels_batch16/kernels.json", label="one batch of 16",
                   rows=r"^(cub|ref/read|cuda/onepass|cuda/onepass_f64)$", sizes=p2(*range(20, 32)))]),
    dict(anchor="spillfree", title="The spill-free warp collection, the switch at 2^19", added="f16e041, f9c754a and fb2f9d0",
         question="A spill-free form of the warp collection loop against the one that spills (40 bytes in "
                  "float, 96 in double, in the completion only), and the mid/large switch at 2^19?",
         how="the kernel sweep: `kernels_spillfree/` (spill-free loop, Large from 2^19) against "
             "`kernels_final/` as first committed (f9c754a: the spilling loop, Large from 3x2^18); "
             "`kernels_final/` as last committed (36d1cff: the current kernels, with FinishEarly) for "
             "reference; sizes 2^13 … 2^22",
         kept="The loop that spills (the spill-free one lost 0.3-0.6 µs on grids of 8-16 blocks, 2^15-2^16); "
              "Large from 3x2^18 (onepass_f64 took 0.5 µs longer at 2^19 on the large shape).",
         runs=[run("results/h200/kernels_spillfree/kernels.json", label="spill-free, f16e041",
                   rows=r"^(cub|ref/read|cuda/onepass|cuda/onepass_f64)$", sizes=p2(*range(13, 23))),
               run("results/h200/kernels_final/kernels.json", label="spilling, f9c754a",
                   rev="f9c754ab2d479821a0b6670e2726c836e490dbe3",
                   rows=r"^(cub|ref/read|cuda/onepass|cuda/onepass_f64)$", sizes=p2(*range(13, 23))),
               run("results/h200/kernels_final/kernels.json", label="current, 36d1cff",
                   rows=r"^(cub|ref/read|cuda/onepass|cuda/onepass_f64)$", sizes=p2(*range(13, 23)))]),
    dict(anchor="stability", title="Stability of the cold timing (first session)", added="d5a2415",
         question="How far do repetitions of one cold benchmark spread with fixed iteration counts, "
                  "with the launch-hiding spin's length, and interleaved?",
         how="`reduce_bench` on the files named in each row (iterations: `--benchmark_min_time=<N>x`; "
             "spin: `RB_SPIN_US=<us>`; interleaved: `--benchmark_enable_random_interleaving=true`)",
         kept="Neither the iteration count nor the spin's length removes CUB's two modes at 2^24 (cv "
              "2.3-2.7% throughout; round 1 traced them to the flush: two passes since); the CPU acceptance "
              "ratios at 2^28 read from interleaved repetitions (archive/2026-11-30-98b0463/"
              "cpu_acceptance_interleaved.md).",
         runs=[],
         spreads=[("results/h200/stability/cv_2e24_2e28.json", "10 repetitions"),
                  ("results/h200/stability/cub_2e24_cold_iters_1000x.json", "1000 iterations"),
                  ("results/h200/stability/cub_2e24_cold_iters_1327x.json", "1327 iterations"),
                  ("results/h200/stability/cub_2e24_cold_iters_2000x.json", "2000 iterations"),
                  ("results/h200/stability/cub_2e24_cold_spin_20.json", "20 µs spin"),
                  ("results/h200/stability/cub_2e24_cold_spin_60.json", "60 µs spin"),
                  ("results/h200/stability/cub_2e24_cold_spin_200.json", "200 µs spin"),
                  ("results/h200/stability/cub_onepass_2e24_interleaved.json", "interleaved"),
                  ("results/h200/stability/cub_onepass_small_n_interleaved.json", "interleaved"),
                  ("results/h200/stability/cpu_2e28_interleaved.json", "interleaved")]),
    dict(anchor="early", title="The first validation run (globaltimer spin)", added="755a60f",
         question="The harness's first run on the H200, its spin kernel still timed on `%globaltimer` "
                  "(commit 118cabd): how stable is CUB cold?",
         how="`reduce_bench --benchmark_filter='^cub/' --sizes=2^10,2^12,2^13,2^16,2^20,2^22,2^24,2^26,2^28,"
             "2^30,2^31` and `--benchmark_filter='^cub/.*/cold' --sizes=2^24,2^28 --benchmark_repetitions=10`",
         kept="At 2^24 CUB's repetitions alternate between ~21.1 and ~22.1 µs (cv 2.4%): the symptom that "
              "led to the clock64 spin with dither.",
         runs=[run("results/h200/early/cub_globaltimer_spin.json")],
         spreads=[("results/h200/early/cub_reps_globaltimer_spin.json", "10 repetitions")]),
]

ORDER = ["shapes-grid"] + ["round-%d" % k for k in range(1, 17)] + ["batch16", "spillfree", "stability", "early"]


# ---------------------------------------------------------------------------------------------
# Reading files at a commit, or from a directory
# ---------------------------------------------------------------------------------------------

class Missing(Exception):
    pass


class GitFiles:
    def __init__(self, commit):
        self.commit = self._git("rev-parse", "--verify", commit + "^{commit}").decode().strip()

    @staticmethod
    def _git(*args):
        p = subprocess.run(["git"] + list(args), capture_output=True)
        if p.returncode != 0:
            raise Missing("git {}: {}".format(" ".join(args), p.stderr.decode(errors="replace").strip()))
        return p.stdout

    def read(self, path, rev=None):
        return self._git("show", "{}:{}".format(rev or self.commit, path))

    def origin(self):
        return "--commit " + self.commit


class TreeFiles:
    def __init__(self, root):
        self.root = root

    def read(self, path, rev=None):
        full = os.path.join(self.root, path)
        try:
            with open(full, "rb") as f:
                return f.read()
        except OSError as e:
            raise Missing("{}: {}".format(full, e.strerror or e))

    def origin(self):
        return "--tree " + self.root


def read_run(files, r):
    data = files.read(r["path"], r["rev"])
    source = r["path"]
    if r["member"]:
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            names = [m for m in tar.getnames() if os.path.basename(m) == r["member"]]
            if not names:
                raise Missing("{}: no {} inside".format(source, r["member"]))
            data = tar.extractfile(sorted(names)[0]).read()
        source += ":" + r["member"]
    return (loads_console if r["console"] else loads)(data, source)


# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------

def fmt_n(n):
    if n > 0 and n & (n - 1) == 0:
        return "2^{}".format(n.bit_length() - 1)
    if n >= 10000:
        e = len(str(n)) - 1
        if n % 10 ** e == 0:
            return "{}e{}".format(n // 10 ** e, e)
    return str(n)


def fmt_us(t):
    return "{:.2f}".format(t) if t < 1000 else "{:.1f}".format(t)


def fmt_3(t):
    """Three significant figures, as Google Benchmark's console prints times (4.00, 12.0, 140)."""
    if t <= 0:
        return "0"
    return "{:.{}f}".format(t, max(0, 2 - int(math.floor(math.log10(t)))))


def natural(text):
    return [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.split(r"(\d+)", text) if x]


def row_key(backend):
    if backend == "cub":
        group = 0
    elif backend.startswith("cuda/"):
        group = 1
    elif backend.startswith("tune/"):
        group = 3
    elif backend.startswith("ref/"):
        group = 4
    else:
        group = 2
    return (group, natural(backend))


def cells_of(benches, mode, rows=None, sizes=None):
    """{backend: {n: cell text or median}} for one mode."""
    pattern = re.compile(rows) if rows else None
    table = {}
    for bench in benches.values():
        parsed = parse_name(bench.name)
        if not parsed or parsed[2] != mode:
            continue
        backend, n, _ = parsed
        if pattern and not pattern.search(backend):
            continue
        if sizes and n not in sizes:
            continue
        median = bench.median()
        if median is not None:
            value = median
        elif bench.errors:
            value = "error"
        elif bench.skips:
            value = "skip"
        else:
            continue
        table.setdefault(backend, {})[n] = value
    return table


def median_table(parts):
    """Markdown: one row per (backend, part), one column per n. parts: [(label or None, {backend: {n:
    value}}, precise)]; precise False: values as printed on the console (three significant figures).
    Bold: the fastest of two or more rows of a column that are not ref/*."""
    rows = []
    for index, (label, table, precise) in enumerate(parts):
        for backend, by_n in table.items():
            rows.append((row_key(backend), index, backend if label is None else "{} ({})".format(backend, label), by_n,
                         backend.startswith("ref/"), precise))
    rows.sort(key=lambda r: (r[0], r[1]))
    sizes = sorted({n for r in rows for n in r[3]})
    best = {}
    for n in sizes:
        timed = [r[3][n] for r in rows if not r[4] and isinstance(r[3].get(n), float)]
        best[n] = min(timed) if len(timed) > 1 else None
    lines = ["| backend | " + " | ".join(fmt_n(n) for n in sizes) + " |",
             "|---|" + "---:|" * len(sizes)]
    for _, _, name, by_n, is_ref, precise in rows:
        cells = []
        for n in sizes:
            v = by_n.get(n)
            if v is None:
                cells.append("-")
            elif isinstance(v, str):
                cells.append(v)
            else:
                text = fmt_us(v) if precise else fmt_3(v)
                cells.append("**{}**".format(text) if not is_ref and v == best[n] else text)
        lines.append("| {} | ".format(name) + " | ".join(cells) + " |")
    return lines


def spread_table(items):
    """Markdown: per benchmark of each file, the repetitions' spread. items: [(path, label, benches)]."""
    lines = ["| file | benchmark | repetitions | median µs | min | max | cv % | each repetition (µs) |",
             "|---|---|---:|---:|---:|---:|---:|---|"]
    for path, label, benches in items:
        def key(bench):
            parsed = parse_name(bench.name)
            return (row_key(parsed[0]), parsed[1], parsed[2]) if parsed else ((9, []), 0, bench.name)

        for bench in sorted(benches.values(), key=key):
            parsed = parse_name(bench.name)
            name = "{} {} {}".format(parsed[0], fmt_n(parsed[1]), parsed[2]) if parsed else bench.name
            t = bench.samples
            if not t:
                continue
            cv = "{:.2f}".format(statistics.stdev(t) / statistics.mean(t) * 100) if len(t) > 1 else "-"
            each = ", ".join("{:.2f}".format(x) for x in t) if len(t) <= 10 else "(more than 10)"
            lines.append("| `{}`{} | {} | {} | {} | {} | {} | {} | {} |".format(
                os.path.basename(path), " ({})".format(label) if label else "", name, len(t), fmt_us(statistics.median(t)), fmt_us(min(t)),
                fmt_us(max(t)), cv, each))
    return lines


def text_block(text, kind):
    text = text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text
    lines = [l.rstrip() for l in text.strip("\n").splitlines()]
    if kind == "markdown":
        return lines
    if kind == "sass":
        lines = [re.sub(r"^(\d+) (\S{0,110})\S*$", lambda m: "{:>5} {}".format(m.group(1), m.group(2)), l)
                 for l in lines]
    return ["```"] + lines + ["```"]


# ---------------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------------

def section(files, s):
    out = ['<a id="{}"></a>'.format(s["anchor"]), "", "## {}".format(s["title"]), ""]
    out.append("**Question:** {}".format(s["question"]))
    out.append("")
    paths = sorted({r["path"] for r in s["runs"]} | {p for p, _ in s.get("spreads", [])}
                   | {p for p, _, _ in s.get("texts", [])})
    dirs = sorted({os.path.dirname(p) + "/" for p in paths})
    out.append("**Measured:** {}; files: {} (committed in {}).".format(
        s["how"], ", ".join("`{}`".format(d) for d in dirs), s["added"]))
    out.append("")
    contexts = []
    for r in s["runs"]:
        context, _ = read_run(files, r)
        if context.get("date"):
            contexts.append("`{}`{}: {}, {}".format(
                os.path.basename(r["path"]), " ({})".format(r["label"]) if r["label"] else "",
                context.get("date"), context.get("l2_flush", "flush not recorded")))
    if contexts:
        out += ["**Runs:** " + "; ".join(contexts) + ".", ""]
    out.append("**Kept:** {}".format(s["kept"]))
    out.append("")
    for mode in ("cold", "hot"):
        parts = []
        for r in s["runs"]:
            _, benches = read_run(files, r)
            table = cells_of(benches, mode, r["rows"], r["sizes"])
            if table:
                parts.append((r["label"], table, not r["console"]))
        if parts:
            if mode == "hot":
                out += ["Hot (the input resident in L2):", ""]
            out += median_table(parts) + [""]
    if s.get("spreads"):
        items = []
        for path, label in s["spreads"]:
            _, benches = loads(files.read(path), path)
            items.append((path, label, benches))
        out += ["Repetitions:", ""] + spread_table(items) + [""]
    for path, title, kind in s.get("texts", []):
        out += [title + ":", ""] + text_block(files.read(path), kind) + [""]
    return out


def page(files, command):
    by_anchor = {s["anchor"]: s for s in SECTIONS}
    lines = [
        "# Tuning history of the hand-written kernels (H200, 2026-11-30)",
        "",
        "Generated by `{}`: do not edit by hand. It reads each round's "
        "JSON as committed (the raw files left the tree after that commit; `git show <commit>:<path>` "
        "gives them back).".format(command),
        "",
        "Each table: median µs of the repetitions (5 randomly interleaved unless the section says "
        "otherwise), cold (the L2 flushed before every iteration) unless marked hot, one row per "
        "backend, one column per n; **bold** is the fastest row that is not `ref/*` in its column, `-` "
        "not measured, `skip` a size the backend does not take. Each call may land on another machine "
        "instance: compare rows within one table. The current kernels and their sweep: "
        "[README.md](README.md).",
        "",
        "Row names: `tune/onepass/t<threads>_u<float4 loads in flight>_b<blocks per SM>` (a grid), "
        "`tune/single/t<threads>_u<loads>` (one block), `tune/onepass_f64/...` the same in double; "
        "suffixes name the variant a round tried (`_ticket`, `_block`, `_early`, ...). Tuning sweeps "
        "ran " + SWEEP_FLAGS + ", torch and Triton off, unless the section says otherwise.",
        "",
    ]
    for anchor in ORDER:
        lines.append("- [{}](#{})".format(by_anchor[anchor]["title"], anchor))
    lines.append("")
    for anchor in ORDER:
        lines += section(files, by_anchor[anchor])
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--commit", help="read every file as `git show COMMIT:PATH`")
    src.add_argument("--tree", help="read every file from TREE/PATH")
    src.add_argument("--table", metavar="SWEEP.json", help="print one sweep's median table")
    src.add_argument("--spread", metavar="SWEEP.json", nargs="+", help="print each benchmark's repetitions")
    ap.add_argument("--mode", default="cold", help="with --table: cold or hot (default cold)")
    ap.add_argument("--out", help="write the page here (default: stdout)")
    args = ap.parse_args(argv)
    try:
        if args.spread:
            items = []
            for path in args.spread:
                with open(path, "rb") as f:
                    items.append((path, "", loads(f.read(), path)[1]))
            text = "\n".join(spread_table(items)) + "\n"
        elif args.table:
            with open(args.table, "rb") as f:
                _, benches = loads(f.read(), args.table)
            table = cells_of(benches, args.mode)
            text = "\n".join(median_table([(None, table, True)])) + "\n" if table else "(no {} rows)\n".format(args.mode)
        else:
            files = GitFiles(args.commit) if args.commit else TreeFiles(args.tree)
            command = "scripts/tuning_history.py {}{}".format(files.origin(),
                                                              " --out " + args.out if args.out else "")
            text = page(files, command)
    except OSError as e:
        print("tuning_history: {}".format(e), file=sys.stderr)
        return 2
    except (Missing, BadInput, tarfile.TarError) as e:
        print("tuning_history: {}".format(e), file=sys.stderr)
        return 2
    bench_json.emit(text, args.out if not (args.table or args.spread) else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
