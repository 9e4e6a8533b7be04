#pragma once
// How rank 0 hands the NCCL unique id (128 opaque bytes) to the other ranks when there is no MPI:
//   file:PATH       rank 0 writes PATH (through a temporary file and a rename, so a reader never
//                   sees half of it); the others poll until it appears. PATH must be on a
//                   filesystem every node sees, and new per job: a file left from an earlier job
//                   would hand out a stale id (rank 0 removes it once every rank has joined).
//   tcp:HOST:PORT   rank 0 listens on PORT and sends the bytes to each of the size - 1 ranks that
//                   connect; they retry until it listens. HOST is rank 0's node.
// Spec: --rendezvous=SPEC, else RB_RENDEZVOUS=SPEC, else under torchrun (MASTER_ADDR and
// MASTER_PORT set) tcp:MASTER_ADDR:MASTER_PORT+1 (MASTER_PORT itself is torchrun's own store).
// No NCCL here: the bytes are opaque, and the tests run without a GPU.
// The agreement on the arguments travels the same way first: bench/nccl/rank_channel.hpp.
#include <cstddef>
#include <string>

#include "bench/launch/launch.hpp"

namespace rb::bench {

struct Rendezvous {
  enum class Kind { none, file, tcp } kind = Kind::none;
  std::string path;  // file
  std::string host;  // tcp
  int port = 0;
  std::string describe() const;
};

// Throws std::invalid_argument for a malformed spec.
Rendezvous parse_rendezvous(const std::string& spec);
// `flag` (--rendezvous) if given, else the environment's, else none.
Rendezvous choose_rendezvous(const std::string& flag, const Getenv& env);

// Rank 0: makes `blob` available to `readers` other ranks; returns once they have it (tcp) or it
// is written (file). Ranks > 0: returns the `bytes` bytes rank 0 published. Both give up after
// `timeout_s` seconds with std::runtime_error saying what they waited for.
void publish(const Rendezvous& r, const std::string& blob, int readers, double timeout_s);
std::string fetch(const Rendezvous& r, std::size_t bytes, double timeout_s);
// Rank 0, once every rank has joined: removes the file (nothing for tcp).
void retire(const Rendezvous& r);

}  // namespace rb::bench
