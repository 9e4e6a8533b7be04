#pragma once
// The stream rule (bench/api/gpu_backend.hpp): a backend's enqueue() puts all its work on the stream
// it is given, so that the events around it time all of it and nothing runs before or after them.
// A launch on the legacy default stream, on a stream of its own never joined back, or a device
// synchronization breaks it, and a hot row at an n that fits in L2 can then pass as faster than it
// is. Checked once per backend and n, on one untimed call captured into a CUDA graph in global
// mode: the capture must succeed (a synchronization or an unsafe call ends it), nothing may run
// while it is captured (the poisoned result slot stays poisoned), the graph must hold work, and its
// replay must give the exact sum (bench/detail/verify.hpp). A blocking backend (thrust/*) synchronizes by
// design and is exempt.
#include <functional>

#include "bench/api/gpu_backend.hpp"
#include "bench/gpu/session.hpp"

namespace rb::bench::gpu {

// Captures one call of `backend` on g's stream and replays it; returns the replay's sum. Throws
// CheckFailed (bench/detail/session.hpp) naming the rule when the call breaks it.
// `untouched`, when given, says whether the call's outputs still hold their poison after the
// capture (a shaped row's, bench/gpu/outputs_log.hpp), in place of the result slot's check.
double call_through_graph(GpuSession& g, GpuBackend& backend, const std::function<bool()>& untouched = {});

}  // namespace rb::bench::gpu
