// Binding definitions to their strategies' loops: the one file that knows every strategy (OnCpu:
// bench/cpu/runner.hpp; OnGpu and AcrossGpus: bench/gpu/context.hpp), above them all.
#include "bench/api/registration.hpp"
#include "bench/cpu/runner.hpp"
#include "bench/detail/registry.hpp"
#include "bench/gpu/context.hpp"

namespace rb::bench {
namespace {

// `probe_gpu`: probe the device (and say why it cannot run GPU rows) even when no GPU row is bound.
template <class T>
std::vector<BackendEntry> bind(Session& session, std::vector<BackendDef<T>> defs, std::string& gpu_why_not,
                               bool probe_gpu) {
  std::vector<BackendEntry> entries;
  std::vector<BackendDef<T>> on_gpus;
  for (auto& def : defs) {
    if (def.on_cpu()) entries.push_back(bind_on_cpu(session, std::move(def)));
    else on_gpus.push_back(std::move(def));
  }
  gpu_why_not.clear();
  if (probe_gpu || !on_gpus.empty()) {
    for (auto& e : bind_gpu_rows(session, std::move(on_gpus), gpu_why_not)) entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace

template <class T>
std::vector<BackendEntry> bind_backends(Session& session, std::type_identity_t<std::vector<BackendDef<T>>> defs,
                                        std::string& gpu_why_not) {
  return bind(session, std::move(defs), gpu_why_not, false);
}

template <class T>
std::vector<BackendEntry> bind_backends(Session& session, std::type_identity_t<std::vector<BackendDef<T>>> defs) {
  std::string gpu_why_not;
  return bind_backends<T>(session, std::move(defs), gpu_why_not);
}

#define RB_BIND_BACKENDS(T)                                                                                      \
  template std::vector<BackendEntry> bind_backends<T>(Session&, std::vector<BackendDef<T>>, std::string&); \
  template std::vector<BackendEntry> bind_backends<T>(Session&, std::vector<BackendDef<T>>);
RB_FOR_EACH_ELEMENT_TYPE(RB_BIND_BACKENDS)
#undef RB_BIND_BACKENDS

std::vector<BackendEntry> registered_backends(Session& session, std::string& gpu_why_not) {
  std::vector<BackendEntry> entries;
  for (const Dtype d : session.options().dtypes) {
    with_element_type(d, [&]<class T>() {
      for (auto& e : bind(session, registered_defs<T>(), gpu_why_not, true)) entries.push_back(std::move(e));
    });
  }
  return entries;
}

}  // namespace rb::bench
