#include "bench/launch/rendezvous_io.hpp"

#include <netdb.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace rb::bench::rendezvous_io {
namespace {

addrinfo* resolve(const Rendezvous& r, bool passive) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (passive) hints.ai_flags = AI_PASSIVE;
  addrinfo* res = nullptr;
  const std::string port = std::to_string(r.port);
  const int rc = ::getaddrinfo(passive ? nullptr : r.host.c_str(), port.c_str(), &hints, &res);
  if (rc != 0) throw std::runtime_error("rendezvous: cannot resolve " + r.describe() + ": " + ::gai_strerror(rc));
  return res;
}

}  // namespace

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

[[noreturn]] void sys_error(const std::string& what) {
  throw std::runtime_error("rendezvous: " + what + ": " + std::strerror(errno));
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

void send_all(int fd, const std::string& blob) {
  std::size_t done = 0;
  while (done < blob.size()) {
    const ssize_t k = ::send(fd, blob.data() + done, blob.size() - done, MSG_NOSIGNAL);
    if (k <= 0) sys_error("send");
    done += static_cast<std::size_t>(k);
  }
}

// Rank 0's listening socket on r.port, for `readers` other ranks.
Fd listen_on(const Rendezvous& r, int readers) {
  addrinfo* res = resolve(r, true);
  Fd s(::socket(res->ai_family, res->ai_socktype, res->ai_protocol));
  if (s.fd < 0) {
    ::freeaddrinfo(res);
    sys_error("socket");
  }
  const int one = 1;
  ::setsockopt(s.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  const int bound = ::bind(s.fd, res->ai_addr, res->ai_addrlen);
  ::freeaddrinfo(res);
  if (bound != 0) sys_error("bind to port " + std::to_string(r.port));
  if (::listen(s.fd, std::min(readers + 1, SOMAXCONN)) != 0) sys_error("listen");
  return s;
}

// A socket connected to rank 0, or an invalid one while nothing listens there.
Fd connect_to(const Rendezvous& r) {
  addrinfo* res = resolve(r, false);
  Fd c(::socket(res->ai_family, res->ai_socktype, res->ai_protocol));
  const bool connected = c.fd >= 0 && ::connect(c.fd, res->ai_addr, res->ai_addrlen) == 0;
  ::freeaddrinfo(res);
  if (!connected) c.reset();
  return c;
}

// Through a temporary file and a rename, so that a reader never sees half of it.
void write_atomically(const std::string& path, const std::string& blob) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(blob.data(), static_cast<std::streamsize>(blob.size()));
    out.close();
    if (!out) throw std::runtime_error("rendezvous: cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) sys_error("rename " + tmp + " to " + path);
}

// The whole file, or nullopt while it does not exist.
std::optional<std::string> read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

int ms_until(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1000));  // poll in slices of at most 1 s
}

Clock::time_point deadline_after(double timeout_s) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
}

}  // namespace rb::bench::rendezvous_io
