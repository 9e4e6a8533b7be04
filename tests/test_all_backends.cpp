// Every registered backend (RB_REGISTER_BACKEND in bench/backends/), through the real harness, on randomized
// inputs of every element type: sizes 1..10^5, start offsets 0..3, the three distributions, a fixed seed list so
// a failure reproduces. New backends join by registration alone. CPU backends run everywhere, GPU
// backends where a device is (label gpu). Also non-finite inputs, which must be matched in kind.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include <unistd.h>

#include "bench/gpu/context.hpp"
#include "tests/support/data.hpp"
#include "tests/support/gpu.hpp"
#include "tests/support/run_cases.hpp"

namespace {

using namespace rb::bench;

enum class Side { cpu, gpu };

// The rows of one side, of every type of the options (--dtype): CPU rows, or the one-GPU and
// across-GPU rows.
std::vector<BackendEntry> entries_for(Side side, Session& session) {
  std::vector<BackendEntry> entries;
  for (const Dtype d : session.options().dtypes) {
    with_element_type(d, [&]<class T>() {
      auto defs = registered_defs<T>();
      std::erase_if(defs, [side](const auto& def) { return def.on_cpu() != (side == Side::cpu); });
      std::string why_not;
      for (auto& e : bind_backends<T>(session, std::move(defs), why_not)) entries.push_back(std::move(e));
      EXPECT_TRUE(side == Side::cpu || why_not.empty()) << why_not;
    });
  }
  return entries;
}

// Runs every available backend of one side over the options, in one mode (correctness does not
// depend on the L2 flush; both modes would double the GPU run time), leaving out the tune/*
// launch-shape grid of tuning builds. Returns the number of runs.
std::size_t run_all(Side side, const Options& options, std::vector<std::string>& failures) {
  Session session(options);
  auto entries = entries_for(side, session);
  std::erase_if(entries, [](const BackendEntry& e) { return !e.unavailable.empty() || e.name.starts_with("tune/"); });
  rb::test::run_in_process(session, entries, side == Side::gpu ? "/cold" : "all");
  release_gpu();
  for (const auto& o : session.log().outcomes()) {
    // The nccl/* rows generate their shards on each GPU: given a file they must skip, saying so.
    const bool refuses_file = !options.input_path.empty() && o.name.starts_with("nccl/");
    if (refuses_file ? o.kind != Outcome::Kind::skipped || o.message.find("synthetic input only") == std::string::npos
                     : o.kind != Outcome::Kind::ok) {
      failures.push_back(o.name + ": " + o.message);
    }
  }
  return session.log().outcomes().size();
}

// Every (seed, distribution, offset) case in `types`; with `thin`, one case per seed (the three
// distributions, offsets 1 to 3): 3 of the 36 cases, so that the GPU rows of the four other
// types take about half the f32 run's time.
void randomized(Side side, const std::vector<Dtype>& types, bool thin = false) {
  constexpr std::uint64_t kSeeds[] = {11, 23, 47};
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t runs = 0;
  std::vector<std::string> failures;
  int k = 0;
  for (const auto seed : kSeeds) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> size(1, 100'000);
    ++k;
    for (const Dist dist : {Dist::harmonic, Dist::uniform, Dist::normal}) {
      for (int offset = 0; offset <= 3; ++offset) {
        if (thin && (static_cast<int>(dist) != k - 1 || offset != k)) continue;
        Options o = rb::test::small_options({size(rng), size(rng), size(rng) | 1, 1 + size(rng) % 64});
        // Correctness, not precision: 5 ms of samples a row (the GPU rows took 77 s at 20 ms).
        o.rule.max_seconds = o.rule.timeout_seconds = 0.005;
        std::sort(o.sizes.begin(), o.sizes.end());
        o.sizes.erase(std::unique(o.sizes.begin(), o.sizes.end()), o.sizes.end());
        o.dist = dist;
        o.seed = seed;
        o.offset = offset;
        o.dtypes = types;
        runs += run_all(side, o, failures);
        for (const auto& f : failures)
          ADD_FAILURE() << "seed " << seed << ", " << dist_name(dist) << ", offset " << offset << ": " << f;
        failures.clear();
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "[ property ] " << runs << " verified runs in " << seconds << " s\n";
  EXPECT_GT(runs, 0u) << "no backend ran: a test that checks nothing must not pass";
  ::testing::Test::RecordProperty("runs", static_cast<int>(runs));
}

TEST(AllBackends, RandomizedCpu) { randomized(Side::cpu, parse_dtypes("all")); }

TEST(AllBackends, RandomizedGpu) {
  RB_REQUIRE_GPU();
  randomized(Side::gpu, {Dtype::f32});
}

TEST(AllBackends, RandomizedTypedGpu) {
  RB_REQUIRE_GPU();
  randomized(Side::gpu, {Dtype::f64, Dtype::f16, Dtype::bf16, Dtype::i32}, true);
}

// Input files holding NaN or infinities: the reference is NaN or +-Inf and every backend must give
// the same kind (any NaN, or +Inf with -Inf, gives NaN).
void non_finite(Side side) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::pair<const char*, std::vector<std::pair<std::int64_t, float>>>> cases = {
      {"nan", {{4000, nan}}},
      {"pos_inf", {{17, inf}}},
      {"neg_inf", {{4098, -inf}}},
      {"both_inf", {{3, inf}, {5000, -inf}}}};
  for (const auto& [label, planted] : cases) {
    auto x = rb::test::random_signed(8193, 5);
    for (const auto& [i, v] : planted) x[static_cast<std::size_t>(i)] = v;
    // One file per process: ctest -j runs the CPU and GPU twins of this test at once.
    const auto path = std::filesystem::temp_directory_path() /
                      ("rb_nonfinite_" + std::string(label) + "_" + std::to_string(::getpid()) + ".bin");
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(x.data()), static_cast<std::streamsize>(x.size() * 4));
    Options o = rb::test::small_options({4097, 8193});
    o.input_path = path.string();
    o.dtypes = parse_dtypes("all");  // f16, bf16 keep NaN and infinities; i32 stores NaN as 0, +-Inf saturated
    std::vector<std::string> failures;
    run_all(side, o, failures);
    for (const auto& f : failures) ADD_FAILURE() << label << ": " << f;
    std::filesystem::remove(path);
  }
}

// A constant input file: every chain adds the same value over and over, the structured case where
// a bound that assumed log2(n) depth failed correct kernels. Each backend's stated structure
// (bench/api/summation.hpp) must hold here too.
void constant_input(Side side) {
  const std::int64_t n = (std::int64_t{1} << 22) + 1;
  const std::vector<float> x(static_cast<std::size_t>(n), 0.1f);
  const auto path = std::filesystem::temp_directory_path() / ("rb_constant_" + std::to_string(::getpid()) + ".bin");
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(x.data()), static_cast<std::streamsize>(x.size() * 4));
  Options o = rb::test::small_options({100'003, n});
  o.input_path = path.string();
  o.dtypes = parse_dtypes("all");
  std::vector<std::string> failures;
  EXPECT_GT(run_all(side, o, failures), 0u);
  for (const auto& f : failures) ADD_FAILURE() << "constant 0.1f: " << f;
  std::filesystem::remove(path);
}

TEST(AllBackends, ConstantInputCpu) { constant_input(Side::cpu); }

TEST(AllBackends, ConstantInputGpu) {
  RB_REQUIRE_GPU();
  constant_input(Side::gpu);
}

TEST(AllBackends, NonFiniteInputCpu) { non_finite(Side::cpu); }

TEST(AllBackends, NonFiniteInputGpu) {
  RB_REQUIRE_GPU();
  non_finite(Side::gpu);
}

}  // namespace
