#pragma once
// nccl/onepass/lsa's combine: no host NCCL call, one kernel of ours per GPU (NCCL >= 2.28 device
// API). After the local sum has written this GPU's partial into its symmetric window, the kernel
// waits at an LSA barrier, loads every rank's partial over NVLink in rank order (the same bits on
// every GPU and every call), adds them, writes the sum into this GPU's result, and waits at a
// second barrier, so that no GPU overwrites its partial while a peer still reads it.
#include <cuda_runtime.h>
#include <nccl.h>

#include <memory>
#include <string>

#include "bench/nccl/symmetric.hpp"

namespace rb::bench::nccl {

// One GPU's device communicator (ncclDevComm with one LSA barrier). Freed by LsaCommFree; its NCCL
// resources by destroy_lsa_comm, before the communicator is destroyed.
struct LsaComm;
struct LsaCommFree {
  void operator()(LsaComm* c) const noexcept;
};
using LsaCommPtr = std::unique_ptr<LsaComm, LsaCommFree>;

// Why this build has no device API (NCCL < 2.28 headers), or empty.
std::string lsa_unavailable_in_build();
// ncclDevCommCreate on the current device. Collective: every rank at once, each GPU from its own
// thread (Team::on_every_gpu). Throws with NCCL's message, and when the LSA team is not the whole
// world of `world` ranks (ranks on several nodes), with that reason.
LsaCommPtr make_lsa_comm(ncclComm_t comm, int world);
// ncclDevCommDestroy: local; not after an abort (NCCL freed it then).
void destroy_lsa_comm(ncclComm_t comm, LsaComm& c) noexcept;
// The combine on `stream`: `f64` partials are doubles, else floats. Both buffers registered.
void enqueue_lsa_sum(const LsaComm& c, const CombineBuffers& b, bool f64, cudaStream_t stream);

}  // namespace rb::bench::nccl
