#pragma once
// Start-up work over large inputs (generation, file reads, references) spread over all cores.
#include <cstdint>
#include <functional>

namespace rb {

// Calls fn(i) for every i in [0, count) on up to hardware_concurrency threads, each taking the
// next index from a shared counter; returns when all are done and rethrows the first exception.
void parallel_for(std::int64_t count, const std::function<void(std::int64_t)>& fn);

}  // namespace rb
