#pragma once
// Self-registration: an adapter file registers its backends with one line at namespace scope,
//   RB_REGISTER_BACKEND(cpu_function<&my_sum>("cpu/my_sum", lanes(Accumulator::f32, 1)));
// The expression is a BackendDef<T> (bench/api/definition.hpp) or a std::vector of them (several rows
// of one file, in their order). It is kept unevaluated until the backends are bound, after main()
// has started: it may check CPU features, read configure-time reasons or throw.
// The sweep order (bench/detail/registry.hpp) does not depend on the order files are linked in.
#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench/api/definition.hpp"

namespace rb::bench::detail {

template <class Def>
struct Registration {
  std::function<std::vector<Def>()> make;
  const char* where;  // file:line of the RB_REGISTER_BACKEND
};

// The registrations of one kind of definition, kept until the backends are bound: a function-local
// static, because registrars in other files run during static initialisation, in an order no
// file controls.
template <class Def>
std::vector<Registration<Def>>& registrations() {
  static std::vector<Registration<Def>> r;
  return r;
}

template <class Def>
bool add_registration(std::function<std::vector<Def>()> make, const char* where) {
  registrations<Def>().push_back({std::move(make), where});
  return true;
}

// Evaluates the registrations and orders them by the strategy of each one's first backend (CPU
// rows, then one-GPU rows, then rows across GPUs) and then by its name, keeping the order within
// one registration: link order (the order of static initialisation) never shows.
// A name registered twice throws, naming both places.
template <class Def>
std::vector<Def> evaluate(const std::vector<Registration<Def>>& registrations) {
  struct Evaluated {
    std::vector<Def> defs;
    const char* where;
  };
  std::vector<Evaluated> all;
  for (const auto& r : registrations) all.push_back({r.make(), r.where});
  const auto key = [](const Evaluated& e) {
    return e.defs.empty() ? std::pair<std::size_t, std::string>()
                          : std::pair(e.defs.front().measure.index(), e.defs.front().name);
  };
  std::stable_sort(all.begin(), all.end(), [&](const Evaluated& a, const Evaluated& b) { return key(a) < key(b); });
  std::vector<Def> out;
  std::map<std::string, const char*> seen;
  for (auto& e : all) {
    for (auto& def : e.defs) {
      const auto [it, fresh] = seen.emplace(def.name, e.where);
      if (!fresh)
        throw std::logic_error("backend '" + def.name + "' is registered twice: " + it->second + " and " + e.where);
      out.push_back(std::move(def));
    }
  }
  return out;
}

// Keeps `make` (returning a std::vector<BackendDef<T>>, backend_list's result) with the
// registrations of its element type.
template <class F>
bool register_lazily(F make, const char* where) {
  return add_registration(std::function(std::move(make)), where);
}

}  // namespace rb::bench::detail

namespace rb::bench {

// Every registered definition of element type T, evaluated now, in sweep order.
template <class T>
std::vector<BackendDef<T>> registered_defs() {
  return detail::evaluate(detail::registrations<BackendDef<T>>());
}

}  // namespace rb::bench

#define RB_REGISTRATION_CAT2(a, b) a##b
#define RB_REGISTRATION_CAT(a, b) RB_REGISTRATION_CAT2(a, b)
#define RB_REGISTRATION_STR2(x) #x
#define RB_REGISTRATION_STR(x) RB_REGISTRATION_STR2(x)

// RB_REGISTER_BACKEND(expr): at namespace scope, once per registration; the expression is
// evaluated (once per binding) when the backends are bound, never during static initialisation.
// backend_list (one parameter: two expressions do not compile) turns a def into a vector of one.
#define RB_REGISTER_BACKEND(...)                                                                 \
  [[maybe_unused]] static const bool RB_REGISTRATION_CAT(rb_backend_registration_, __COUNTER__) = \
      ::rb::bench::detail::register_lazily([] { return backend_list(__VA_ARGS__); },              \
                                           __FILE__ ":" RB_REGISTRATION_STR(__LINE__))
