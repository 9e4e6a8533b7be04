#include "bench/detail/exact_check.hpp"

#include <chrono>

#include "bench/detail/verify.hpp"

namespace rb::bench {

const ExactResult& ExactChecks::run(const Case& c, ExactData data, const std::function<double(int set)>& sum_exact) {
  const auto key = std::make_pair(c.backend, c.n);
  if (const auto it = done_.find(key); it != done_.end()) return it->second;
  const auto t0 = std::chrono::steady_clock::now();
  ExactResult r;
  r.check = Outcome::Check::passed;
  try {
    // Set 0 last: the timed calls sum it (--time_on=exact), so it stays in place for them.
    for (int set = InputStore::kExactSets - 1; set >= 0 && r.check == Outcome::Check::passed; --set) {
      const double got = sum_exact(set);
      const Verdict v = check_exact(got, references_.exact(c.n, set, c.dtype, data));
      if (!v.ok) {
        r.check = Outcome::Check::failed;
        r.message = v.message + " (" + (data == ExactData::sparse ? "sparse " : "") + "data set " +
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
