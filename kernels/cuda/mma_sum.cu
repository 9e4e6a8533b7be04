// cuda/mma over f16 and bf16 (mma_sum.hpp): the adds on the tensor cores, one launch for any n.
//
// Every warp step is one mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}: A (16 x 16) is the
// warp's 32 loads of 16 bytes, one per lane and exactly one A fragment (8 elements) each; B is all
// ones; C is float. D = A x ones + C puts every row sum of A in all 8 columns, so a C fragment kept
// across the warp's loop holds, in column 0, the sums of its 16 rows. Which element lands in which
// row does not matter: each is added once. Column 0 lives in lanes with lane % 4 == 0, as c[0] (row
// lane / 4) and c[2] (row lane / 4 + 8); the other columns are copies and are left out.
//
// Around the mma, onepass's frame (onepass.cuh has the terms): the body of 16-byte vectors split
// into contiguous chunks by EvenShare, the head and tail (under 8 elements each) added in float by
// block 0, float block trees, and the grid's last block collecting the others' partials through
// self-emptying slots (slots.cuh). Shapes: onepass's sm_90 Mid below its Large threshold (the same
// bytes), Large above; each thread keeps Unroll 16-byte loads in flight per step.
//
// Deterministic: the grid depends on n and the device, each C fragment takes a fixed sequence of
// mma.sync, and every float addition after it is in an order fixed by the grid.
#include "kernels/cuda/mma_sum.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "common/cuda_check.hpp"
#include "kernels/cuda/block_sum.cuh"
#include "kernels/cuda/chunk_sum.cuh"  // pairwise_sum
#include "kernels/cuda/elements.cuh"
#include "kernels/cuda/layout.cuh"
#include "kernels/cuda/residency.cuh"
#include "kernels/cuda/slots.cuh"
#include "kernels/cuda/tuning.cuh"
#include "kernels/cuda/warp_sum.cuh"

namespace rb::cuda {
namespace {

// Two 16-bit ones in one 32-bit register: a B fragment (two registers) of ones.
template <class T>
inline constexpr unsigned kOnesPair = std::is_same_v<T, __half> ? 0x3C00'3C00u : 0x3F80'3F80u;

// c += (the 16 x 16 tile of which a is this lane's fragment) x ones, for the whole warp: every lane
// must call it, with the same control flow (.aligned). T: __half or __nv_bfloat16.
template <class T>
__device__ __forceinline__ void mma_ones(float (&c)[4], uint4 a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr unsigned kOnes = kOnesPair<T>;
  if constexpr (std::is_same_v<T, __half>) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %8}, "
        "{%0, %1, %2, %3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(kOnes));
  } else {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %8}, "
        "{%0, %1, %2, %3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(kOnes));
  }
#else
  // Code for an architecture without this mma: the host never launches it (code_arch).
  (void)c;
  (void)a;
  __trap();
#endif
}

// body[i] for i < end, else zeros, without a branch: a lane-dependent branch here could leave the
// warp diverged at the next mma.sync, which must be executed by all lanes together. The load is of
// body[min(i, end - 1)], in bounds (end >= 1 where it is called), and its value is dropped past end.
__device__ __forceinline__ uint4 load_or_zero(const uint4* __restrict__ body, std::int64_t i, std::int64_t end) {
  const uint4 v = __ldg(body + (i < end ? i : end - 1));
  return i < end ? v : make_uint4(0u, 0u, 0u, 0u);
}

// Every thread of the grid. Acc C fragments per thread, Shape::unroll loads per step.
template <class T, class Shape, int Acc>
__global__ __launch_bounds__(Shape::threads, Shape::blocks_per_sm) void mma_sum_kernel(
    SplitOf<T> x, EvenShare share, detail::Slot<float>* slots, float* out) {
  constexpr int kThreads = Shape::threads, kUnroll = Shape::unroll;
  constexpr std::int64_t kStep = std::int64_t{kUnroll} * kThreads;
  static_assert(kUnroll % Acc == 0, "every fragment takes the same number of mma per step");
  __shared__ BlockSumStorage<float, kThreads> storage;
  const int t = static_cast<int>(threadIdx.x), lane = t % kWarpSize;
  const Range r = share.block(blockIdx.x);

  float c[Acc][4];
#pragma unroll
  for (int a = 0; a < Acc; ++a) c[a][0] = c[a][1] = c[a][2] = c[a][3] = 0.0f;

  // w: the warp's first vector of the step, the same in all its lanes, so every branch around an
  // mma below is taken by the whole warp. A full step: the warp's last load of it is in the chunk.
  std::int64_t w = r.begin + (t - lane);
  const std::int64_t full_end = r.end - (kWarpSize - 1) - std::int64_t{kUnroll - 1} * kThreads;
#pragma unroll 1
  for (; w < full_end; w += kStep) {
    uint4 v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) v[k] = __ldg(x.body + w + lane + k * kThreads);
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) mma_ones<T>(c[k % Acc], v[k]);
  }
  // At most one step is left (full_end + kStep >= r.end): zeros past the chunk; a load the whole
  // warp has past the end is skipped with its mma.
  if (w < r.end) {
    uint4 v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) v[k] = load_or_zero(x.body, w + lane + k * kThreads, r.end);
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      if (w + k * kThreads < r.end) mma_ones<T>(c[k % Acc], v[k]);
    }
  }

  // Column 0: rows lane / 4 and lane / 4 + 8 of each fragment, then the fragments pairwise.
  float col[Acc];
#pragma unroll
  for (int a = 0; a < Acc; ++a) col[a] = c[a][0] + c[a][2];
  float v = lane % 4 == 0 ? pairwise_sum(col) : 0.0f;
  if (blockIdx.x == 0) v += Element<T>::template widen<float>(x.edge(t));
  const float block_total = block_sum<kThreads>(v, storage);

  // The completion, as FinishBlock's: every block but the last publishes its partial; the last
  // adds the others' slots (fixed order: slot i to thread i % kThreads) and then its own.
  if (gridDim.x == 1) {
    if (t == 0) *out = block_total;
    return;
  }
  if (blockIdx.x + 1 < gridDim.x) {
    if (t == 0) detail::publish_partial(block_total, slots);
    return;
  }
  __syncthreads();  // warp 0's reads of storage in the block tree above, before its reuse
  const float others =
      block_sum<kThreads>(detail::take_slots<float, 4, kThreads>(slots, t, static_cast<int>(gridDim.x) - 1), storage);
  if (t == 0) *out = others + block_total;
}

// The virtual architecture (10 x major + minor) of the code a kernel runs on the current device,
// cached per device: what __CUDA_ARCH__ was when it was compiled, so below 80 its mma_ones traps.
// (Not the binary version: PTX for an older architecture, JIT-compiled, reports the device's.)
template <auto Kernel>
int code_arch() {
  static detail::PerDevice cache;
  return cache.get([](int) {
    cudaFuncAttributes attributes{};
    RB_CUDA_CHECK(cudaFuncGetAttributes(&attributes, Kernel));
    return std::max(attributes.ptxVersion > 0 ? attributes.ptxVersion : attributes.binaryVersion, 1);
  });
}

// One launch shape over elements of T (a storage type of common/dtype.hpp).
template <class T, class Shape>
struct MmaGrid {
  using D = detail::DeviceElementOf<T>;
  // Four fragments (16 registers) at most: with the Large shape's 8 loads in flight (32 registers)
  // the thread stays within the 64 registers that 2 blocks of 512 threads per SM leave it.
  static constexpr int kAccumulators = std::min(Shape::unroll, 4);
  static constexpr auto kKernel = &mma_sum_kernel<D, Shape, kAccumulators>;
  static constexpr std::int64_t kRow = std::int64_t{Shape::threads} * 8;  // elements: 8 per load
  static constexpr std::int64_t kTile = kRow * Shape::unroll;

  // SMs x blocks per SM, at most what is resident at once: the last block waits for all others.
  static int max_grid() {
    return sm_count() * std::min(Shape::blocks_per_sm, resident_blocks_per_sm<kKernel, Shape::threads>());
  }
  static int grid(std::int64_t n) { return work_sized_grid(n, kTile, max_grid()); }

  static void check_runnable() {
    if (code_arch<kKernel>() < 80) {
      throw Error(cudaErrorNoKernelImageForDevice, "cuda/mma: this build has no sm_80+ code for the current device");
    }
  }

  static void sum(const T* in, std::int64_t n, void* scratch, float* out, cudaStream_t stream) {
    check_runnable();
    const auto x = split_aligned(detail::device_elements(in), n);
    const int blocks = grid(n);
    kKernel<<<blocks, Shape::threads, 0, stream>>>(x, EvenShare::make(x.body_n, Shape::threads, blocks),
                                                   static_cast<detail::Slot<float>*>(scratch), out);
    RB_CUDA_CHECK_LAUNCH();
  }

  // A warp takes at most ceil(n / (tile x grid)) steps: a chunk is at most ceil(rows / grid) rows,
  // and nested ceilings of quotients are the ceiling of the whole quotient; one more as margin.
  // Each step gives each fragment at most unroll / kAccumulators mma.
  static MmaGeometry geometry(std::int64_t n) {
    const int g = grid(n);
    const std::int64_t steps = ceil_div(n, kTile * g) + 1;
    return {{g, Shape::threads, kRow, kTile}, kAccumulators, steps * (Shape::unroll / kAccumulators)};
  }
};

// onepass's sm_90 Mid and Large shapes (tuning.cuh), switching at 3 MiB, where onepass switched
// before its Wide path (measured for onepass only) took 1.5-4 MiB.
template <class T>
struct Paths {
  using Mid = MmaGrid<T, OnepassMidShape>;
  using Large = MmaGrid<T, OnepassLargeShape>;
  static constexpr std::int64_t kLargeMinN = (std::int64_t{3} << 20) / static_cast<std::int64_t>(sizeof(T));

  template <class F>
  static decltype(auto) dispatch(std::int64_t n, F&& f) {
    if (n < kLargeMinN) return f(Mid{});
    return f(Large{});
  }
};

}  // namespace

template <class T>
std::size_t MmaSum<T>::scratch_bytes(std::int64_t n) {
  return Paths<T>::dispatch(n, [n](auto k) {
    decltype(k)::check_runnable();  // the attribute query, outside any timed region
    return static_cast<std::size_t>(decltype(k)::grid(n)) * sizeof(detail::Slot<float>);
  });
}

template <class T>
void MmaSum<T>::prepare(void* scratch, std::size_t bytes, cudaStream_t stream) {
  if (bytes > 0) RB_CUDA_CHECK(cudaMemsetAsync(scratch, 0, bytes, stream));
}

template <class T>
void MmaSum<T>::sum(const T* in, std::int64_t n, void* scratch, float* out, cudaStream_t stream) {
  Paths<T>::dispatch(n, [&](auto k) { decltype(k)::sum(in, n, scratch, out, stream); });
}

template <class T>
MmaGeometry MmaSum<T>::geometry(std::int64_t n) {
  return Paths<T>::dispatch(n, [n](auto k) { return decltype(k)::geometry(n); });
}

template <class T>
std::string MmaSum<T>::unavailable() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    (void)cudaGetLastError();
    return "no CUDA device";
  }
  try {
    const int mid = code_arch<Paths<T>::Mid::kKernel>(), large = code_arch<Paths<T>::Large::kKernel>();
    if (std::min(mid, large) < 80) {
      return "needs sm_80 or newer code (mma.sync with 16-bit inputs); this build runs compute_" +
             std::to_string(std::min(mid, large)) + " code on the current device";
    }
  } catch (const Error& e) {
    (void)cudaGetLastError();
    return e.what();
  }
  return {};
}

template struct MmaSum<f16>;
template struct MmaSum<bf16>;

}  // namespace rb::cuda
