// tune/*: the launch-shape and completion grid of the hand-written onepass, built only with
// -DRB_TUNING_BACKENDS=ON. Rows, by name:
//   tune/onepass/t<threads>_u<loads in flight>_b<blocks per SM>   an experiment's completion
//       (kernels/cuda/experimental/completions.cuh: finisher_polls), so that shapes compare alone;
//   ..._ticket, ..._fenced   the ticket completions (the same file);
//   ..._block, ..._early     the shipped completions, FinishBlock and FinishEarly, on any shape;
//   tune/onepass_f64/*       the same kernels in double;
//   tune/single/t<threads>_u<loads>   the lean one-block kernel (skipped above one tile);
//   tune/lean[_f64]/t.._u.._b..   the shipped one-tile-per-block grid (OneTileGrid) on any shape;
//   ..._s<cycles>, ..._late  the same, or the Large grid, completed by FinishStaggered (warps that
//                            many cycles apart: kernels/cuda/experimental/finish_staggered.cuh) or
//                            FinishLate (experimental/lean_completions.cuh); --dtype=f64 also over
//                            doubles;
//   tune/leanread/t.._u.._b..   OneTileGrid's read alone (FinishNone: the host adds the partials);
//   ..._pair                 OneTileGrid completed by one float2 atomicAdd per block (FinishPair: a
//                            floor, not shippable; grids of 2 or more blocks; not run-to-run);
//   ..._fixed                OneTileGrid completed by FinishFixed (the Mid and Wide grids') on any
//                            shape and size, up to its 128 blocks; --dtype=f64 also over doubles.
// Pick the winner per n from
//   reduce_bench --benchmark_filter='tune/|cuda/|cub' --sizes=...
// and write it into kernels/cuda/tuning.cuh with its figures. (vec4 against vec4_ilp4, for
// cuda/auto's threshold, are the regular cuda/ rows.)
//
// Bounds: threads x blocks <= 2048 (an sm_90 SM's thread limit), and loads in flight fit the
// register budget __launch_bounds__ gives them (65536 / (threads x blocks) per thread; 8 float4s
// alone are 32 registers, so unroll 8 only where 64 or more are left).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include <type_traits>
#include <utility>

#include "bench/backends/cuda_kernel.hpp"
#include "bench/backends/cub_structure.hpp"
#include "bench/detail/session.hpp"
#include "kernels/cuda/experimental/completions.cuh"
#include "kernels/cuda/experimental/finish_staggered.cuh"
#include "kernels/cuda/experimental/lean_completions.cuh"
#include "kernels/cuda/onepass.cuh"
#include "kernels/cuda/tuning.cuh"

namespace rb::bench::gpu {
namespace {

using rb::cuda::experimental::Completion;

template <class Shape>
std::string shape_name() {
  return "t" + std::to_string(Shape::threads) + "_u" + std::to_string(Shape::unroll) + "_b" +
         std::to_string(Shape::blocks_per_sm);
}

// tune/lean/<shape><suffix>: OneTileGrid over T (adding in SumType<T>) completed by Finish.
template <class T, class Shape, class Finish>
BackendDef<T> lean_row(const std::string& suffix) {
  using Kernel = rb::cuda::OneTileGrid<T, Shape, T, Finish>;
  const std::string name = "tune/lean/" + shape_name<Shape>() + suffix;
  return cuda_kernel(name, Kernel::variant());
}

template <class Acc, int Threads, int Unroll, int BlocksPerSm>
std::string row_name(const char* how) {
  return (std::is_same_v<Acc, double> ? "tune/onepass_f64/t" : "tune/onepass/t") + std::to_string(Threads) + "_u" +
         std::to_string(Unroll) + "_b" + std::to_string(BlocksPerSm) + how;
}

// tune/onepass[_f64]/t.._u.._b..[_ticket|_fenced]: an experimental completion.
template <class Acc, int Threads, int Unroll, int BlocksPerSm, Completion C = Completion::finisher_polls>
BackendDef<float> experiment() {
  using Kernel = rb::cuda::experimental::OnepassCompletion<Acc, rb::cuda::LaunchShape<Threads, Unroll, BlocksPerSm>, C>;
  const char* how = C == Completion::ticket_polls ? "_ticket" : C == Completion::ticket_fenced ? "_fenced" : "";
  return cuda_kernel(row_name<Acc, Threads, Unroll, BlocksPerSm>(how), Kernel::variant());
}

// tune/onepass[_f64]/t.._u.._b.._block|_early: a shipped completion on any shape.
template <class Acc, int Threads, int Unroll, int BlocksPerSm, class Finish>
BackendDef<float> shipped() {
  using Kernel = rb::cuda::Onepass<Acc, rb::cuda::LaunchShape<Threads, Unroll, BlocksPerSm>, Finish>;
  const char* how = std::is_same_v<Finish, rb::cuda::FinishBlock> ? "_block" : "_early";
  return cuda_kernel(row_name<Acc, Threads, Unroll, BlocksPerSm>(how), Kernel::variant());
}

// def, skipping every n for which why_not(n) names a reason (empty: the row runs).
template <class T, class WhyNot>
BackendDef<T> skipping(BackendDef<T> def, WhyNot why_not) {
  auto& on_gpu = std::get<OnGpu<T>>(def.measure);
  on_gpu.make = [make = on_gpu.make, why_not](const GpuProblemOf<T>& p) {
    if (const std::string why = why_not(p.n); !why.empty()) throw Skip(why);
    return make(p);
  };
  return def;
}

template <int Threads, int Unroll>
BackendDef<float> single_block() {
  using Kernel = rb::cuda::SingleBlock<float, rb::cuda::LaunchShape<Threads, Unroll, 1>>;
  return skipping(
      cuda_kernel("tune/single/t" + std::to_string(Threads) + "_u" + std::to_string(Unroll), Kernel::variant()),
      [](std::int64_t n) {
        return n > Kernel::kMaxN ? "one block covers at most " + std::to_string(Kernel::kMaxN) + " floats"
                                 : std::string();
      });
}

// tune/lean[_f64]/t.._u.._b..: OneTileGrid (sm_90's Mid path) on this shape.
template <class Acc, int Threads, int Unroll, int BlocksPerSm>
BackendDef<float> lean() {
  using Shape = rb::cuda::LaunchShape<Threads, Unroll, BlocksPerSm>;
  using Kernel = rb::cuda::OneTileGrid<Acc, Shape>;
  return cuda_kernel((std::is_same_v<Acc, double> ? "tune/lean_f64/" : "tune/lean/") + shape_name<Shape>(),
                     Kernel::variant());
}

using rb::cuda::FinishBlock;
using rb::cuda::FinishEarly;
template <int Cycles>
using Staggered = rb::cuda::experimental::FinishStaggered<Cycles>;

// A FinishStaggered kernel: its name's suffix, and a skip where its grid outgrows one batch.
template <class Kernel, class T>
BackendDef<T> staggered_row(BackendDef<T> def) {
  return skipping(std::move(def), [](std::int64_t n) {
    return Kernel::geometry(n).grid > Staggered<0>::kMaxGrid
               ? "FinishStaggered polls one batch: at most " + std::to_string(Staggered<0>::kMaxGrid) + " blocks"
               : std::string();
  });
}

// tune/lean/t.._u.._b.._s<Cycles> over floats (Acc float) or doubles (Acc double, T double).
template <class T, int Threads, int Unroll, int BlocksPerSm, int Cycles>
BackendDef<T> lean_staggered() {
  using Shape = rb::cuda::LaunchShape<Threads, Unroll, BlocksPerSm>;
  using Kernel = rb::cuda::OneTileGrid<T, Shape, T, Staggered<Cycles>>;
  return staggered_row<Kernel>(lean_row<T, Shape, Staggered<Cycles>>("_s" + std::to_string(Cycles)));
}

// tune/onepass/t512_u8_b2_s<Cycles>: the Large grid (its loop) completed by FinishStaggered.
template <int Cycles>
BackendDef<float> large_staggered() {
  using Kernel = rb::cuda::Onepass<float, rb::cuda::OnepassLargeShape, Staggered<Cycles>>;
  return staggered_row<Kernel>(
      cuda_kernel(row_name<float, 512, 8, 2>(("_s" + std::to_string(Cycles)).c_str()), Kernel::variant()));
}

// tune/lean/t.._u.._b.. over doubles: OneTileGrid with FinishEarly, cuda/onepass@f64's Mid path before
// FinishFixed took double partials (results/h200/tuning.md#round-29).
template <int Threads, int Unroll, int BlocksPerSm>
BackendDef<double> lean_doubles() {
  return lean_row<double, rb::cuda::LaunchShape<Threads, Unroll, BlocksPerSm>, FinishEarly>("");
}

// tune/lean/t.._u.._b.._late over T (Acc: SumType<T>).
template <class T, class Shape>
BackendDef<T> lean_late() {
  return lean_row<T, Shape, rb::cuda::experimental::FinishLate>("_late");
}

// tune/leanread/t.._u.._b..: OneTileGrid with no completion; result() adds the blocks' partials on
// the host in double, after timing.
template <class T, class Shape>
class LeanRead final : public GpuBackend {
  using Kernel = rb::cuda::OneTileGrid<T, Shape, T, rb::cuda::experimental::FinishNone>;

 public:
  explicit LeanRead(const GpuProblemOf<T>& p) : in_(p.input), n_(p.n), stream_(p.stream) {
    bytes_ = Kernel::scratch_bytes(n_);
    scratch_ = p.scratch.get(bytes_);
  }
  void enqueue(cudaStream_t stream) override { Kernel::sum(in_, n_, scratch_, nullptr, stream); }
  double result() override {
    std::vector<T> host(bytes_ / sizeof(T));
    RB_CUDA_CHECK(cudaMemcpyAsync(host.data(), scratch_, bytes_, cudaMemcpyDeviceToHost, stream_));
    RB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    double sum = 0;
    for (const T v : host) sum += static_cast<double>(v);
    return sum;
  }
  Structure structure() const override {
    return kernel_structure(Kernel::geometry(n_), n_, accumulator_for<T>(), false);
  }

 private:
  const T* in_;
  std::int64_t n_;
  cudaStream_t stream_;
  std::size_t bytes_ = 0;
  void* scratch_ = nullptr;
};

template <class T, class Shape>
BackendDef<T> lean_read() {
  return {"tune/leanread/" + shape_name<Shape>(), OnGpu<T>{[](const GpuProblemOf<T>& p) -> std::unique_ptr<GpuBackend> {
            return std::make_unique<LeanRead<T, Shape>>(p);
          }}};
}

using Mid = rb::cuda::LaunchShape<256, 4, 4>;
using Mid8 = rb::cuda::LaunchShape<256, 8, 4>;
using Large = rb::cuda::LaunchShape<512, 8, 2>;

template <class T>
std::vector<BackendDef<T>> late_and_read() {
  return {lean_late<T, Mid>(),  lean_late<T, Mid8>(),  lean_late<T, Large>(),
          lean_read<T, Mid>(),  lean_read<T, Mid8>(),  lean_read<T, Large>()};
}

// tune/lean/t.._u.._b.._pair: FinishPair's float2 lies in the first two slots.
template <class Shape>
BackendDef<float> lean_pair() {
  using Kernel = rb::cuda::OneTileGrid<float, Shape, float, rb::cuda::experimental::FinishPair>;
  auto def = skipping(lean_row<float, Shape, rb::cuda::experimental::FinishPair>("_pair"), [](std::int64_t n) {
    return Kernel::geometry(n).grid < 2 ? std::string("FinishPair needs a grid of 2 or more blocks") : std::string();
  });
  def.determinism = Determinism::not_guaranteed;  // the adds' order follows which block finished when
  return def;
}

// tune/lean/t.._u.._b.._fixed over T: OneTileGrid completed by FinishFixed (the Mid and Wide
// grids', float and double partials) on any shape, where its grid fits the count fields: Mid's
// shape beyond 1.5 MiB (to 2 MiB), and Wide's (256 x 8) up to 4 MiB.
template <class T, class Shape>
BackendDef<T> lean_fixed() {
  using Kernel = rb::cuda::OneTileGrid<T, Shape, T, rb::cuda::FinishFixed>;
  return skipping(lean_row<T, Shape, rb::cuda::FinishFixed>("_fixed"), [](std::int64_t n) {
    return Kernel::geometry(n).grid > rb::cuda::FinishFixed::kMaxGrid
               ? "FinishFixed counts at most " + std::to_string(rb::cuda::FinishFixed::kMaxGrid) + " blocks"
               : std::string();
  });
}

std::vector<BackendDef<float>> staggered_grid() {
  return {lean_staggered<float, 256, 4, 4, 32>(),  lean_staggered<float, 256, 4, 4, 64>(),
          lean_staggered<float, 256, 4, 4, 128>(), lean_staggered<float, 256, 8, 4, 64>(),
          lean_staggered<float, 512, 8, 2, 64>(),  large_staggered<64>(),
          lean_pair<Mid>(),                        lean_pair<Mid8>(),
          lean_fixed<float, Mid>(),                lean_fixed<float, Mid8>()};
}

std::vector<BackendDef<double>> doubles_grid() {
  return {lean_doubles<256, 4, 4>(),
          lean_doubles<256, 8, 4>(),
          lean_doubles<512, 8, 2>(),
          lean_staggered<double, 256, 4, 4, 32>(),
          lean_staggered<double, 256, 4, 4, 64>(),
          lean_staggered<double, 256, 4, 4, 128>(),
          lean_staggered<double, 256, 8, 4, 64>(),
          lean_fixed<double, Mid>(),
          lean_fixed<double, Mid8>()};
}

std::vector<BackendDef<float>> tuning_grid() {
  return {
      // the 17-shape grid, then the small shapes for tiny n and the one-warp shapes
      experiment<float, 128, 4, 8>(),   experiment<float, 128, 4, 16>(), experiment<float, 128, 8, 8>(),
      experiment<float, 256, 2, 8>(),   experiment<float, 256, 4, 2>(),  experiment<float, 256, 4, 4>(),
      experiment<float, 256, 4, 8>(),   experiment<float, 256, 8, 2>(),  experiment<float, 256, 8, 4>(),
      experiment<float, 512, 2, 4>(),   experiment<float, 512, 4, 2>(),  experiment<float, 512, 4, 4>(),
      experiment<float, 512, 8, 2>(),   experiment<float, 1024, 2, 2>(), experiment<float, 1024, 4, 1>(),
      experiment<float, 1024, 4, 2>(),  experiment<float, 1024, 8, 1>(),
      experiment<float, 64, 8, 1>(),    experiment<float, 128, 8, 1>(),  experiment<float, 128, 4, 1>(),
      experiment<float, 32, 32, 1>(),   experiment<float, 64, 16, 1>(),  experiment<float, 32, 16, 1>(),
      single_block<128, 8>(),           single_block<256, 4>(),          single_block<64, 16>(),
      single_block<256, 8>(),           single_block<512, 8>(),
      // the ticket completions on the mid and large grid shapes
      experiment<float, 256, 4, 4, Completion::ticket_polls>(),
      experiment<float, 256, 4, 4, Completion::ticket_fenced>(),
      experiment<float, 512, 8, 2, Completion::ticket_polls>(),
      experiment<float, 512, 8, 2, Completion::ticket_fenced>(),
      // the shipped completions on those shapes, in float and double, and double's polling finisher
      shipped<float, 256, 4, 4, FinishBlock>(),
      shipped<float, 512, 8, 2, FinishBlock>(),
      shipped<double, 512, 8, 2, FinishBlock>(),
      experiment<double, 512, 8, 2>(),
      experiment<double, 256, 4, 4>(),
      shipped<float, 256, 4, 4, FinishEarly>(),
      shipped<float, 512, 8, 2, FinishEarly>(),
      shipped<double, 256, 4, 4, FinishEarly>(),
      shipped<double, 512, 8, 2, FinishEarly>(),
      // four blocks of 256 per SM instead of two of 512, and 4 loads in flight instead of 8
      shipped<float, 256, 8, 4, FinishBlock>(),
      shipped<double, 256, 8, 4, FinishBlock>(),
      shipped<float, 512, 4, 2, FinishBlock>(),
      shipped<double, 512, 4, 2, FinishBlock>(),
      // one tile per block: Mid's shape, and fewer, larger tiles (ref/read's shape among them)
      lean<float, 256, 4, 4>(),  lean<float, 256, 8, 4>(),  lean<float, 512, 4, 2>(),  lean<float, 512, 8, 2>(),
      lean<float, 1024, 4, 1>(), lean<float, 1024, 8, 1>(), lean<double, 256, 4, 4>(), lean<double, 512, 4, 2>(),
      lean<double, 512, 8, 2>(), lean<double, 1024, 4, 1>(),
  };
}

}  // namespace

RB_REGISTER_BACKEND(tuning_grid());
RB_REGISTER_BACKEND(staggered_grid());
RB_REGISTER_BACKEND(doubles_grid());
RB_REGISTER_BACKEND(late_and_read<float>());
RB_REGISTER_BACKEND(late_and_read<double>());

}  // namespace rb::bench::gpu
