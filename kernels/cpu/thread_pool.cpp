#include "kernels/cpu/thread_pool.hpp"

#include <algorithm>
#include <chrono>

namespace rb::cpu {
namespace {

// How long a thread out of work keeps polling before it sleeps in the futex. Waking a sleeping
// vCPU is slow on the 2-core KVM guest the CI figures come from: a 2-thread call at 2^18 floats
// took 64 us against 13 us on one thread when workers went straight to the futex. Back-to-back
// calls (a benchmark loop, a solver's iterations) land inside the window and find the worker
// awake; past it an idle pool costs no CPU. The polling yields, so an oversubscribed pool (more
// threads than cores, as in the tests) hands the core to whoever has work.
constexpr auto kPollFor = std::chrono::microseconds(100);
constexpr int kPauseRounds = 64;  // pure pause-spin first: the common, sub-microsecond case

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Returns once a != old: polls for up to kPollFor, then blocks in atomic::wait (a futex).
template <class T>
void await_change(const std::atomic<T>& a, T old) noexcept {
  for (int i = 0; i < kPauseRounds; ++i) {
    if (a.load(std::memory_order_acquire) != old) return;
    cpu_relax();
  }
  const auto until = std::chrono::steady_clock::now() + kPollFor;
  while (a.load(std::memory_order_acquire) == old) {
    if (std::chrono::steady_clock::now() > until) {
      while (a.load(std::memory_order_acquire) == old) a.wait(old, std::memory_order_acquire);
      return;
    }
    std::this_thread::yield();
  }
}

}  // namespace

int default_thread_count() noexcept {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

ThreadPool::ThreadPool(int threads) : size_(std::max(threads, 1)) {
  workers_.reserve(static_cast<std::size_t>(size_ - 1));
  for (int i = 1; i < size_; ++i) workers_.emplace_back([this, i] { work(i); });
}

ThreadPool::~ThreadPool() {
  stop_ = true;
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  workers_.clear();  // joins
}

void ThreadPool::run(Task task, void* context) noexcept {
  if (size_ == 1) {
    task(context, 0);
    return;
  }
  task_ = task;
  context_ = context;
  pending_.store(size_ - 1, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  task(context, 0);
  for (std::int32_t left; (left = pending_.load(std::memory_order_acquire)) != 0;) {
    await_change(pending_, left);
  }
}

void ThreadPool::work(int index) noexcept {
  std::uint32_t seen = 0;  // the generation at construction
  for (;;) {
    await_change(generation_, seen);
    // run() cannot bump again before this worker's decrement below, so this is the one bump
    // that woke us (or the destructor's).
    seen = generation_.load(std::memory_order_acquire);
    if (stop_) return;
    task_(context_, index);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
  }
}

}  // namespace rb::cpu
