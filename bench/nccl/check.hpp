#pragma once
// RB_NCCL_CHECK: every NCCL call throws on failure with the call, the code's text and NCCL's last
// error message (which names the transport or the peer that failed).
#include <nccl.h>

#include <stdexcept>
#include <string>

#define RB_NCCL_CHECK(expr)                                                                           \
  do {                                                                                                \
    const ncclResult_t rb_nccl_rc_ = (expr);                                                          \
    if (rb_nccl_rc_ != ncclSuccess && rb_nccl_rc_ != ncclInProgress) {                                \
      throw std::runtime_error(std::string(#expr) + ": " + ncclGetErrorString(rb_nccl_rc_) + " (" +  \
                               ncclGetLastError(nullptr) + ") at " + __FILE__ + ":" +                 \
                               std::to_string(__LINE__));                                             \
    }                                                                                                 \
  } while (0)
