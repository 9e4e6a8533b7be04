#pragma once
// The rendezvous's sockets and files (bench/launch/rendezvous.hpp: NCCL's id; rank_channel.hpp: the
// ranks' agreement), internal to both. Errors throw std::runtime_error starting "rendezvous: ".
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "bench/launch/rendezvous.hpp"

namespace rb::bench::rendezvous_io {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0);
[[noreturn]] void sys_error(const std::string& what);
std::string seconds_text(double s);

// A socket closed once, by its last owner.
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(Fd&& o) noexcept : fd(std::exchange(o.fd, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd = std::exchange(o.fd, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

void send_all(int fd, const std::string& blob);
// Rank 0's listening socket on r.port, for `readers` other ranks.
Fd listen_on(const Rendezvous& r, int readers);
// A socket connected to rank 0, or an invalid one while nothing listens there.
Fd connect_to(const Rendezvous& r);

// Through a temporary file and a rename, so that a reader never sees half of it.
void write_atomically(const std::string& path, const std::string& blob);
// The whole file, or nullopt while it does not exist.
std::optional<std::string> read_whole(const std::string& path);

// Milliseconds to `deadline`, in slices of at most 1 s (for poll); the deadline `timeout_s` from now.
int ms_until(Clock::time_point deadline);
Clock::time_point deadline_after(double timeout_s);

}  // namespace rb::bench::rendezvous_io
