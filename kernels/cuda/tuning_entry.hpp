#pragma once
// The key of cuda/onepass's launch-shape tables (tuning.cuh), as CUB keys its tuning policies by
// SM version: a table measured on one architecture, and a generic one for every other. Plain C++
// (no CUDA): the kernels pick by it at launch, the benchmark names it in its JSON context, and a
// CPU test checks the mapping.
#include <string>

namespace rb::cuda {

enum class TuningEntry {
  automatic,  // the entry of the current device: tuning_entry_for(its compute capability)
  sm90,       // measured on the H200 (tuning.cuh: OnepassSm90Tuning)
  generic,    // conservative shapes for any SM >= 7.0 (tuning.cuh: OnepassGenericTuning)
};

// The entry a device of compute capability major.minor gets. Only 9.0 (H100, H200, GH200) has
// measurements; everything else, older or newer, gets the generic entry rather than Hopper's
// shapes applied blind.
constexpr TuningEntry tuning_entry_for(int major, int minor) noexcept {
  return major == 9 && minor == 0 ? TuningEntry::sm90 : TuningEntry::generic;
}

// tuning_entry_for(major, minor) in words: "sm_90 (H200-measured)", "generic (no entry for sm_86)".
inline std::string tuning_entry_name(int major, int minor) {
  if (tuning_entry_for(major, minor) == TuningEntry::sm90) return "sm_90 (H200-measured)";
  return "generic (no entry for sm_" + std::to_string(major) + std::to_string(minor) + ")";
}

}  // namespace rb::cuda
