#include "tests/support/gpu.hpp"

namespace rb::test {

bool gpu_available(std::string& why_not) {
  why_not = "CPU-only build (nvcc was not found at configure time)";
  return false;
}

}  // namespace rb::test
