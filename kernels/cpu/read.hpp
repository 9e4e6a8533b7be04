#pragma once
// The kernel behind ref/cpu_read: the plainest loop that reads at the memory's speed and still
// returns the sum, so that the bandwidth ceiling is verified like every other row.
//   What it is:   64 independent float lanes in a plain array, no intrinsics; the compiler
//                 vectorizes it lane-wise (no reassociation needed), once per ISA (AVX-512F,
//                 AVX2, baseline SSE2); the widest this CPU has is picked on the first call.
//   Why a ceiling: 64 lanes = 4 to 16 independent vector adds in flight whatever the ISA, far
//                 more than a core's share of DRAM bandwidth needs; run on the thread pool
//                 (threads.hpp) it measures what the memory system delivers, not the kernel.
//   Cost:         64 float chains of n/64 elements.
#include <cstdint>

namespace rb::cpu {

float read_f32(const float* data, std::int64_t n) noexcept;

}  // namespace rb::cpu
