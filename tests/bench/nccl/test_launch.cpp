// The launcher environment, the output rules for ranks other than 0, the shards and the
// rendezvous (file and TCP, between threads): everything of the multi-process path that needs
// neither NCCL nor a GPU.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench/launch/launch.hpp"
#include "bench/launch/rendezvous.hpp"
#include "bench/nccl/shard.hpp"

namespace {

using namespace rb::bench;

Getenv env_of(std::map<std::string, std::string> vars) {
  auto held = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [held](const char* name) -> const char* {
    const auto it = held->find(name);
    return it == held->end() ? nullptr : it->second.c_str();
  };
}

TEST(Launch, NoLauncherIsOneProcess) {
  const Launch l = read_launch(env_of({{"HOME", "/root"}}));
  EXPECT_EQ(l.rank, 0);
  EXPECT_EQ(l.size, 1);
  EXPECT_TRUE(l.by.empty());
}

TEST(Launch, EachLauncherIsRead) {
  // mpirun -np 8: its own variables alone.
  Launch l = read_launch(
      env_of({{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "8"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}}));
  EXPECT_EQ(l.rank, 3);
  EXPECT_EQ(l.size, 8);
  EXPECT_EQ(l.local_rank, 1);
  EXPECT_EQ(l.by, "OpenMPI");
  EXPECT_TRUE(l.ignored.empty());
  l = read_launch(env_of({{"PMI_RANK", "1"}, {"PMI_SIZE", "2"}, {"MPI_LOCALRANKID", "1"}}));
  EXPECT_EQ(l.rank, 1);
  EXPECT_EQ(l.size, 2);
  EXPECT_EQ(l.local_rank, 1);
  EXPECT_EQ(l.by, "MPICH/PMI");
  // srun -n 6 reduce_bench --rendezvous=... (or RB_RENDEZVOUS, or MPI over PMIx).
  const std::map<std::string, std::string> srun = {
      {"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "6"}, {"SLURM_STEP_NUM_TASKS", "6"}, {"SLURM_LOCALID", "2"}};
  for (const auto& [extra, flag] : std::vector<std::pair<std::string, std::string>>{
           {"", "file:/shared/id"}, {"RB_RENDEZVOUS", ""}, {"PMIX_RANK", ""}}) {
    auto vars = srun;
    if (!extra.empty()) vars[extra] = extra == "PMIX_RANK" ? "5" : "tcp:node-01:29501";
    l = read_launch(env_of(vars), flag);
    EXPECT_EQ(l.rank, 5) << extra;
    EXPECT_EQ(l.size, 6) << extra;
    EXPECT_EQ(l.local_rank, 2) << extra;
    EXPECT_EQ(l.by, "Slurm") << extra;
  }
  // torchrun --nproc-per-node=2 --no-python reduce_bench: TORCHELASTIC_RUN_ID, no flag needed.
  l = read_launch(env_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "1"}, {"TORCHELASTIC_RUN_ID", "none"},
                          {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", "29500"}}));
  EXPECT_EQ(l.rank, 1);
  EXPECT_EQ(l.size, 2);
  EXPECT_EQ(l.local_rank, 1);
  EXPECT_EQ(l.by, "torchrun");
  // Another launcher of RANK/WORLD_SIZE, with the rendezvous it needs.
  l = read_launch(env_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}}), "tcp:127.0.0.1:29501");
  EXPECT_EQ(l.rank, 1);
  EXPECT_EQ(l.size, 2);
  EXPECT_EQ(l.by, "RANK/WORLD_SIZE");
}

TEST(Launch, MpirunInsideSlurmIsMpirunsAndTheBatchStepIsOneProcess) {
  Launch l = read_launch(env_of({{"OMPI_COMM_WORLD_RANK", "1"}, {"OMPI_COMM_WORLD_SIZE", "4"},
                                 {"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}}));
  EXPECT_EQ(l.rank, 1);
  EXPECT_EQ(l.size, 4);
  // srun's tasks carry SLURM_STEP_NUM_TASKS; the batch script's single process says 1 there.
  l = read_launch(env_of({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "16"}, {"SLURM_STEP_NUM_TASKS", "1"}}),
                  "file:/shared/id");
  EXPECT_EQ(l.size, 1);
  EXPECT_TRUE(l.by.empty());
  EXPECT_TRUE(l.ignored.empty()) << l.ignored;
}

// srun starting one torchrun per node: the workers see srun's variables (the node's task) and
// torchrun's (the worker's); torchrun's describe this process.
TEST(Launch, TorchrunUnderSrunIsTorchruns) {
  const Launch l = read_launch(env_of({{"SLURM_PROCID", "1"}, {"SLURM_STEP_NUM_TASKS", "2"}, {"SLURM_LOCALID", "0"},
                                       {"RANK", "7"}, {"WORLD_SIZE", "8"}, {"LOCAL_RANK", "3"},
                                       {"TORCHELASTIC_RUN_ID", "job"}}),
                               "tcp:node-01:29501");
  EXPECT_EQ(l.rank, 7);
  EXPECT_EQ(l.size, 8);
  EXPECT_EQ(l.local_rank, 3);
  EXPECT_EQ(l.by, "torchrun");
}

// Launcher variables left in an ordinary shell, or a batch script's, leave a plain run one
// process with every row available, and say which were ignored and why.
TEST(Launch, StrayVariablesLeaveOneProcess) {
  struct Stray {
    std::map<std::string, std::string> vars;
    std::string named, why;
  };
  const std::vector<Stray> cases = {
      {{{"RANK", "3"}, {"WORLD_SIZE", "8"}}, "RANK=3 WORLD_SIZE=8 ignored", "TORCHELASTIC_RUN_ID"},
      {{{"RANK", "3"}, {"WORLD_SIZE", "8"}, {"LOCAL_RANK", "3"}, {"MASTER_ADDR", "10.0.0.1"}, {"MASTER_PORT", "29500"}},
       "RANK=3 WORLD_SIZE=8 ignored", "--rendezvous"},
      {{{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "4"}}, "SLURM_PROCID=0 SLURM_NTASKS=4 ignored", "not a task of srun"},
      {{{"SLURM_PROCID", "2"}, {"SLURM_STEP_NUM_TASKS", "4"}}, "SLURM_PROCID=2 SLURM_STEP_NUM_TASKS=4 ignored",
       "needs --rendezvous or RB_RENDEZVOUS"},
  };
  for (const auto& c : cases) {
    const Launch l = read_launch(env_of(c.vars));
    EXPECT_EQ(l.rank, 0) << c.named;
    EXPECT_EQ(l.size, 1) << c.named;
    EXPECT_TRUE(l.by.empty()) << c.named;
    EXPECT_NE(l.ignored.find(c.named), std::string::npos) << l.ignored;
    EXPECT_NE(l.ignored.find(c.why), std::string::npos) << l.ignored;
    EXPECT_NE(l.ignored.find("running as one process"), std::string::npos) << l.ignored;
    std::vector<BackendEntry> entries(2);
    entries[0].name = "cpu/accumulate";
    entries[1].name = "cub";
    keep_collective_rows(l, /*gpus_given=*/false, entries);
    for (const auto& e : entries) EXPECT_TRUE(e.unavailable.empty()) << c.named << ": " << e.name;
  }
  // Both kinds at once: one line naming both.
  const Launch both =
      read_launch(env_of({{"RANK", "3"}, {"WORLD_SIZE", "8"}, {"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "4"}}));
  EXPECT_EQ(both.size, 1);
  EXPECT_NE(both.ignored.find("RANK=3"), std::string::npos) << both.ignored;
  EXPECT_NE(both.ignored.find("SLURM_NTASKS=4"), std::string::npos) << both.ignored;
  EXPECT_EQ(both.ignored.find('\n'), std::string::npos) << both.ignored;
  // A size of 1, or variables that are no numbers, lose nothing: no note, no error.
  EXPECT_TRUE(read_launch(env_of({{"RANK", "0"}, {"WORLD_SIZE", "1"}})).ignored.empty());
  EXPECT_NO_THROW(read_launch(env_of({{"RANK", "one"}, {"WORLD_SIZE", "two"}})));
  EXPECT_EQ(read_launch(env_of({{"RANK", "one"}, {"WORLD_SIZE", "two"}})).size, 1);
}

TEST(Launch, OutOfRangeOrGarbageThrows) {
  const auto torchrun = [](const char* rank, const char* size) {
    return env_of({{"RANK", rank}, {"WORLD_SIZE", size}, {"TORCHELASTIC_RUN_ID", "none"}});
  };
  EXPECT_THROW(read_launch(torchrun("2", "2")), std::invalid_argument);
  EXPECT_THROW(read_launch(torchrun("-1", "2")), std::invalid_argument);
  EXPECT_THROW(read_launch(torchrun("one", "2")), std::invalid_argument);
  EXPECT_THROW(read_launch(env_of({{"OMPI_COMM_WORLD_RANK", "4"}, {"OMPI_COMM_WORLD_SIZE", "4"}})),
               std::invalid_argument);
  EXPECT_THROW(read_launch(env_of({{"RANK", "2"}, {"WORLD_SIZE", "2"}}), "file:/shared/id"), std::invalid_argument);
}

TEST(Launch, OnlyRankZeroWritesFiles) {
  std::string a0 = "reduce_bench", a1 = "--benchmark_out=x.json", a2 = "--benchmark_out_format=json",
              a3 = "--benchmark_filter=^nccl/";
  std::vector<char*> args = {a0.data(), a1.data(), a2.data(), a3.data()};
  auto kept = args;
  drop_output_flags(Launch{0, 2, 0, "torchrun/RANK"}, kept);
  EXPECT_EQ(kept.size(), 4u);
  drop_output_flags(Launch{1, 2, 1, "torchrun/RANK"}, kept);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_STREQ(kept[1], "--benchmark_filter=^nccl/");
}

// A single-GPU row, a collective one, a CPU one.
std::vector<BackendEntry> one_of_each() {
  std::vector<BackendEntry> entries(3);
  entries[0].name = "cub";
  entries[1].name = "nccl/onepass";
  entries[1].collective = true;
  entries[2].name = "cpu/avx2";
  return entries;
}

TEST(Launch, UnderALauncherOnlyCollectiveRowsRun) {
  const auto entries = one_of_each();
  auto asked = entries;
  keep_collective_rows(Launch{}, /*gpus_given=*/true, asked);
  for (const auto& e : asked) EXPECT_TRUE(e.unavailable.empty()) << e.name;
  auto launched = entries;
  keep_collective_rows(Launch{0, 2, 0, "Slurm"}, /*gpus_given=*/false, launched);
  EXPECT_FALSE(launched[0].unavailable.empty());
  EXPECT_TRUE(launched[1].unavailable.empty());
  EXPECT_FALSE(launched[2].unavailable.empty());
}

// One process without --gpus: the collective rows are out, saying how to run them; the rest stay.
TEST(Launch, OneProcessRunsCollectiveRowsOnlyWithGpus) {
  auto entries = one_of_each();
  keep_collective_rows(Launch{}, /*gpus_given=*/false, entries);
  EXPECT_TRUE(entries[0].unavailable.empty());
  EXPECT_NE(entries[1].unavailable.find("--gpus=G"), std::string::npos) << entries[1].unavailable;
  EXPECT_TRUE(entries[2].unavailable.empty());
}

// Every element in exactly one shard, in rank order, sizes differing by at most one, at sizes past
// 2^32 where a 32-bit product would wrap.
TEST(Shard, CoversEveryElementOnce) {
  std::mt19937_64 rng(7);
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{31}, std::int64_t{33},
                               std::int64_t{1'000'003}, (std::int64_t{1} << 35) + 3,
                               static_cast<std::int64_t>(rng() >> 20)}) {
    for (const int g : {1, 2, 3, 7, 8, 64}) {
      std::int64_t next = 0, lo = n, hi = 0;
      for (int r = 0; r < g; ++r) {
        const Shard s = shard_of(n, g, r);
        EXPECT_EQ(s.begin, next) << n << " over " << g;
        next = s.end;
        lo = std::min(lo, s.size());
        hi = std::max(hi, s.size());
      }
      EXPECT_EQ(next, n) << n << " over " << g;
      EXPECT_LE(hi - lo, 1) << n << " over " << g;
      EXPECT_EQ(shard_of(n, g, 0).size(), hi) << "rank 0 holds a longest shard";
    }
  }
}

TEST(Rendezvous, Specs) {
  EXPECT_EQ(parse_rendezvous("file:/shared/id").path, "/shared/id");
  const Rendezvous t = parse_rendezvous("tcp:node-01:29501");
  EXPECT_EQ(t.kind, Rendezvous::Kind::tcp);
  EXPECT_EQ(t.host, "node-01");
  EXPECT_EQ(t.port, 29501);
  EXPECT_THROW(parse_rendezvous("tcp:node-01"), std::invalid_argument);
  EXPECT_THROW(parse_rendezvous("tcp:node:70000"), std::invalid_argument);
  EXPECT_THROW(parse_rendezvous("udp:x:1"), std::invalid_argument);
  // torchrun's MASTER_PORT is its own store's: the next port is ours.
  const Rendezvous d = choose_rendezvous("", env_of({{"MASTER_ADDR", "10.0.0.1"}, {"MASTER_PORT", "29500"}}));
  EXPECT_EQ(d.describe(), "tcp:10.0.0.1:29501");
  EXPECT_EQ(choose_rendezvous("file:/a", env_of({{"RB_RENDEZVOUS", "file:/b"}})).path, "/a");
  EXPECT_EQ(choose_rendezvous("", env_of({{"RB_RENDEZVOUS", "file:/b"}})).path, "/b");
  EXPECT_EQ(choose_rendezvous("", env_of({})).kind, Rendezvous::Kind::none);
}

std::string random_blob(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string b(128, '\0');
  for (auto& c : b) c = static_cast<char>(rng());  // zero bytes included: the id is binary
  return b;
}

// Readers start before the writer, as ranks > 0 may: they wait, then all get the same bytes.
void exchange_between_threads(const Rendezvous& r) {
  const std::string blob = random_blob(static_cast<std::uint64_t>(r.port) + r.path.size());
  std::vector<std::string> got(3);
  std::vector<std::thread> readers;
  for (auto& g : got) readers.emplace_back([&r, &g] { g = fetch(r, 128, 20); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  publish(r, blob, 3, 20);
  for (auto& t : readers) t.join();
  for (const auto& g : got) EXPECT_EQ(g, blob);
  retire(r);
}

TEST(Rendezvous, FileHandsTheSameBytesToEveryReader) {
  const auto path = std::filesystem::temp_directory_path() / ("rb_rendezvous_" + std::to_string(::getpid()));
  std::filesystem::remove(path);
  const Rendezvous r = parse_rendezvous("file:" + path.string());
  exchange_between_threads(r);
  EXPECT_FALSE(std::filesystem::exists(path)) << "rank 0 removes the file once everyone joined";
}

TEST(Rendezvous, TcpHandsTheSameBytesToEveryReader) {
  const int port = 20000 + static_cast<int>(::getpid() % 20000);
  exchange_between_threads(parse_rendezvous("tcp:127.0.0.1:" + std::to_string(port)));
}

TEST(Rendezvous, GivesUpWithAReason) {
  try {
    fetch(parse_rendezvous("file:/nonexistent/rb_id"), 128, 0.2);
    FAIL() << "no file, no id";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/rb_id"), std::string::npos) << e.what();
  }
}

}  // namespace
