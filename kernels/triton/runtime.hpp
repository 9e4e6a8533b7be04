#pragma once
// The C++ side of the Triton kernels: compile kernels/triton/sum.py through an embedded Python
// interpreter (pybind11) once, at set-up, then load the cubins with the CUDA runtime's library API
// and launch them like any kernel. Nothing here runs Python in a timed region.
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rb::triton {

// The embedded interpreter cannot import triton or compile.py: what() says why. (A kernel that
// fails to compile is a bug and throws std::runtime_error instead.)
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Empty when `import triton` would work in the embedded interpreter; otherwise why not.
// Cheap: starts the interpreter and asks importlib.util.find_spec, without importing triton.
std::string unavailable_reason();

struct Kernel {
  cudaKernel_t fn = nullptr;
  std::string name;
  unsigned threads = 0;  // 32 x num_warps
  unsigned shared = 0;   // dynamic shared memory, bytes
};

// The element types a kernel's signature leaves open (sum.py's TYPES: "x", "acc", "out"), as
// Triton spells them ("fp32", "fp64", "fp16", "bf16", "i32", "i64"). A slot not named stays fp32.
using ElementTypes = std::map<std::string, std::string>;

// kernels/triton/sum.py:<kernel> with the given constexprs and element types for the current
// device; `aligned` declares the kernel's input pointer 16-byte aligned (ALIGNABLE in sum.py) so
// loads vectorize. Compiled once per configuration and cached for the life of the process. Throws
// Unavailable when triton cannot be imported, std::runtime_error when the kernel does not compile.
const Kernel& compile(const std::string& kernel, const std::map<std::string, int>& constexprs, int num_warps,
                      bool aligned, const ElementTypes& types = {});

// Where sum.py and compile.py are read from, before the first compile(): by default
// <executable>/../share/reduce_bench/triton when the installed copy is there, else kernels/triton
// in the source tree. Tests point it elsewhere.
void set_kernel_dir(const std::string& dir);
std::string kernel_dir();

// Launches with `args` (pointers to the argument values, in SIGNATURES order) plus Triton's two
// trailing scratch pointers, passed as null. Checked.
void launch(const Kernel& k, unsigned grid, std::vector<void*> args, cudaStream_t stream);

}  // namespace rb::triton
