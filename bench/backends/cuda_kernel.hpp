#pragma once
// The one adapter every hand-written CUDA variant shares (kernels/cuda/sum.hpp's shape, and
// typed.hpp's for the other element types):
//   constructor (untimed): scratch sized for n by the variant, which also queries and caches the
//     SM count and occupancy there, then prepare() (onepass zeroes its slots) and a stream sync;
//   enqueue: the variant's launches, nothing else;
//   result: the float, double or long long the variant wrote.
//   structure: from the variant's launch geometry at n (kernel_structure below).
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "bench/api/gpu_backend.hpp"
#include "kernels/cuda/sum.hpp"
#include "kernels/cuda/typed.hpp"

namespace rb::bench::gpu {

// The completion over a grid's partials, as the hand-written kernels add them (a final pass or the
// last block's slot collection): at most grid / 32 sequential additions per thread, then a tree of
// at most 1024 threads, then the last block's own partial.
inline std::int64_t completion_depth(int grid) { return (std::int64_t{grid} + 31) / 32 + tree_depth(1024) + 1; }

// How a hand-written variant adds, from its geometry (kernels/cuda/sum.hpp): each of its grid x
// threads threads keeps `unroll` accumulators and adds one value per row it loads (a float4 as a
// lane pair first), so a chain runs over n / (grid x row) rows, plus one partial step for a chunk
// that is not a whole number of tiles. After it: the pairwise sum of the accumulators, block 0's
// scalar edge, the block tree, and the completion over the grid's partials (completion_depth, and
// the fixed-point grid's roundings where the completion has one: Geometry::window_roundings).
inline Structure kernel_structure(const rb::cuda::Geometry& g, std::int64_t n, Accumulator acc, bool float_result) {
  const int per_add = static_cast<int>(g.row / g.threads);
  const std::int64_t unroll = g.tile / g.row;
  Structure s = blocked(acc, n, std::int64_t{g.grid} * g.threads, per_add,
                        tree_depth(unroll) + 1 + tree_depth(g.threads) + completion_depth(g.grid) + g.window_roundings,
                        float_result);
  s.chain += unroll;
  return s;
}

// T: the element type read; Out: what the variant writes (kernels/cuda/sum.hpp's TypedVariant:
// float's variants, and typed.hpp's for the other element types).
template <class T, class Out>
class CudaKernelSum final : public GpuBackend {
 public:
  using V = rb::cuda::TypedVariant<T, Out>;
  CudaKernelSum(const GpuProblemOf<T>& p, const V& v, Accumulator acc)
      : v_(v), in_(p.input), n_(p.n), out_(p.out), acc_(acc) {
    const std::size_t bytes = v_.scratch_bytes(n_);
    scratch_ = p.scratch.get(bytes);
    v_.prepare(scratch_, bytes, p.stream);
    RB_CUDA_CHECK(cudaStreamSynchronize(p.stream));
  }
  void enqueue(cudaStream_t stream) override { v_.sum(in_, n_, scratch_, out_.as<Out>(), stream); }
  double result() override { return out_.read<Out>(); }
  ResultIn result_in() const override { return slot_for<Out>(); }
  Structure structure() const override {
    return kernel_structure(v_.geometry(n_), n_, acc_, std::is_same_v<Out, float>);
  }

 private:
  V v_;
  const T* in_;
  std::int64_t n_;
  ResultSlot out_;
  Accumulator acc_;
  void* scratch_ = nullptr;
};

// A variant over elements of T as a row of T's registry, adding in what it writes; `acc`
// overrides that (a tuning probe that adds in float and returns a double).
template <class T, class Out>
BackendDef<T> cuda_kernel(std::string name, const rb::cuda::TypedVariant<T, Out>& v,
                          std::optional<Accumulator> acc = {}) {
  const Accumulator a = acc.value_or(accumulator_for<Out>());
  return {std::move(name), OnGpu<T>{[v, a](const GpuProblemOf<T>& p) -> std::unique_ptr<GpuBackend> {
            return std::make_unique<CudaKernelSum<T, Out>>(p, v, a);
          }}};
}

}  // namespace rb::bench::gpu
