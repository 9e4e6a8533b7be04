#include "bench/launch/rendezvous.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include "bench/launch/rendezvous_io.hpp"

namespace rb::bench {
namespace {

using namespace rendezvous_io;

void publish_tcp(const Rendezvous& r, const std::string& blob, int readers, double timeout_s) {
  const Fd s = listen_on(r, readers);
  const auto t0 = Clock::now();
  for (int served = 0; served < readers;) {
    pollfd p{s.fd, POLLIN, 0};
    const int left_ms = static_cast<int>(1000 * (timeout_s - since(t0)));
    if (left_ms <= 0) {
      throw std::runtime_error("rendezvous: " + std::to_string(served) + " of " + std::to_string(readers) +
                               " ranks connected to " + r.describe() + " within " + std::to_string(timeout_s) + " s");
    }
    if (::poll(&p, 1, left_ms) <= 0) continue;
    const Fd c(::accept(s.fd, nullptr, nullptr));
    if (c.fd < 0) continue;
    send_all(c.fd, blob);
    ++served;
  }
}

std::string fetch_tcp(const Rendezvous& r, std::size_t bytes, double timeout_s) {
  const auto t0 = Clock::now();
  while (true) {
    const Fd c = connect_to(r);
    if (c.fd >= 0) {
      std::string blob(bytes, '\0');
      std::size_t got = 0;
      while (got < bytes) {
        const ssize_t k = ::recv(c.fd, blob.data() + got, bytes - got, 0);
        if (k <= 0) break;
        got += static_cast<std::size_t>(k);
      }
      if (got == bytes) return blob;
    }
    if (since(t0) > timeout_s) {
      throw std::runtime_error("rendezvous: nothing received from " + r.describe() + " within " +
                               std::to_string(timeout_s) + " s (is rank 0 running, and HOST rank 0's node?)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // rank 0 not listening yet
  }
}

void publish_file(const Rendezvous& r, const std::string& blob) { write_atomically(r.path, blob); }

std::string fetch_file(const Rendezvous& r, std::size_t bytes, double timeout_s) {
  const auto t0 = Clock::now();
  while (true) {
    if (auto blob = read_whole(r.path); blob && blob->size() == bytes) return *blob;
    if (since(t0) > timeout_s) {
      throw std::runtime_error("rendezvous: " + r.path + " did not appear with " + std::to_string(bytes) +
                               " bytes within " + std::to_string(timeout_s) + " s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace

std::string Rendezvous::describe() const {
  switch (kind) {
    case Kind::file: return "file:" + path;
    case Kind::tcp: return "tcp:" + host + ":" + std::to_string(port);
    case Kind::none: break;
  }
  return "none";
}

Rendezvous parse_rendezvous(const std::string& spec) {
  Rendezvous r;
  if (spec.starts_with("file:") && spec.size() > 5) {
    r.kind = Rendezvous::Kind::file;
    r.path = spec.substr(5);
    return r;
  }
  const auto colon = spec.rfind(':');
  if (spec.starts_with("tcp:") && colon > 4 && colon + 1 < spec.size()) {
    r.kind = Rendezvous::Kind::tcp;
    r.host = spec.substr(4, colon - 4);
    try {
      std::size_t used = 0;
      r.port = std::stoi(spec.substr(colon + 1), &used);
      if (used != spec.size() - colon - 1 || r.port < 1 || r.port > 65535) throw std::invalid_argument("port");
    } catch (const std::exception&) {
      throw std::invalid_argument("rendezvous '" + spec + "': the port must be 1..65535");
    }
    return r;
  }
  throw std::invalid_argument("rendezvous '" + spec + "': expected file:PATH or tcp:HOST:PORT");
}

Rendezvous choose_rendezvous(const std::string& flag, const Getenv& env) {
  if (!flag.empty()) return parse_rendezvous(flag);
  if (const char* spec = env("RB_RENDEZVOUS")) return parse_rendezvous(spec);
  const char* addr = env("MASTER_ADDR");
  const char* port = env("MASTER_PORT");
  if (addr && port) return parse_rendezvous(std::string("tcp:") + addr + ":" + std::to_string(std::atoi(port) + 1));
  return {};
}

void publish(const Rendezvous& r, const std::string& blob, int readers, double timeout_s) {
  if (r.kind == Rendezvous::Kind::file) publish_file(r, blob);
  else if (r.kind == Rendezvous::Kind::tcp) publish_tcp(r, blob, readers, timeout_s);
  else throw std::runtime_error("rendezvous: none given (--rendezvous=file:PATH|tcp:HOST:PORT or RB_RENDEZVOUS)");
}

std::string fetch(const Rendezvous& r, std::size_t bytes, double timeout_s) {
  if (r.kind == Rendezvous::Kind::file) return fetch_file(r, bytes, timeout_s);
  if (r.kind == Rendezvous::Kind::tcp) return fetch_tcp(r, bytes, timeout_s);
  throw std::runtime_error("rendezvous: none given (--rendezvous=file:PATH|tcp:HOST:PORT or RB_RENDEZVOUS)");
}

void retire(const Rendezvous& r) {
  if (r.kind == Rendezvous::Kind::file) std::remove(r.path.c_str());
}

}  // namespace rb::bench
