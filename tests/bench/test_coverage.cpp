// The coverage of the stopping rule's interval (bench/detail/sampling.hpp) on simulated timings: how
// often the reported interval holds the true median, within one run and across repetitions.
#include "bench/detail/repetitions.hpp"
#include "bench/detail/sampling.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

namespace {

using rb::bench::Sampler;
using rb::bench::StopRule;
using rb::bench::RunInterval;
using rb::bench::SampleStats;

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// A simulated benchmark: seconds per sample, base times a factor drawn from the case's law.
struct Stream {
  enum class Law { normal, lognormal, outliers, ar1, walk } law;
  double spread;        // normal, outliers, walk: cv; lognormal, ar1: sigma of the log
  double p_slow = 0;    // outliers: the share 10x slower
  double phi = 0;       // ar1, walk: on the log
  double level = 0;     // walk: the stationary sigma of the slow level's log, under white noise of cv spread
  // The median of the factor: 1, but for the outliers' mixture, whose median solves
  // (1 - p) Phi((m - 1) / cv) + p Phi((m / 10 - 1) / cv) = 1/2 (bisection).
  double true_median() const {
    if (law != Law::outliers) return 1;
    double lo = 0.5, hi = 2;
    for (int i = 0; i < 200; ++i) {
      const double m = (lo + hi) / 2;
      const double f = (1 - p_slow) * normal_cdf((m - 1) / spread) + p_slow * normal_cdf((m / 10 - 1) / spread);
      (f < 0.5 ? lo : hi) = m;
    }
    return (lo + hi) / 2;
  }
};

struct Draw {
  Draw(const Stream& law, std::uint64_t seed) : s(law), rng(seed) {
    // 10 us .. 1 ms a sample, log-uniform: max_time (0.2 s) binds from 0.2 ms a sample on.
    base = 1e-5 * std::pow(100.0, std::uniform_real_distribution<double>(0, 1)(rng));
    e = (law.law == Stream::Law::walk ? law.level : law.spread) * z(rng);  // ar1, walk: from its stationary law
  }
  double next() {
    switch (s.law) {
      case Stream::Law::normal: return base * (1 + s.spread * z(rng));
      case Stream::Law::lognormal: return base * std::exp(s.spread * z(rng));
      case Stream::Law::outliers: return base * (1 + s.spread * z(rng)) * (slow(rng) < s.p_slow ? 10 : 1);
      case Stream::Law::ar1:
        e = s.phi * e + std::sqrt(1 - s.phi * s.phi) * s.spread * z(rng);
        return base * std::exp(e);
      case Stream::Law::walk:
        e = s.phi * e + std::sqrt(1 - s.phi * s.phi) * s.level * z(rng);
        return base * std::exp(e) * (1 + s.spread * z(rng));
    }
    return 0;
  }
  const Stream& s;
  std::mt19937_64 rng;
  std::normal_distribution<double> z;
  std::uniform_real_distribution<double> slow;
  double base = 0, e = 0;
};

struct Coverage {
  int runs = 0, covered = 0, met = 0, met_covered = 0, flagged = 0, missed_unflagged = 0;
  double typical_samples = 0;
  double share(int n) const { return static_cast<double>(n) / runs; }
};

// `runs` runs of the default rule, the wall clock the sum of the samples so far. A run covers when
// [median (1 - precision), median (1 + precision)] holds the stream's true median.
Coverage coverage(const Stream& stream, int runs, std::uint64_t seed0) {
  Coverage c;
  std::vector<double> counts;
  const double truth = stream.true_median();
  for (int r = 0; r < runs; ++r) {
    Draw draw(stream, seed0 + static_cast<std::uint64_t>(r));
    Sampler s(StopRule{});
    double wall = 0;
    do {
      const double dt = draw.next();
      s.add(dt);
      wall += dt;
    } while (!s.done(wall));
    const auto st = s.stats();
    const bool covered = std::abs(st.median - truth * draw.base) <= st.precision * st.median;
    const bool flagged = !st.target_met || st.correlated || st.unstable || st.drift;
    ++c.runs;
    c.covered += covered;
    c.met += st.target_met;
    c.met_covered += st.target_met && covered;
    c.flagged += st.correlated || st.unstable || st.drift;
    c.missed_unflagged += !covered && !flagged;
    counts.push_back(static_cast<double>(st.count));
  }
  c.typical_samples = rb::bench::quantile(counts, 0.5);
  return c;
}

// The default rule on eight laws of timing, 2000 runs each. Asserted: for the laws without
// dependence, the runs that report target_met hold the true median in >= 93% (95% nominal); for
// every law, the misses are flagged (target_met 0, correlated, unstable or drift) but for at most
// 7% of its runs. Correlated runs are counted short (target_met 0). The outliers sit
// on a quiet base (cv 0.5%), where the interval can close at min_samples, before most runs have
// drawn an outlier; the quiet AR(1) tests min_samples against a correlation not yet visible.
TEST(Coverage, DefaultRuleHoldsTheTrueMedian) {
  struct Row {
    const char* name;
    Stream stream;
    bool independent = false;
    bool asserted = true;
  };
  const Row rows[] = {
      {"normal, cv 2%", {Stream::Law::normal, 0.02}, true},
      {"lognormal, sigma 0.05", {Stream::Law::lognormal, 0.05}, true},
      {"1% at 10x, else normal cv 0.5%", {Stream::Law::outliers, 0.005, 0.01}, true},
      {"5% at 10x, else normal cv 0.5%", {Stream::Law::outliers, 0.005, 0.05}, true},
      {"AR(1) phi 0.9 on the log, sigma 0.02", {Stream::Law::ar1, 0.02, 0, 0.9}},
      {"AR(1) phi 0.9 on the log, sigma 0.005", {Stream::Law::ar1, 0.005, 0, 0.9}},
      {"AR(1) phi 0.99 on the log, sigma 0.02", {Stream::Law::ar1, 0.02, 0, 0.99}},
      // A level that wanders within the run under white noise: the blocks flag most runs, but about
      // 1 in 12 stops on a narrow interval unflagged. Printed; the repetitions' test covers it.
      {"level AR(1) phi 0.9, sigma 1%, under normal cv 1%", {Stream::Law::walk, 0.01, 0, 0.9, 0.01}, false, false},
  };
  constexpr int kRuns = 2000;
  std::printf(
      "| distribution | runs | interval holds the true median | target_met | flagged correlated/unstable/drift | "
      "typical samples |\n");
  std::printf("|---|---|---|---|---|---|\n");
  std::uint64_t seed = 1;
  for (const Row& row : rows) {
    const Coverage c = coverage(row.stream, kRuns, seed);
    seed += 1'000'000;
    std::printf("| %s%s | %d | %.1f%% (target_met: %.1f%%) | %.1f%% | %.1f%% | %.0f |\n", row.name,
                row.asserted ? "" : " (not asserted)", c.runs,
                100 * c.share(c.covered), c.met ? 100.0 * c.met_covered / c.met : 0.0, 100 * c.share(c.met),
                100 * c.share(c.flagged), c.typical_samples);
    // A rule that never stopped on precision would pass the rest: the laws without dependence
    // meet the target in most runs (correlated runs are counted short).
    if (row.independent) {
      EXPECT_GT(c.met, kRuns / 2) << row.name;
      EXPECT_GE(static_cast<double>(c.met_covered) / c.met, 0.93) << row.name;
    }
    if (row.asserted) {
      EXPECT_TRUE(c.share(c.covered) >= 0.93 || c.share(c.missed_unflagged) <= 0.07) << row.name;
    }
  }
}

// What one run cannot see, for the test below: a level that moves slower than the run lasts
// (its AR(1) on the log), or a state drawn per run or per process (+0 or +level, or normal).
enum class LevelKind { slow_level, state_per_run, two_states_per_run, two_states_per_process };
struct LevelLaw {
  const char* name;
  LevelKind kind;
  double phi, level, white;  // the level's AR(1) on the log (slow_level), or the states' spread
  bool asserted = true;
};

// One simulated process running a row `reps` times under the default rule, `gap` samples of other
// rows between its repetitions (a slow level moves on meanwhile).
std::vector<SampleStats> one_process(const LevelLaw& law, std::uint64_t seed, int reps, int gap) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z;
  std::bernoulli_distribution coin(0.5);
  double e = law.level * z(rng);  // slow_level: from its stationary law
  const double process_state = coin(rng) ? law.level : 0;
  const auto step = [&] { e = law.phi * e + std::sqrt(1 - law.phi * law.phi) * law.level * z(rng); };
  std::vector<SampleStats> runs;
  for (int r = 0; r < reps; ++r) {
    double state = 0;
    switch (law.kind) {
      case LevelKind::slow_level: break;
      case LevelKind::state_per_run: state = law.level * z(rng); break;
      case LevelKind::two_states_per_run: state = coin(rng) ? law.level : 0; break;
      case LevelKind::two_states_per_process: state = process_state; break;
    }
    Sampler s(StopRule{});
    double wall = 0;
    do {
      if (law.kind == LevelKind::slow_level) step();
      const double dt = 50e-6 * std::exp(e + state) * (1 + law.white * z(rng));
      s.add(dt);
      wall += dt;
    } while (!s.done(wall));
    runs.push_back(s.stats());
    if (law.kind == LevelKind::slow_level) {
      for (int i = 0; i < gap; ++i) step();
    }
  }
  return runs;
}

// Over the repetitions of every process: how many hold the true median, meet the target, both, or
// hold it or are counted short, each interval widened by the scatter between a process's repetitions.
struct RepetitionCoverage {
  int reps = 0, covered = 0, met = 0, met_covered = 0, short_or_covered = 0;

  void add(const LevelLaw& law, const std::vector<SampleStats>& runs) {
    std::vector<RunInterval> intervals;
    for (const auto& st : runs) intervals.push_back({st.median, st.precision});
    const double between = rb::bench::between_repetitions(intervals);
    // Two states: the true median lies halfway, by symmetry (white noise small against the gap).
    const bool two_states = law.kind == LevelKind::two_states_per_run || law.kind == LevelKind::two_states_per_process;
    const double truth = 50e-6 * (two_states ? std::exp(law.level / 2) : 1.0);
    for (const auto& st : runs) {
      const double precision = rb::bench::widened(st.precision, between);
      const bool target_met = st.target_met && precision <= StopRule{}.target;
      const bool holds = std::abs(st.median - truth) <= precision * st.median;
      ++reps;
      covered += holds;
      met += target_met;
      met_covered += target_met && holds;
      short_or_covered += holds || !target_met;
    }
  }
};

// Each simulated process runs a row R = 5 times (repetitions, other rows' samples between them);
// each repetition's interval is widened by the scatter between the five (bench/detail/repetitions.hpp).
// Asserted per law: a repetition holds the true median or is counted short (target_met 0) in
// >= 93% of repetitions. A state drawn once per process is printed, not asserted: no run of one
// process sees it.
TEST(Coverage, RepetitionsCoverWhatOneRunCannotSee) {
  using enum LevelKind;
  const LevelLaw laws[] = {
      {"level AR(1) phi 0.999, sigma 0.4%, under normal cv 1%", slow_level, 0.999, 0.004, 0.01},
      {"level AR(1) phi 0.99, sigma 0.4%, under normal cv 1%", slow_level, 0.99, 0.004, 0.01},
      {"level AR(1) phi 0.9, sigma 1%, under normal cv 1%", slow_level, 0.9, 0.01, 0.01},
      {"a state per run, normal sigma 1%, under normal cv 0.5%", state_per_run, 0, 0.01, 0.005},
      {"two states per run (+0 or +2%), under normal cv 0.5%", two_states_per_run, 0, 0.02, 0.005},
      {"two states per process (+0 or +2%), under normal cv 0.5%", two_states_per_process, 0, 0.02, 0.005, false},
  };
  constexpr int kProcesses = 400, kReps = 5, kGap = 2000;  // kGap: samples of other rows between repetitions
  std::printf("| law | repetitions | holds the true median | target_met | holds or counted short | "
              "holds, of target_met |\n|---|---|---|---|---|---|\n");
  std::uint64_t seed = 90'000'000;
  for (const LevelLaw& law : laws) {
    RepetitionCoverage c;
    for (int p = 0; p < kProcesses; ++p) c.add(law, one_process(law, seed++, kReps, kGap));
    const auto pct = [&](int n, int of) { return of ? 100.0 * n / of : 0.0; };
    std::printf("| %s%s | %d | %.1f%% | %.1f%% | %.1f%% | %.1f%% |\n", law.name, law.asserted ? "" : " (not asserted)",
                c.reps, pct(c.covered, c.reps), pct(c.met, c.reps), pct(c.short_or_covered, c.reps),
                pct(c.met_covered, c.met));
    if (!law.asserted) continue;
    EXPECT_GE(c.short_or_covered, c.reps * 93 / 100) << law.name;
  }
}

// --processes=P (bench/detail/pooled.hpp): P simulated processes run a row once each, and each
// run's interval is widened by the scatter between the P. A state drawn once per process, which
// no single process sees (last row above: 17% held or counted short), is then covered or counted
// short in >= 93% of runs at P = 3 and 5. (When all P draw the same one of two states, 1 pool in
// 4 at P = 3, no pool sees it; those runs are short here because their own intervals are wide.)
TEST(Coverage, ProcessesCoverWhatOneProcessCannotSee) {
  using enum LevelKind;
  // With one repetition per process, a state per run is a state per process.
  const LevelLaw laws[] = {
      {"a state per process, normal sigma 1%, under normal cv 0.5%", state_per_run, 0, 0.01, 0.005},
      {"two states per process (+0 or +2%), under normal cv 0.5%", two_states_per_process, 0, 0.02, 0.005},
  };
  constexpr int kPools = 400;
  std::printf(
      "| law | processes | runs | holds the true median | target_met | holds or counted short |\n"
      "|---|---|---|---|---|---|\n");
  std::uint64_t seed = 95'000'000;
  for (const LevelLaw& law : laws) {
    for (const int processes : {3, 5}) {
      RepetitionCoverage c;
      for (int pool = 0; pool < kPools; ++pool) {
        std::vector<SampleStats> runs;
        for (int p = 0; p < processes; ++p) runs.push_back(one_process(law, seed++, 1, 0).front());
        c.add(law, runs);
      }
      const auto pct = [&](int n) { return 100.0 * n / c.reps; };
      std::printf("| %s | %d | %d | %.1f%% | %.1f%% | %.1f%% |\n", law.name, processes, c.reps, pct(c.covered),
                  pct(c.met), pct(c.short_or_covered));
      EXPECT_GE(c.short_or_covered, c.reps * 93 / 100) << law.name << ", " << processes;
    }
  }
}

// The assertions above can fail: the rule this one replaced (the mean's or the median's interval,
// whichever was narrower, from 10 samples) stops 1%-outlier streams on the mean's interval before
// the first outlier, and its real_time (the mean) misses the true mean; and the median's interval
// without the correlation correction misses an AR(1) stream's median.
TEST(Coverage, TheChecksFailTheRuleWithoutItsCorrections) {
  const double target = StopRule{}.target;
  const auto independent_median_precision = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const auto k = static_cast<std::int64_t>(v.size());
    const auto j = rb::bench::median_ci_rank(k);
    const double m = rb::bench::quantile(v, 0.5);
    return (v[static_cast<std::size_t>(k - j)] - v[static_cast<std::size_t>(j - 1)]) / 2 / m;
  };

  // Outliers: the mean of 1% at 10x over normal cv 0.5% is 1.09.
  const Stream outliers{Stream::Law::outliers, 0.005, 0.01};
  int runs = 0, on_mean = 0, mean_covered = 0;
  for (std::uint64_t r = 0; r < 2000; ++r) {
    Draw draw(outliers, 7'000'000 + r);
    Sampler s(StopRule{});
    std::vector<double> v;
    for (;;) {
      v.push_back(draw.next());
      s.add(v.back());
      if (v.size() < 10) continue;
      const double med = independent_median_precision(v), mean = s.mean_precision();
      if (std::min(med, mean) > target) continue;
      on_mean += mean <= med;
      mean_covered += std::abs(s.sum() / static_cast<double>(v.size()) - 1.09 * draw.base) <=
                      std::min(med, mean) * s.sum() / static_cast<double>(v.size());
      break;
    }
    ++runs;
  }
  std::printf(
      "old rule, 1%% at 10x: %d runs, %d stopped on the mean, the mean's interval holds the true mean in %.1f%%\n",
      runs, on_mean, 100.0 * mean_covered / runs);
  EXPECT_GT(on_mean, runs / 2);
  EXPECT_LT(mean_covered, runs * 93 / 100);

  // AR(1), phi 0.9: 400 samples, the median's interval as if independent, and the Sampler's.
  const Stream ar{Stream::Law::ar1, 0.02, 0, 0.9};
  int naive = 0, corrected = 0;
  constexpr int kArRuns = 1000;
  for (std::uint64_t r = 0; r < kArRuns; ++r) {
    Draw draw(ar, 8'000'000 + r);
    Sampler s(StopRule{});
    std::vector<double> v;
    for (int i = 0; i < 400; ++i) {
      v.push_back(draw.next());
      s.add(v.back());
    }
    const double median = s.median(), truth = draw.base;
    naive += std::abs(median - truth) <= independent_median_precision(v) * median;
    corrected += std::abs(median - truth) <= s.precision() * median;
  }
  std::printf(
      "AR(1) phi 0.9, 400 samples: the independent interval holds the median in %.1f%%, the corrected one in %.1f%%\n",
      100.0 * naive / kArRuns, 100.0 * corrected / kArRuns);
  EXPECT_LT(naive, kArRuns * 93 / 100);
  EXPECT_GE(corrected, kArRuns * 93 / 100);
}

}  // namespace
