#include "common/cuda_check.hpp"

namespace rb::cuda {

void throw_error(cudaError_t code, const char* expr, const char* file, int line) {
  // Clear the runtime's last-error state: a non-sticky failure (an out-of-memory cudaMalloc) would
  // otherwise surface again from the next unrelated cudaGetLastError, in the next benchmark (seen
  // on the H200: CUB failed right after a deliberately failed allocation). Sticky errors stay.
  (void)cudaGetLastError();
  throw Error(code, std::string(cudaGetErrorName(code)) + " (" + cudaGetErrorString(code) +
                        ") from " + expr + " at " + file + ":" + std::to_string(line));
}

}  // namespace rb::cuda
