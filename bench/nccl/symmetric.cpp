#include "bench/nccl/symmetric.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <utility>

#include "bench/api/gpu_backend.hpp"
#include "bench/nccl/check.hpp"
#include "common/cuda_check.hpp"

namespace rb::bench::nccl {
namespace {

static_assert(CombineBuffers::kSlotBytes == gpu::ResultSlot::kBytes);

// What each window spans: NCCL's window alignment (NCCL_WIN_REQUIRED_ALIGNMENT); ncclMemAlloc
// rounds the allocation up to its granularity anyway.
constexpr std::size_t kWindowBytes = 4096;

}  // namespace

std::string version_text(int code) {
  // NCCL_VERSION: X*1000 + Y*100 + Z up to 2.8, X*10000 + Y*100 + Z from 2.9 on.
  const bool wide = code >= 10000;
  const int major = wide ? code / 10000 : code / 1000;
  const int minor = wide ? code / 100 % 100 : code / 100 % 10;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

std::string needs_nccl(int have, int need, const std::string& feature, const std::string& whose) {
  if (have >= need) return {};
  const std::string wanted = version_text(need);
  return "needs NCCL >= " + wanted.substr(0, wanted.rfind('.')) + " (" + feature + "); " + whose + " " +
         version_text(have);
}

CombineBuffers CombineBuffers::plain() {
  CombineBuffers b;
  RB_CUDA_CHECK(cudaGetDevice(&b.device_));
  RB_CUDA_CHECK(cudaMalloc(&b.partial_, kSlotBytes));
  RB_CUDA_CHECK(cudaMalloc(&b.result_, kSlotBytes));
  return b;
}

CombineBuffers CombineBuffers::symmetric() {
#if RB_NCCL_SYMMETRIC
  CombineBuffers b;
  b.from_nccl_ = true;
  RB_CUDA_CHECK(cudaGetDevice(&b.device_));
  RB_NCCL_CHECK(ncclMemAlloc(&b.partial_, kWindowBytes));
  RB_NCCL_CHECK(ncclMemAlloc(&b.result_, kWindowBytes));
  return b;
#else
  throw std::logic_error(needs_nccl(NCCL_VERSION_CODE, kSymmetricSince, "symmetric memory", "this build has"));
#endif
}

CombineBuffers::CombineBuffers(CombineBuffers&& o) noexcept
    : partial_(std::exchange(o.partial_, nullptr)),
      result_(std::exchange(o.result_, nullptr)),
      partial_window_(std::exchange(o.partial_window_, nullptr)),
      result_window_(std::exchange(o.result_window_, nullptr)),
      from_nccl_(o.from_nccl_),
      device_(o.device_) {}

CombineBuffers& CombineBuffers::operator=(CombineBuffers&& o) noexcept {
  std::swap(partial_, o.partial_);
  std::swap(result_, o.result_);
  std::swap(partial_window_, o.partial_window_);
  std::swap(result_window_, o.result_window_);
  std::swap(from_nccl_, o.from_nccl_);
  std::swap(device_, o.device_);
  return *this;
}

CombineBuffers::~CombineBuffers() { release(); }

void CombineBuffers::release() noexcept {
  if (!partial_ && !result_) return;
  // Nothing useful to do with an error at teardown.
  (void)cudaSetDevice(device_);
  for (void* p : {partial_, result_}) {
    if (!p) continue;
#if RB_NCCL_SYMMETRIC
    if (from_nccl_) {
      (void)ncclMemFree(p);
      continue;
    }
#endif
    (void)cudaFree(p);
  }
  partial_ = result_ = nullptr;
}

void CombineBuffers::register_windows(ncclComm_t comm) {
#if RB_NCCL_SYMMETRIC
  if (!from_nccl_) throw std::logic_error("CombineBuffers: only ncclMemAlloc'd buffers become symmetric windows");
  RB_NCCL_CHECK(ncclCommWindowRegister(comm, partial_, kWindowBytes, &partial_window_, NCCL_WIN_COLL_SYMMETRIC));
  RB_NCCL_CHECK(ncclCommWindowRegister(comm, result_, kWindowBytes, &result_window_, NCCL_WIN_COLL_SYMMETRIC));
  if (!partial_window_ || !result_window_) {
    throw std::runtime_error(
        "ncclCommWindowRegister gave no window: NCCL found no symmetric-memory support for this communicator "
        "(CUDA VMM, P2P between every pair of GPUs, one node; NCCL_DEBUG=INFO says which)");
  }
#else
  (void)comm;
  throw std::logic_error(needs_nccl(NCCL_VERSION_CODE, kSymmetricSince, "symmetric memory", "this build has"));
#endif
}

void CombineBuffers::deregister(ncclComm_t comm) noexcept {
#if RB_NCCL_SYMMETRIC
  (void)cudaSetDevice(device_);
  for (Window* w : {&partial_window_, &result_window_}) {
    if (*w) (void)ncclCommWindowDeregister(comm, *w);
    *w = nullptr;
  }
#else
  (void)comm;
#endif
}

}  // namespace rb::bench::nccl
