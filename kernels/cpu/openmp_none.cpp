// Built instead of openmp.cpp when CMake found no OpenMP: the OpenMP backends register as
// unavailable with this reason, and their tests skip.
#include <stdexcept>

#include "kernels/cpu/openmp.hpp"

namespace rb::cpu {

const char* openmp_unavailable() noexcept {
  return "built without OpenMP (find_package(OpenMP) failed; install libgomp/libomp-dev)";
}

int openmp_max_threads() noexcept { return 1; }

double openmp_reduce(const void*, std::int64_t, int, std::int64_t, std::int64_t, ChunkKernel<double>) {
  throw std::logic_error(openmp_unavailable());
}

std::int64_t openmp_reduce(const void*, std::int64_t, int, std::int64_t, std::int64_t, ChunkKernel<std::int64_t>) {
  throw std::logic_error(openmp_unavailable());
}

}  // namespace rb::cpu
