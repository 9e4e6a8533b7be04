#include "common/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace rb {

void parallel_for(std::int64_t count, const std::function<void(std::int64_t)>& fn) {
  if (count <= 0) return;
  const auto hw = std::max(1u, std::thread::hardware_concurrency());
  const auto workers = static_cast<std::int64_t>(std::min<std::int64_t>(hw, count));
  std::atomic<std::int64_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    for (std::int64_t i; (i = next.fetch_add(1)) < count;) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        next.store(count);
      }
    }
  };
  std::vector<std::jthread> pool;
  for (std::int64_t t = 1; t < workers; ++t) pool.emplace_back(work);
  work();
  pool.clear();  // joins
  if (error) std::rethrow_exception(error);
}

}  // namespace rb
