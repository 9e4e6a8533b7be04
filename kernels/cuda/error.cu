#include "kernels/cuda/error.cuh"

namespace rb::cuda {

void throw_error(cudaError_t code, const char* expr, const char* file, int line) {
  throw Error(code, std::string(cudaGetErrorName(code)) + " (" + cudaGetErrorString(code) +
                        ") from " + expr + " at " + file + ":" + std::to_string(line));
}

}  // namespace rb::cuda
