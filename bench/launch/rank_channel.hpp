#pragma once
// The ranks' agreement at start (bench/launch/agreement.hpp), over the rendezvous of NCCL's id
// (bench/launch/rendezvous.hpp) or MPI: RankChannel's implementations.
//
// Before the id, the same rendezvous carries the agreement on the arguments: one gather of every
// rank's fingerprint at rank 0 and one answer back. It cannot be taken for the id: it ends before
// rank 0 publishes the id, every message of it starts with a magic and the sender's rank ("RBAG",
// rank 0's answer "RBAV"), and
//   file:PATH       rank r > 0 writes PATH.agree.r<r> (atomically, as rank 0 writes PATH), which
//                   rank 0 reads and removes; rank 0 answers in PATH.agree.v<r>, which rank r
//                   reads and removes (and removes first, should a crashed job have left one)
//   tcp:HOST:PORT   the same port: ranks > 0 connect, send theirs and read rank 0's answer on that
//                   connection; rank 0 listens, then closes the port until it publishes the id
//                   (a rank that connects for the id meanwhile is refused and retries)
// MPI, where the build has it and no rendezvous is given: MPI_Gatherv and MPI_Bcast.
#include <memory>

#include "bench/launch/agreement.hpp"
#include "bench/launch/rendezvous.hpp"

namespace rb::bench {

// The agreement's channel over `r` (file or tcp; throws std::runtime_error for none) for rank
// `rank` of `size`: each of its calls gives up `timeout_s` seconds after the channel was opened,
// with std::runtime_error saying what it waited for.
std::unique_ptr<RankChannel> open_channel(const Rendezvous& r, int rank, int size, double timeout_s);

// Where the build has MPI (RB_HAVE_MPI): MPI initialized once per process, finalized at exit.
// The agreement's channel and NCCL's id exchange (bench/nccl/team.cpp) share it.
void ensure_mpi();

}  // namespace rb::bench
