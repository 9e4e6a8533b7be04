// tune/triton_*: launch shapes of both Triton kernels, as rows. Compiled only into the tuning build
// (-DRB_TUNING_BACKENDS=ON with Triton found: bench/CMakeLists.txt).
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bench/backends/triton_rows.hpp"

namespace rb::bench::gpu {
namespace {

std::vector<BackendDef<float>> triton_tuning_backends() {
  std::vector<BackendDef<float>> out;
  for (const auto& [block, warps] : {std::pair{1024, 4}, {2048, 4}, {4096, 8}, {8192, 8}, {8192, 16}}) {
    out.push_back(triton_two_pass("tune/triton_two_pass/b" + std::to_string(block) + "_w" + std::to_string(warps),
                                  {block, warps}));
  }
  for (const auto& [block, warps, progs] : {std::tuple{2048, 4, 8}, {4096, 4, 4}, {4096, 8, 2}, {4096, 8, 4},
                                           {4096, 8, 8}, {8192, 8, 2}, {8192, 8, 4}, {8192, 16, 2},
                                           {8192, 16, 4}, {16384, 16, 2}}) {
    out.push_back(triton_onepass("tune/triton_onepass/b" + std::to_string(block) + "_w" + std::to_string(warps) +
                                     "_p" + std::to_string(progs),
                                 {block, warps, progs}));
  }
  return out;
}

}  // namespace

RB_REGISTER_BACKEND(triton_tuning_backends());

}  // namespace rb::bench::gpu
