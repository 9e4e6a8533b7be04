// Every CPU backend, one line each. The order here is the order of the sweep.
#include "bench/backends/backends.hpp"
#include "bench/cpu/runner.hpp"
#include "kernels/cpu/accumulate.hpp"

namespace rb::bench {

std::vector<BackendEntry> cpu_backend_entries(Session& session) {
  return bind_cpu_backends(
      session, {
                   cpu_function<&rb::cpu::accumulate_f32>("cpu/accumulate_f32", Accumulation::f32_sequential),
                   cpu_function<&rb::cpu::accumulate_f64>("cpu/accumulate_f64", Accumulation::f64),
               });
}

}  // namespace rb::bench
