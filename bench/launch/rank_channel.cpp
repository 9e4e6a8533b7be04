#include "bench/launch/rank_channel.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "bench/launch/rendezvous_io.hpp"

#if RB_HAVE_MPI
#include <mpi.h>
#endif

namespace rb::bench {
namespace {

using namespace rendezvous_io;

// The agreement's messages (bench/launch/agreement.hpp): magic, the sender's rank, the length, the
// bytes; 64-bit little-endian numbers. Never 128 bytes of an id, never read as one.
constexpr std::string_view kToRank0 = "RBAG";
constexpr std::string_view kFromRank0 = "RBAV";
constexpr std::size_t kHeader = 4 + 8 + 8;
constexpr std::uint64_t kMaxMessage = std::uint64_t{1} << 24;

std::string frame(std::string_view magic, int rank, const std::string& payload) {
  std::string out(magic);
  for (const std::uint64_t v : {static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(payload.size())}) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  return out + payload;
}

struct Frame {
  std::uint64_t rank = 0;
  std::string payload;
};
enum class Parsed { incomplete, foreign, complete };

Parsed unframe(std::string_view magic, const std::string& bytes, Frame& out) {
  if (bytes.size() < kHeader)
    return std::string_view(bytes).starts_with(magic.substr(0, bytes.size())) ? Parsed::incomplete : Parsed::foreign;
  if (!bytes.starts_with(magic)) return Parsed::foreign;
  std::uint64_t v[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < 8; ++i) v[k] |= std::uint64_t{static_cast<unsigned char>(bytes[4 + 8 * k + i])} << (8 * i);
  }
  if (v[1] > kMaxMessage) return Parsed::foreign;
  if (bytes.size() < kHeader + v[1]) return Parsed::incomplete;
  out.rank = v[0];
  out.payload = bytes.substr(kHeader, v[1]);
  return Parsed::complete;
}

class TcpChannel final : public RankChannel {
 public:
  TcpChannel(Rendezvous r, int rank, int size, double timeout_s)
      : r_(std::move(r)), rank_(rank), size_(size), timeout_s_(timeout_s), deadline_(deadline_after(timeout_s)) {}

  std::vector<std::string> gather(const std::string& mine) override {
    if (rank_ == 0) return gather_at_rank0(mine);
    while ((to_rank0_ = connect_to(r_)).fd < 0) {
      if (Clock::now() > deadline_) {
        throw std::runtime_error("rendezvous: rank 0 did not listen on " + r_.describe() + " within " +
                                 seconds_text(timeout_s_) +
                                 " s to check the ranks' arguments (is rank 0 running, and HOST rank 0's node?)");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));  // rank 0 not listening yet
    }
    send_all(to_rank0_.fd, frame(kToRank0, rank_, mine));
    return {};
  }

  std::string broadcast(const std::string& from_rank0) override {
    if (rank_ == 0) {
      for (auto& p : peers_) {
        try {
          send_all(p.fd, frame(kFromRank0, 0, from_rank0));
        } catch (const std::runtime_error&) {
          // That rank has gone: nobody is left there to tell.
        }
      }
      peers_.clear();
      listener_.reset();
      return from_rank0;
    }
    std::string got;
    Frame f;
    while (true) {
      const Parsed p = unframe(kFromRank0, got, f);
      if (p == Parsed::complete) return f.payload;
      if (p == Parsed::foreign) {
        throw std::runtime_error("rendezvous: " + r_.describe() + " answered with no answer of rank 0's");
      }
      const int ms = ms_until(deadline_);
      if (ms <= 0) {
        throw std::runtime_error("rendezvous: no answer from rank 0 on " + r_.describe() + " within " +
                                 seconds_text(timeout_s_) + " s to the check of the ranks' arguments");
      }
      pollfd q{to_rank0_.fd, POLLIN, 0};
      const int ready = ::poll(&q, 1, ms);
      if (ready < 0 && errno != EINTR) sys_error("poll");
      if (ready <= 0) continue;
      char buf[4096];
      const ssize_t k = ::recv(to_rank0_.fd, buf, sizeof buf, 0);
      if (k <= 0) {
        throw std::runtime_error("rendezvous: rank 0 closed " + r_.describe() +
                                 " before it answered the check of the ranks' arguments (its stderr says why)");
      }
      got.append(buf, static_cast<std::size_t>(k));
    }
  }

 private:
  struct Pending {
    Fd fd;
    std::string got;
  };

  std::vector<std::string> gather_at_rank0(const std::string& mine) {
    listener_ = listen_on(r_, size_ - 1);
    std::vector<std::string> all(static_cast<std::size_t>(size_));
    std::vector<bool> have(static_cast<std::size_t>(size_), false);
    all[0] = mine;
    have[0] = true;
    int count = 1;
    std::vector<Pending> pending;  // connected, message not complete yet
    while (count < size_) {
      const int ms = ms_until(deadline_);
      if (ms <= 0) {
        throw std::runtime_error("rendezvous: " + std::to_string(count - 1) + " of " + std::to_string(size_ - 1) +
                                 " ranks sent their arguments to " + r_.describe() + " within " +
                                 seconds_text(timeout_s_) + " s");
      }
      std::vector<pollfd> q = {{listener_.fd, POLLIN, 0}};
      for (const auto& p : pending) q.push_back({p.fd.fd, POLLIN, 0});
      const int ready = ::poll(q.data(), q.size(), ms);
      if (ready < 0 && errno != EINTR) sys_error("poll");
      if (ready <= 0) continue;
      for (std::size_t i = pending.size(); i-- > 0;) {
        if (q[i + 1].revents == 0) continue;
        Pending& p = pending[i];
        char buf[4096];
        const ssize_t k = ::recv(p.fd.fd, buf, sizeof buf, 0);
        if (k > 0) p.got.append(buf, static_cast<std::size_t>(k));
        Frame f;
        const Parsed parsed = k > 0 ? unframe(kToRank0, p.got, f) : Parsed::foreign;
        if (parsed == Parsed::incomplete) continue;
        if (parsed == Parsed::complete) {
          if (f.rank < 1 || f.rank >= static_cast<std::uint64_t>(size_)) {
            throw std::runtime_error("rendezvous: a process on " + r_.describe() + " says it is rank " +
                                     std::to_string(f.rank) + ", but rank 0 counts " + std::to_string(size_) +
                                     " ranks");
          }
          if (have[f.rank]) {
            throw std::runtime_error("rendezvous: two processes on " + r_.describe() + " say they are rank " +
                                     std::to_string(f.rank));
          }
          have[f.rank] = true;
          all[f.rank] = std::move(f.payload);
          ++count;
          peers_.push_back(std::move(p.fd));
        }
        pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));  // done, gone, or not one of ours
      }
      if (q[0].revents & POLLIN) {
        Fd c(::accept(listener_.fd, nullptr, nullptr));
        if (c.fd >= 0) pending.push_back({std::move(c), {}});
      }
    }
    return all;
  }

  Rendezvous r_;
  int rank_, size_;
  double timeout_s_;
  Clock::time_point deadline_;
  Fd listener_;            // rank 0
  std::vector<Fd> peers_;  // rank 0: the ranks' connections, kept for the answer
  Fd to_rank0_;            // ranks > 0
};

class FileChannel final : public RankChannel {
 public:
  FileChannel(Rendezvous r, int rank, int size, double timeout_s)
      : r_(std::move(r)), rank_(rank), size_(size), timeout_s_(timeout_s), deadline_(deadline_after(timeout_s)) {}

  std::vector<std::string> gather(const std::string& mine) override {
    if (rank_ > 0) {
      std::remove(answer_path(rank_).c_str());  // a crashed job's, if any: this job's comes after ours
      write_atomically(message_path(rank_), frame(kToRank0, rank_, mine));
      return {};
    }
    std::vector<std::string> all(static_cast<std::size_t>(size_));
    std::vector<bool> have(static_cast<std::size_t>(size_), false);
    all[0] = mine;
    int count = 1;
    while (true) {
      for (int r = 1; r < size_; ++r) {
        if (have[static_cast<std::size_t>(r)]) continue;
        const std::string path = message_path(r);
        const auto bytes = read_whole(path);
        if (!bytes) continue;
        Frame f;
        if (unframe(kToRank0, *bytes, f) != Parsed::complete || f.rank != static_cast<std::uint64_t>(r)) {
          throw std::runtime_error("rendezvous: " + path + " holds no arguments of rank " + std::to_string(r));
        }
        std::remove(path.c_str());
        all[static_cast<std::size_t>(r)] = std::move(f.payload);
        have[static_cast<std::size_t>(r)] = true;
        ++count;
      }
      if (count == size_) return all;
      if (Clock::now() > deadline_) {
        throw std::runtime_error("rendezvous: " + std::to_string(count - 1) + " of " + std::to_string(size_ - 1) +
                                 " ranks wrote their arguments beside " + r_.path + " (" + message_path(1) +
                                 ", ...) within " + seconds_text(timeout_s_) + " s");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  std::string broadcast(const std::string& from_rank0) override {
    if (rank_ == 0) {
      for (int r = 1; r < size_; ++r) write_atomically(answer_path(r), frame(kFromRank0, 0, from_rank0));
      return from_rank0;
    }
    const std::string path = answer_path(rank_);
    while (true) {
      if (const auto bytes = read_whole(path)) {
        std::remove(path.c_str());
        Frame f;
        if (unframe(kFromRank0, *bytes, f) != Parsed::complete) {
          throw std::runtime_error("rendezvous: " + path + " holds no answer of rank 0's");
        }
        return f.payload;
      }
      if (Clock::now() > deadline_) {
        throw std::runtime_error("rendezvous: no answer from rank 0 in " + path + " within " +
                                 seconds_text(timeout_s_) + " s to the check of the ranks' arguments");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

 private:
  std::string message_path(int r) const { return r_.path + ".agree.r" + std::to_string(r); }
  std::string answer_path(int r) const { return r_.path + ".agree.v" + std::to_string(r); }

  Rendezvous r_;
  int rank_, size_;
  double timeout_s_;
  Clock::time_point deadline_;
};

#if RB_HAVE_MPI
// MPI carries the agreement where it carries NCCL's id (no rendezvous given), initialized here at
// start (ensure_mpi: bench/nccl/team.cpp then finds it initialized).
class MpiChannel final : public RankChannel {
 public:
  MpiChannel() { ensure_mpi(); }

  std::vector<std::string> gather(const std::string& mine) override {
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (mine.size() > static_cast<std::size_t>(INT_MAX)) throw std::runtime_error("MPI: a fingerprint over 2 GiB");
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(static_cast<std::size_t>(rank == 0 ? size : 0));
    if (MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
      throw std::runtime_error("MPI_Gather of the fingerprints' lengths failed");
    }
    std::vector<int> offsets(lengths.size());
    std::int64_t total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
      if (total + lengths[r] > INT_MAX) throw std::runtime_error("MPI: the fingerprints exceed 2 GiB");
      offsets[r] = static_cast<int>(total);
      total += lengths[r];
    }
    std::string joined(static_cast<std::size_t>(total), '\0');
    if (MPI_Gatherv(const_cast<char*>(mine.data()), length, MPI_BYTE, joined.data(), lengths.data(), offsets.data(),
                    MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
      throw std::runtime_error("MPI_Gatherv of the fingerprints failed");
    }
    std::vector<std::string> all;
    for (std::size_t r = 0; r < lengths.size(); ++r) all.push_back(joined.substr(offsets[r], lengths[r]));
    return all;
  }

  std::string broadcast(const std::string& from_rank0) override {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long long length = static_cast<long long>(from_rank0.size());
    if (MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD) != MPI_SUCCESS || length < 0 || length > INT_MAX) {
      throw std::runtime_error("MPI_Bcast of the verdict's length failed");
    }
    std::string out = rank == 0 ? from_rank0 : std::string(static_cast<std::size_t>(length), '\0');
    if (MPI_Bcast(out.data(), static_cast<int>(length), MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
      throw std::runtime_error("MPI_Bcast of the verdict failed");
    }
    return out;
  }
};
#endif

}  // namespace

std::unique_ptr<RankChannel> open_channel(const Rendezvous& r, int rank, int size, double timeout_s) {
  if (r.kind == Rendezvous::Kind::file) return std::make_unique<FileChannel>(r, rank, size, timeout_s);
  if (r.kind == Rendezvous::Kind::tcp) return std::make_unique<TcpChannel>(r, rank, size, timeout_s);
  throw std::runtime_error("rendezvous: none given (--rendezvous=file:PATH|tcp:HOST:PORT or RB_RENDEZVOUS)");
}

std::unique_ptr<RankChannel> open_rank_channel(const Launch& l, const std::string& rendezvous_flag, double timeout_s) {
  const Rendezvous r = choose_rendezvous(rendezvous_flag, [](const char* name) { return std::getenv(name); });
  if (r.kind != Rendezvous::Kind::none) return open_channel(r, l.rank, l.size, timeout_s);
#if RB_HAVE_MPI
  return std::make_unique<MpiChannel>();
#else
  return nullptr;
#endif
}

#if RB_HAVE_MPI
void ensure_mpi() {
  int ready = 0;
  MPI_Initialized(&ready);
  if (ready) return;
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
    throw std::runtime_error("MPI_Init_thread failed");
  }
  std::atexit([] {  // after the communicators are gone
    int done = 0;
    MPI_Finalized(&done);
    if (!done) MPI_Finalize();
  });
}
#endif

}  // namespace rb::bench
