#include "bench/nccl/lsa_combine.hpp"

#include <stdexcept>

#include "bench/nccl/check.hpp"
#include "common/cuda_check.hpp"

#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
#define RB_NCCL_DEVICE_API 1
// NCCL's device headers have unused parameters, which -Wextra reports in every file including them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <nccl_device.h>
#pragma GCC diagnostic pop
#else
#define RB_NCCL_DEVICE_API 0
#endif

namespace rb::bench::nccl {

#if RB_NCCL_DEVICE_API

struct LsaComm {
  ncclDevComm dev{};
};

namespace {

// One block: the barrier's threads; thread 0 alone adds, so the order is the rank order.
constexpr int kThreads = 32;

template <class T>
__global__ void lsa_sum(ncclWindow_t partial, T* result, const __grid_constant__ ncclDevComm comm) {
  ncclLsaBarrierSession<ncclCoopCta> barrier{ncclCoopCta(), comm, ncclTeamLsa(comm), comm.lsaBarrier, 0};
  // Release: every peer's partial (its local sum, earlier on its stream) is written before it arrives.
  barrier.sync(ncclCoopCta(), ::cuda::memory_order_acq_rel);
  if (threadIdx.x == 0) {
    T sum = *static_cast<const T*>(ncclGetLsaPointer(partial, 0, 0));
    for (int peer = 1; peer < comm.lsaSize; ++peer) sum += *static_cast<const T*>(ncclGetLsaPointer(partial, 0, peer));
    *result = sum;
  }
  // Release: our loads of the peers' partials are done before any of them leaves and poisons its own.
  barrier.sync(ncclCoopCta(), ::cuda::memory_order_acq_rel);
}

}  // namespace

void LsaCommFree::operator()(LsaComm* c) const noexcept { delete c; }

std::string lsa_unavailable_in_build() { return {}; }

LsaCommPtr make_lsa_comm(ncclComm_t comm, int world) {
  LsaCommPtr c(new LsaComm);
#ifdef NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER
  ncclDevCommRequirements reqs = NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER;
#else
  ncclDevCommRequirements reqs{};  // 2.28's requirements are a plain struct: zeroed, nothing asked
#endif
  reqs.lsaBarrierCount = 1;  // one block, barrier index 0
  RB_NCCL_CHECK(ncclDevCommCreate(comm, &reqs, &c->dev));
  if (c->dev.lsaSize != world) {
    const int lsa = c->dev.lsaSize;
    destroy_lsa_comm(comm, *c);
    throw std::runtime_error("needs every rank in one LSA team (one node, P2P between all GPUs): the " +
                             std::to_string(world) + " ranks form LSA teams of " + std::to_string(lsa));
  }
  return c;
}

void destroy_lsa_comm(ncclComm_t comm, LsaComm& c) noexcept { (void)ncclDevCommDestroy(comm, &c.dev); }

void enqueue_lsa_sum(const LsaComm& c, const CombineBuffers& b, bool f64, cudaStream_t stream) {
  if (f64) {
    lsa_sum<double><<<1, kThreads, 0, stream>>>(b.partial_window(), static_cast<double*>(b.result()), c.dev);
  } else {
    lsa_sum<float><<<1, kThreads, 0, stream>>>(b.partial_window(), static_cast<float*>(b.result()), c.dev);
  }
  RB_CUDA_CHECK_LAUNCH();
}

#else

struct LsaComm {};

void LsaCommFree::operator()(LsaComm* c) const noexcept { delete c; }

std::string lsa_unavailable_in_build() {
  return needs_nccl(NCCL_VERSION_CODE, kDeviceApiSince, "device API", "this build has");
}

LsaCommPtr make_lsa_comm(ncclComm_t, int) { throw std::logic_error(lsa_unavailable_in_build()); }

void destroy_lsa_comm(ncclComm_t, LsaComm&) noexcept {}

void enqueue_lsa_sum(const LsaComm&, const CombineBuffers&, bool, cudaStream_t) {
  throw std::logic_error(lsa_unavailable_in_build());
}

#endif

}  // namespace rb::bench::nccl
