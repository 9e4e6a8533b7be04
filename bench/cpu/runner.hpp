#pragma once
#include <cstdint>

#include "bench/api/cpu_backend.hpp"
#include "bench/detail/registry.hpp"

namespace rb::bench {

// The CPU rows' default sizes: every default size up to kCpuDenseMaxN, then every other power of
// two up to kCpuDefaultMaxN (2^24, 2^26, 2^28). Up to 2^22 floats (16 MiB) the data leaves one
// cache level after another and the curve bends; past it a CPU row costs milliseconds to a
// quarter of a second per call and its curve is a plateau with one step, into DRAM, which a
// factor of 4 still locates, so the sweep spends those rows' time on their precision instead
// (docs/methodology.md). 2^28 (1 GiB) is past the largest last-level cache measured (300 MiB on
// the H200 host); one call at 2^31 takes up to 3 s. --sizes runs any size on any backend.
inline constexpr std::int64_t kCpuDenseMaxN = std::int64_t{1} << 22;
inline constexpr std::int64_t kCpuDefaultMaxN = std::int64_t{1} << 28;
bool cpu_default_size(std::int64_t n) noexcept;

// Binds a definition measured on the CPU (OnCpu) to the session: the entry runs the CPU loop.
// Instantiated for every element type of bench/element.hpp.
template <class T>
BackendEntry bind_on_cpu(Session& session, BackendDef<T> def);

}  // namespace rb::bench
