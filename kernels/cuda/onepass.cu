// cuda/onepass: the best kernel here. One launch for any n (onepass.cuh).
//   Changed from vec4_ilp4: (1) no second kernel: up to 16384 floats one lean block sums
//         everything (SingleBlock); above, every block hands its partial to the finisher through
//         a slot (slots.cuh), which adds them in a fixed order and empties the slots, so there is
//         no memset launch either; (2) the grid is sized to the work: one block per tile up to
//         SMs x blocks per SM; (3) 4 or 8 float4 loads in flight per thread, and a launch shape
//         and completion per range of n (OnepassTuned), each the winner of a sweep (tuning.cuh).
//   Why faster: at small and medium n the second launch (ref/launch: 2.7 µs) and the idle blocks
//         of a full grid are most of the time; at large n it reads like ref/read (8 loads in flight).
//   What it costs: over ref/read, 0.2-0.5 µs up to 2^18 and 0.55-1.1 µs above (the finisher's
//         round trip for the partials, behind the other blocks' streaming; results/h200/kernels.md);
//         one slot of scratch per block, zeroed once
//         (prepare()) and left zeroed by every launch. Deterministic: no floating-point atomics.
//   Tuning: shapes and thresholds per architecture (tuning.cuh): the H200's measurements on
//         sm_90, a generic entry elsewhere, picked at launch from the device's compute capability.
#include <map>
#include <mutex>
#include <string>

#include "kernels/cuda/onepass.cuh"

namespace rb::cuda {

const Variant<float> onepass = OnepassBySize<float>::variant();

template TypedVariant<float> typed_onepass_with<float>(TuningEntry entry);

Variant<float> onepass_with(TuningEntry entry) { return typed_onepass_with<float>(entry); }

TuningEntry onepass_tuning(int device) {
  const int cc = compute_capability(device);
  return tuning_entry_for(cc / 100, cc % 100);
}

const char* onepass_tuning_name(int device) {
  static std::mutex mutex;
  static std::map<int, std::string> names;  // nodes never move: the pointers stay valid
  const int cc = compute_capability(device);
  const std::lock_guard lock(mutex);
  auto it = names.find(device);
  if (it == names.end()) it = names.emplace(device, tuning_entry_name(cc / 100, cc % 100)).first;
  return it->second.c_str();
}

}  // namespace rb::cuda
