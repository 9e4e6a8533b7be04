#pragma once
// Registration: every available backend x every size x {cold, hot} becomes one Google Benchmark,
// named <backend>/<n>/<mode> (Google Benchmark appends /manual_time). Results and plots join on
// these names: renaming a backend is a format change.
//
// The sweep order, whatever order the adapter files were linked in: the CPU backends, then the
// one-GPU backends, then the rows across GPUs; within each the registrations (one
// RB_REGISTER_BACKEND each, bench/api/registration.hpp) sorted by the name of their first backend,
// the rows of one registration in the order it lists them (the cuda/ variants are one table, in
// progression order).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bench/api/definition.hpp"
#include "bench/api/determinism.hpp"
#include "bench/detail/options.hpp"
#include "bench/detail/session.hpp"
#include "common/sizes.hpp"

namespace rb::bench {

struct BackendEntry {
  std::string name;                 // e.g. "cub", "cpu/accumulate", "cub@bf16"
  Dtype dtype = Dtype::f32;         // what it sums (bench/detail/element.hpp)
  std::string unavailable;          // why it cannot run here; empty when it can
  std::vector<Mode> modes;          // which of cold/hot it is registered for
  // Which default sizes it runs (--sizes runs any); empty: all of them.
  std::function<bool(std::int64_t)> default_size;
  Determinism determinism = Determinism::run_to_run;  // what its sums promise, checked every run
  // Its sample spans the GPUs of every rank (AcrossGpus, bench/api/definition.hpp): under a launcher
  // only these run, and in one process only with --gpus (bench/launch/launch.hpp).
  bool collective = false;
  bool shaped = false;  // runs the --shapes cases, not the sizes (BackendDef::shaped)
  std::function<void(benchmark::State&, const Case&)> run;
};

// Binds definitions to the session, in their order, each to the loop of its strategy
// (bench/api/definition.hpp). Without a usable GPU (or without CUDA in this build) the GPU entries
// are unavailable and `gpu_why_not` says why; it stays empty when no GPU row is bound.
// Instantiated for every element type of bench/detail/element.hpp; an entry's name ends in @<dtype> for
// types other than f32. T is named, not deduced (bind_backends<double>(...)), so that a braced list
// of float definitions binds as it is. Defined in bench/bind.cpp, the one file above every strategy.
template <class T = float>
std::vector<BackendEntry> bind_backends(Session& session, std::type_identity_t<std::vector<BackendDef<T>>> defs,
                                        std::string& gpu_why_not);
template <class T = float>
std::vector<BackendEntry> bind_backends(Session& session, std::type_identity_t<std::vector<BackendDef<T>>> defs);

// The start of `gpu_why_not` in a build without the GPU layer (bench/gpu/none.cpp), where no GPU
// row can exist, as against a GPU layer that found no usable GPU.
inline constexpr std::string_view kGpuNotBuilt = "GPU backends not built";

// Every registered backend of every type of --dtype bound to the session, in sweep order: type by
// type, in the order --dtype gives them. A name registered twice throws std::logic_error.
std::vector<BackendEntry> registered_backends(Session& session, std::string& gpu_why_not);

// The cases of the available entries whose names pass the filter (Google Benchmark's syntax:
// a regex, "all", or a leading '-' to negate), in registration order: every size of
// options.sizes, or, when those are the defaults, the ones each entry's default_size keeps
// (none when --shapes is given without --sizes); a shaped entry's, every shape of --shapes.
std::vector<Case> select_cases(const std::vector<BackendEntry>& entries, const Options& options,
                               const std::string& filter);

// Registers the selected cases (Google Benchmark applies its filter again, to the same names).
// compare_min_time > 0 (--compare_min_time) registers a twin of each after it, timed by Google
// Benchmark's rule with that min time, named <backend>/<n>/<mode>/min_time:<t>/manual_time.
void register_cases(const std::vector<Case>& cases, const std::vector<BackendEntry>& entries,
                    double compare_min_time = 0);

}  // namespace rb::bench
