#include "kernels/cpu/thread_pool.hpp"

#include <algorithm>

namespace rb::cpu {

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
    pending_.wait(left, std::memory_order_acquire);
  }
}

void ThreadPool::work(int index) noexcept {
  std::uint32_t seen = 0;  // the generation at construction
  for (;;) {
    generation_.wait(seen, std::memory_order_acquire);
    // run() cannot bump again before this worker's decrement below, so this is the one bump
    // that woke us (or the destructor's).
    seen = generation_.load(std::memory_order_acquire);
    if (stop_) return;
    task_(context_, index);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
  }
}

}  // namespace rb::cpu
