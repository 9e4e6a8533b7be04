// Built instead of pstl.cpp when CMake found no TBB: libstdc++ would run the parallel policies
// sequentially, so the std::execution backends register as unavailable with this reason.
#include <stdexcept>

#include "kernels/cpu/pstl.hpp"

namespace rb::cpu {

const char* pstl_unavailable() noexcept {
  return "built without oneTBB (find_package(TBB) failed; install libtbb-dev): "
         "libstdc++'s parallel policies would run sequentially";
}

int pstl_threads() noexcept { return 1; }

float std_reduce_par(const float*, std::int64_t) { throw std::logic_error(pstl_unavailable()); }
float std_reduce_par_unseq(const float*, std::int64_t) { throw std::logic_error(pstl_unavailable()); }

double pstl_reduce(const void*, std::int64_t, std::int64_t, std::int64_t, ChunkKernel<double>) {
  throw std::logic_error(pstl_unavailable());
}

}  // namespace rb::cpu
