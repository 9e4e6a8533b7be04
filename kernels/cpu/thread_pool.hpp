#pragma once
// A persistent pool: threads are created once, in the constructor, and sleep when idle.
//
// Wake-up: a 32-bit generation counter. run() publishes the task, bumps the generation
// (release) and notify_all()s; the caller then does share 0 itself and waits for pending_ to
// drop to 0, which the last worker's decrement signals. Whoever waits (a worker for the next
// generation, the caller for pending_) polls for up to 100 us, yielding the core, then blocks
// in atomic::wait, a futex in libstdc++. So calls less than 100 us apart never pay a futex
// wake-up (tens of microseconds for a sleeping vCPU), no thread is created per call, and an
// idle pool uses no CPU: on a 2-core machine a pool that spun forever would steal the core
// from whatever runs next (another runtime's benchmark, the OpenMP or TBB workers).
//
// One caller at a time: run() is not reentrant and not meant to be called from two threads.
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace rb::cpu {

// hardware_concurrency, or 1 where it is unknown.
int default_thread_count() noexcept;

class ThreadPool {
 public:
  using Task = void (*)(void* context, int index) noexcept;

  // threads >= 1 is the number of shares, the caller's included: threads - 1 workers start.
  explicit ThreadPool(int threads = default_thread_count());
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const noexcept { return size_; }

  // Calls task(context, i) for every i in [0, size()): i = 0 on the calling thread, the others
  // on the workers. Returns when all have returned; task must not throw.
  void run(Task task, void* context) noexcept;

  // The same for a callable f(int index) noexcept.
  template <class F>
  void run(F& f) noexcept {
    run([](void* c, int i) noexcept { (*static_cast<F*>(c))(i); }, &f);
  }

 private:
  void work(int index) noexcept;

  int size_;
  Task task_ = nullptr;       // written before the generation bump that publishes it
  void* context_ = nullptr;
  bool stop_ = false;
  alignas(64) std::atomic<std::uint32_t> generation_{0};
  alignas(64) std::atomic<std::int32_t> pending_{0};
  std::vector<std::jthread> workers_;
};

}  // namespace rb::cpu
