#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "kernels/cpu/thread_pool.hpp"

namespace {

using rb::cpu::ThreadPool;

// Threads of this process, from /proc/self/status (Linux).
int os_thread_count() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

TEST(ThreadPool, RunsEveryShareOncePerCall) {
  for (const int size : {1, 2, 3, 8}) {
    ThreadPool pool(size);
    ASSERT_EQ(pool.size(), size);
    std::vector<std::atomic<int>> hits(static_cast<std::size_t>(size));
    for (int call = 1; call <= 200; ++call) {
      auto task = [&](int i) noexcept { hits[static_cast<std::size_t>(i)].fetch_add(1); };
      pool.run(task);
      for (int i = 0; i < size; ++i) ASSERT_EQ(hits[static_cast<std::size_t>(i)].load(), call) << "share " << i;
    }
  }
}

TEST(ThreadPool, ThreadsAreCreatedOnceNotPerCall) {
  constexpr int kSize = 4;
  constexpr int kCalls = 2000;
  const int before = os_thread_count();
  ThreadPool pool(kSize);
  const int with_pool = os_thread_count();
  if (before > 0) {
    EXPECT_EQ(with_pool, before + kSize - 1);
  }

  // A thread_local counter survives between calls only on a thread that survives: a thread
  // created per call would start from 0 every time. The ids must not change either.
  std::vector<int> calls_seen(kSize);
  std::vector<std::thread::id> ids(kSize);
  for (int call = 1; call <= kCalls; ++call) {
    auto task = [&](int i) noexcept {
      thread_local int calls_on_this_thread = 0;
      calls_seen[static_cast<std::size_t>(i)] = ++calls_on_this_thread;
      const auto id = std::this_thread::get_id();
      if (call == 1) ids[static_cast<std::size_t>(i)] = id;
      else if (ids[static_cast<std::size_t>(i)] != id) calls_seen[static_cast<std::size_t>(i)] = -1;
    };
    pool.run(task);
  }
  for (int i = 0; i < kSize; ++i) {
    EXPECT_EQ(calls_seen[static_cast<std::size_t>(i)], kCalls) << "share " << i << " ran on a new thread";
  }
  EXPECT_EQ(os_thread_count(), with_pool) << "threads were created during the calls";
}

TEST(ThreadPool, WorkersRunConcurrently) {
  // Every share waits until all have started: this finishes only if the shares really run on
  // size() different threads at once.
  ThreadPool pool(3);
  std::atomic<int> started{0};
  auto task = [&](int) noexcept {
    started.fetch_add(1);
    while (started.load() < 3) std::this_thread::yield();
  };
  pool.run(task);
  EXPECT_EQ(started.load(), 3);
}

TEST(ThreadPool, DestroyedWithoutAnyCall) {
  for (int i = 0; i < 20; ++i) ThreadPool pool(4);
  SUCCEED();
}

}  // namespace
