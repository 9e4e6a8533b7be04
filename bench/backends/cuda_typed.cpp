// cuda/onepass and ref/read for the element types other than f32 (--dtype; kernels/cuda/typed.hpp):
// the same one-launch kernel and its read phase, reading 16-byte vectors of the type (8 f16 or
// bf16, 2 f64, 4 i32) and adding in float (f16, bf16), double (f64) or 64-bit integers (i32).
// onepass's adapter is cuda_kernel.hpp's over T (its structure from the variant's geometry at n,
// kernel_structure); ref/read is ref_read.hpp's.
#include <memory>
#include <type_traits>
#include <vector>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/backends/ref_read.hpp"
#include "kernels/cuda/typed.hpp"

namespace rb::bench::gpu {
namespace {

using rb::cuda::SumType;

template <class T>
class OnepassTyped final : public GpuBackend {
  using Out = SumType<T>;

 public:
  OnepassTyped(const GpuProblemOf<T>& p, const rb::cuda::TypedVariant<T>& v)
      : v_(v), in_(p.input), n_(p.n), out_(p.out) {
    const std::size_t bytes = v_.scratch_bytes(n_);
    scratch_ = p.scratch.get(bytes);
    v_.prepare(scratch_, bytes, p.stream);
    RB_CUDA_CHECK(cudaStreamSynchronize(p.stream));
  }
  void enqueue(cudaStream_t stream) override {
    v_.sum(in_, n_, scratch_, out_.as<Out>(), stream);
  }
  double result() override { return out_.read<Out>(); }
  ResultIn result_in() const override { return slot_for<Out>(); }
  Structure structure() const override {
    return kernel_structure(v_.geometry(n_), n_, accumulator_for<Out>(), std::is_same_v<Out, float>);
  }

 private:
  rb::cuda::TypedVariant<T> v_;
  const T* in_;
  std::int64_t n_;
  ResultSlot out_;
  void* scratch_ = nullptr;
};

template <class T>
std::vector<BackendDef<T>> rows(const rb::cuda::TypedVariant<T>& v) {
  return {{"cuda/onepass", OnGpu<T>{[&v](const GpuProblemOf<T>& p) -> std::unique_ptr<GpuBackend> {
             return std::make_unique<OnepassTyped<T>>(p, v);
           }}},
          gpu_backend<RefRead<T>, T>("ref/read")};
}

}  // namespace

RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_f64));
RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_f16));
RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_bf16));
RB_REGISTER_BACKEND(rows(rb::cuda::onepass_in_i32));

}  // namespace rb::bench::gpu
