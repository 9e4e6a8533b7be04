// cub/run_to_run, cub/not_guaranteed, cub/gpu_to_gpu: cub::DeviceReduce::Sum through its
// environment API (CCCL >= 3.1), one row per determinism requirement:
//   run_to_run      the classic reduction: a grid over tiles, then one block over the partials
//   not_guaranteed  one pass (CCCL >= 3.2): a memset of the output, then each block adds its
//                   partial to it with a float atomic, in whatever order the blocks finish
//   gpu_to_gpu      reproducible floating-point accumulation (RFA, binned): the same bits on any GPU
// The single-phase overloads ask a memory resource for temporary storage on every call
// (cudaMallocAsync by default). Here the environment carries one that hands back the same block
// of the harness's scratch every time, sized by the untimed warm-up, so no allocation is timed.
// Before CCCL 3.2 `not_guaranteed` silently runs the two-pass code, so all three rows need 3.2.
#include <cuda/version>  // CCCL_VERSION: the CCCL this build compiles against (cmake/Cccl.cmake)
#ifdef RB_CCCL_VERSION_CODE
static_assert(CCCL_VERSION == RB_CCCL_VERSION_CODE,
              "the CCCL on the include path is not the one cmake/Cccl.cmake chose");
#endif

#include "bench/backends/cub_structure.hpp"

#if CCCL_VERSION >= 3002000
#include <cub/device/device_reduce.cuh>
#include <cuda/memory_resource>
#include <cuda/std/execution>
#include <cuda/stream_ref>

#include <new>
#endif

namespace rb::bench::gpu {

#if CCCL_VERSION >= 3002000
// Outside the anonymous namespace: nvcc warns about the members CUB's concepts check but never call.
namespace cub_env {

// A cuda::mr::resource over one block of the harness's scratch. While `grow` is set (the warm-up
// in the constructor, untimed) a request larger than the block grows it; afterwards it throws,
// which CUB turns into cudaErrorMemoryAllocation and the harness into a failed benchmark.
struct ScratchPool {
  DeviceScratch* scratch;
  void* block = nullptr;
  std::size_t bytes = 0;
  bool grow = true;
};

class ScratchResource {
 public:
  explicit ScratchResource(ScratchPool* pool) : pool_(pool) {}
  void* allocate(::cuda::stream_ref, std::size_t bytes, std::size_t align) { return take(bytes, align); }
  void deallocate(::cuda::stream_ref, void*, std::size_t, std::size_t) noexcept {}
  void* allocate_sync(std::size_t bytes, std::size_t align) { return take(bytes, align); }
  void deallocate_sync(void*, std::size_t, std::size_t) noexcept {}
  bool operator==(const ScratchResource& other) const noexcept { return pool_ == other.pool_; }
  bool operator!=(const ScratchResource& other) const noexcept { return pool_ != other.pool_; }
  friend void get_property(const ScratchResource&, ::cuda::mr::device_accessible) noexcept {}

 private:
  void* take(std::size_t bytes, std::size_t align) {
    if (bytes > pool_->bytes) {
      if (!pool_->grow) throw std::bad_alloc();
      pool_->block = pool_->scratch->get(bytes);
      pool_->bytes = bytes;
    }
    if (align > 256) throw std::bad_alloc();  // the scratch is 256-byte aligned
    return pool_->block;
  }
  ScratchPool* pool_;
};

}  // namespace cub_env
#endif

namespace {

#if CCCL_VERSION >= 3002000
using cub_env::ScratchPool;
using cub_env::ScratchResource;

template <class Requirement>
class CubEnvSum final : public GpuBackend {
 public:
  explicit CubEnvSum(const GpuProblem& p)
      : in_(p.input), n_(p.n), out_(p.out), sm_count_(p.sm_count), pool_{&p.scratch} {
    call(p.stream);  // sizes the block: cudaMalloc may synchronize, so never in enqueue()
    RB_CUDA_CHECK(cudaStreamSynchronize(p.stream));
    pool_.grow = false;
  }
  void enqueue(cudaStream_t s) override { call(s); }
  double result() override { return out_.read_f32(); }
  ResultIn result_in() const override { return ResultIn::slot_f32; }
  Structure structure() const override {
    if constexpr (std::is_same_v<Requirement, ::cuda::execution::determinism::gpu_to_gpu_t>) {
      // CUB's float RFA: 3 folds of 13-bit bins (cub/detail/rfa.cuh), a loss of 2^(13 (1 - 3)).
      Structure s{Accumulator::binned};
      s.binned_loss = 0x1p-26;
      return s;
    }
    Structure s = cub_reduce_structure(n_, sm_count_);
    // The blocks' partials meet in one float, one atomic addition each: at most SMs x 8 blocks
    // of 256 threads x CUB's subscription factor of 5.
    if constexpr (std::is_same_v<Requirement, ::cuda::execution::determinism::not_guaranteed_t>) {
      s.tree += std::int64_t{sm_count_} * 40;
    }
    return s;
  }

 private:
  void call(cudaStream_t s) {
    const auto env = ::cuda::std::execution::env{
        ::cuda::stream_ref{s}, ::cuda::execution::require(Requirement{}),
        ::cuda::std::execution::prop{::cuda::mr::get_memory_resource, ScratchResource{&pool_}}};
    RB_CUDA_CHECK(cub::DeviceReduce::Sum(in_, out_.f32(), n_, env));
  }

  const float* in_;
  std::int64_t n_;
  ResultSlot out_;
  int sm_count_;
  ScratchPool pool_;
};

namespace det = ::cuda::execution::determinism;

std::vector<BackendDef<float>> cub_env_rows() {
  return {gpu_backend<CubEnvSum<det::run_to_run_t>>("cub/run_to_run"),
          promising(Determinism::not_guaranteed, gpu_backend<CubEnvSum<det::not_guaranteed_t>>("cub/not_guaranteed")),
          promising(Determinism::gpu_to_gpu, gpu_backend<CubEnvSum<det::gpu_to_gpu_t>>("cub/gpu_to_gpu"))};
}

#else

std::vector<BackendDef<float>> cub_env_rows() {
  const std::string why = "needs CCCL >= 3.2 (this build: " + std::to_string(CCCL_MAJOR_VERSION) + "." +
                          std::to_string(CCCL_MINOR_VERSION) + "." + std::to_string(CCCL_PATCH_VERSION) +
                          "); configure with -DRB_CCCL=<CCCL source, archive or URL>";
  return {unavailable_backend("cub/run_to_run", why),
          promising(Determinism::not_guaranteed, unavailable_backend("cub/not_guaranteed", why)),
          promising(Determinism::gpu_to_gpu, unavailable_backend("cub/gpu_to_gpu", why))};
}

#endif

}  // namespace

RB_REGISTER_BACKEND(cub_env_rows());

}  // namespace rb::bench::gpu
