#include "bench/detail/exact_check.hpp"

#include <chrono>

#include "bench/detail/verify.hpp"

namespace rb::bench {

const ExactResult& ExactChecks::run(const Case& c, ExactData data, const std::function<double(int set)>& sum_exact) {
  return run_judged(c, data, [&](int set) {
    const Verdict v = check_exact(sum_exact(set), references_.exact(c.n, set, c.dtype, data));
    return v.ok ? std::string() : v.message;
  });
}

const ExactResult& ExactChecks::run_judged(const Case& c, ExactData data,
                                           const std::function<std::string(int set)>& check) {
  const std::string key = c.key();
  if (const auto it = done_.find(key); it != done_.end()) return it->second;
  const auto t0 = std::chrono::steady_clock::now();
  ExactResult r;
  r.check = Outcome::Check::passed;
  try {
    // Set 0 last: the timed calls sum it (--time_on=exact), so it stays in place for them.
    for (int set = InputStore::kExactSets - 1; set >= 0 && r.check == Outcome::Check::passed; --set) {
      const std::string why = check(set);
      if (!why.empty()) {
        r.check = Outcome::Check::failed;
        r.message = why + " (" + (data == ExactData::sparse ? "sparse " : "") + "data set " +
                    std::to_string(set + 1) + " of " + std::to_string(InputStore::kExactSets) + ", seed " +
                    std::to_string(input_.exact_seed(set)) + ")";
      }
    }
  } catch (const Skip& e) {
    r.check = Outcome::Check::skipped;
    r.message = std::string("exact check could not run: ") + e.what();
  } catch (const CheckFailed& e) {
    r.check = Outcome::Check::failed;
    r.message = e.what();
  }
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return done_[key] = std::move(r);
}

}  // namespace rb::bench
