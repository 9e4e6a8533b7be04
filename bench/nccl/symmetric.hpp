#pragma once
// The buffers one GPU's combine reads (the local backend's partial) and writes (the combined sum).
// Plain ones come from cudaMalloc. Symmetric ones come from ncclMemAlloc and are registered as
// symmetric windows of the communicator (NCCL >= 2.27), so that ncclAllReduce on them takes NCCL's
// low-latency symmetric kernels, and a kernel of ours can load a peer's partial over NVLink
// (bench/nccl/lsa_combine.hpp). A row picks the kind (Team::use_buffers).
#include <nccl.h>

#include <cstddef>
#include <string>

namespace rb::bench::nccl {

enum class Buffers { plain, symmetric };

// The first NCCL versions with symmetric windows and with the device API (LSA pointers, barriers).
inline constexpr int kSymmetricSince = NCCL_VERSION(2, 27, 0);
inline constexpr int kDeviceApiSince = NCCL_VERSION(2, 28, 0);

// nccl.h declares windows from 2.27 on; older builds keep the type so that the rest compiles, and
// list the rows that need it unavailable (bench/nccl/runner.hpp, unavailable_in_build).
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
#define RB_NCCL_SYMMETRIC 1
using Window = ncclWindow_t;
#else
#define RB_NCCL_SYMMETRIC 0
using Window = void*;
#endif

// "2.28.9" for NCCL_VERSION_CODE 22809 (and "2.8.4" for the pre-2.9 code 2804).
std::string version_text(int code);
// Why NCCL of version code `have` cannot run a row that needs `need` for `feature`, or empty:
// "needs NCCL >= 2.27 (symmetric memory); this build has 2.26.5". `whose` names what `have` is
// ("this build has": the headers; "the loaded library is": libnccl at run time).
std::string needs_nccl(int have, int need, const std::string& feature, const std::string& whose);

class CombineBuffers {
 public:
  // Both hold a result slot's bytes (gpu::ResultSlot::kBytes): a float, a double or a 64-bit integer.
  static constexpr std::size_t kSlotBytes = 16;

  CombineBuffers() = default;
  // On the current device: cudaMalloc'd, or ncclMemAlloc'd (not yet registered).
  static CombineBuffers plain();
  static CombineBuffers symmetric();
  CombineBuffers(CombineBuffers&& o) noexcept;
  CombineBuffers& operator=(CombineBuffers&& o) noexcept;
  CombineBuffers(const CombineBuffers&) = delete;
  CombineBuffers& operator=(const CombineBuffers&) = delete;
  // Frees them; windows must have been deregistered (or their communicator aborted) before.
  ~CombineBuffers();

  // Registers both as symmetric windows of `comm` (the current device's). Collective: every rank
  // registers at once, each GPU from its own thread (Team::on_every_gpu). Throws with NCCL's
  // message, or when NCCL gave no window (symmetric memory unsupported for this communicator).
  void register_windows(ncclComm_t comm);
  // The local half of the teardown: before the communicator is destroyed. No-op when unregistered.
  void deregister(ncclComm_t comm) noexcept;

  void* partial() const noexcept { return partial_; }
  void* result() const noexcept { return result_; }
  Window partial_window() const noexcept { return partial_window_; }
  Window result_window() const noexcept { return result_window_; }

 private:
  void release() noexcept;

  void* partial_ = nullptr;
  void* result_ = nullptr;
  Window partial_window_ = nullptr;
  Window result_window_ = nullptr;
  bool from_nccl_ = false;  // ncclMemAlloc'd: freed with ncclMemFree
  int device_ = 0;
};

}  // namespace rb::bench::nccl
