#pragma once
// Every CUDA call and launch goes through RB_CUDA_CHECK / RB_CUDA_CHECK_LAUNCH. A failure throws
// rb::cuda::Error, which the harness turns into a skipped benchmark instead of a crash, so one
// backend's out-of-memory does not end the sweep.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace rb::cuda {

class Error : public std::runtime_error {
 public:
  Error(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

[[noreturn]] void throw_error(cudaError_t code, const char* expr, const char* file, int line);

inline void check(cudaError_t code, const char* expr, const char* file, int line) {
  if (code != cudaSuccess) throw_error(code, expr, file, line);
}

}  // namespace rb::cuda

#define RB_CUDA_CHECK(expr) ::rb::cuda::check((expr), #expr, __FILE__, __LINE__)
// After a <<<>>> launch: catches bad configurations (and earlier asynchronous faults) at once.
#define RB_CUDA_CHECK_LAUNCH() ::rb::cuda::check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
