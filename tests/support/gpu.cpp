#include <cuda_runtime.h>

#include "tests/support/gpu.hpp"

namespace rb::test {

bool gpu_available(std::string& why_not) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    why_not = std::string("no usable CUDA device: ") + cudaGetErrorString(e);
    (void)cudaGetLastError();
    return false;
  }
  if (count == 0) why_not = "no CUDA device";
  return count > 0;
}

}  // namespace rb::test
