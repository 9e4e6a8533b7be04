// The ranks' agreement on their arguments at start (bench/launch/agreement.hpp): the fingerprint, the
// comparison and its message, the verdict, and the exchange over the file and tcp rendezvous
// between threads (bench/launch/rendezvous.hpp), without a GPU or a second process.
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench/launch/agreement.hpp"
#include "bench/launch/rank_channel.hpp"
#include "bench/launch/rendezvous.hpp"
#include "bench/detail/session.hpp"

namespace {

using namespace rb::bench;

const Build kBuild{"0.1.0", "Release; Google Benchmark 1.9.5; cuda=ON"};
const Launch kTwoRanks{0, 2, 0, "torchrun"};

// reduce_bench's flags parsed as main() parses them; `rest` the arguments left for Google Benchmark.
Options parsed(std::vector<std::string> flags, std::vector<std::string>* rest = nullptr) {
  flags.insert(flags.begin(), "reduce_bench");
  std::vector<char*> argv;
  for (auto& f : flags) argv.push_back(f.data());
  int argc = static_cast<int>(argv.size());
  Options o = parse_options(argc, argv.data());
  if (rest) rest->assign(argv.begin() + 1, argv.begin() + argc);
  return o;
}

Fingerprint of(std::vector<std::string> flags, const Build& b = kBuild, const Launch& l = kTwoRanks) {
  std::vector<std::string> rest;
  const Options o = parsed(std::move(flags), &rest);
  return fingerprint(o, l, rest, b);
}

std::string message(const std::vector<Fingerprint>& by_rank) {
  const auto d = compare(by_rank);
  return d ? d->message : "(agree)";
}

TEST(Agreement, SameArgumentsAgree) {
  const std::vector<std::string> flags = {"--sizes=2^20,2^24", "--seed=7", "--benchmark_filter=^nccl/"};
  EXPECT_EQ(message({of(flags), of(flags), of(flags)}), "(agree)");
  EXPECT_EQ(message({of({}), of({})}), "(agree)");
}

TEST(Agreement, NamesTheFirstDifferingFieldWithBothValues) {
  EXPECT_EQ(message({of({"--sizes=2^20,2^24"}), of({"--sizes=2^20"})}),
            R"(ranks disagree on --sizes: rank 0 has "2^20,2^24", rank 1 has "2^20")");
  // --sizes comes before --seed: the first difference is named, one only.
  const auto d = compare({of({"--sizes=2^20,2^24", "--seed=1"}), of({"--sizes=2^20", "--seed=2"})});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->field, "--sizes");
  EXPECT_EQ(message({of({"--seed=42"}), of({"--seed=43"})}),
            R"(ranks disagree on --seed: rank 0 has "42", rank 1 has "43")");
  // The default list says so, against the same list given.
  EXPECT_EQ(message({of({}), of({"--sizes=2^10..2^31,1e4,1e5,1e6,1e7,1e8,5e8,1e9"})}),
            R"m(ranks disagree on --sizes: rank 0 has "2^10..2^31,10000,100000,1000000,1000003,10000000,)m"
            R"m(16777219,100000000,500000000,1000000000 (default)", rank 1 has "2^10..2^31,10000,100000,)m"
            R"m(1000000,10000000,100000000,500000000,1000000000")m");
}

TEST(Agreement, EveryFieldThatChangesARunIsCompared) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"--dtype", {"--dtype=f64"}},
      {"--benchmark_filter", {"--benchmark_filter=^nccl/cub/"}},
      {"--dist", {"--dist=uniform"}},
      {"--input", {"--input=/data/x.f32"}},
      {"--offset", {"--offset=4"}},
      {"--gpus", {"--gpus=2"}},
      {"--precision", {"--precision=1%"}},
      {"--min_samples", {"--min_samples=30"}},
      {"--max_samples", {"--max_samples=50"}},
      {"--max_time", {"--max_time=1s"}},
      {"--timeout", {"--timeout=2s"}},
      {"--warmup", {"--warmup=0.5s"}},
      {"--compare_min_time", {"--compare_min_time=0.1s"}},
      {"--spin_us", {"--spin_us=100"}},
      {"--flush_passes", {"--flush_passes=1"}},
      {"--page_touch_mib", {"--page_touch_mib=0"}},
      {"--list_backends", {"--list_backends"}},
      {"--benchmark_repetitions", {"--benchmark_repetitions=3"}},
      {"--benchmark_min_time", {"--benchmark_min_time=0.5s"}},
      {"--benchmark_enable_random_interleaving", {"--benchmark_enable_random_interleaving"}},
      {"--benchmark_list_tests", {"--benchmark_list_tests=true"}},
      {"other arguments", {"--sizs=2^20"}},
  };
  const Fingerprint plain = of({});
  for (const auto& [field, flags] : cases) {
    const auto d = compare({plain, of(flags)});
    ASSERT_TRUE(d) << field;
    EXPECT_EQ(d->field, field);
  }
  EXPECT_EQ(message({plain, of({"--benchmark_repetitions=3"})}),
            R"m(ranks disagree on --benchmark_repetitions: rank 0 has "(not given)", rank 1 has "3")m");
  EXPECT_EQ(message({of({}, {"0.1.0", "Release"}), of({}, {"0.1.0", "Debug"})}).substr(0, 46),
            R"m(ranks disagree on version: rank 0 has "0.1.0 ()m");
  EXPECT_EQ(compare({of({}), of({}, kBuild, Launch{1, 3, 1, "torchrun"})})->field, "ranks");
}

// Rank 0 alone writes: the flags of its output (which ranks > 0 do not even keep) may differ.
TEST(Agreement, OutputFlagsMayDiffer) {
  EXPECT_EQ(message({of({"--benchmark_out=r.json", "--benchmark_out_format=json", "--benchmark_format=json",
                         "--benchmark_color=false", "--benchmark_counters_tabular=true", "--samples_csv=s.csv",
                         "--collective_timeout=20", "--rendezvous=file:/tmp/id"}),
                     of({})}),
            "(agree)");
}

TEST(Agreement, SeveralRanksAreGroupedByValue) {
  std::vector<Fingerprint> by_rank;
  for (const char* seed : {"42", "7", "7", "8", "7", "42", "9", "10", "11", "12"}) {
    by_rank.push_back(of({std::string("--seed=") + seed}, kBuild, Launch{0, 10, 0, "torchrun"}));
  }
  EXPECT_EQ(message(by_rank), R"(ranks disagree on --seed: rank 0 has "42", ranks 1,2,4 have "7", rank 3 has "8", )"
                              R"(rank 6 has "9", rank 7 has "10", and 2 more ranks differ)");
  by_rank.resize(4);
  by_rank[3] = by_rank[1];
  EXPECT_EQ(message(by_rank), R"(ranks disagree on --seed: rank 0 has "42", ranks 1-3 have "7")");
}

// A rank of another build may lack a field, or have one rank 0 lacks: both differ.
TEST(Agreement, AFieldOneSideLacksDiffers) {
  Fingerprint fewer = of({});
  fewer.erase(fewer.begin() + 3);
  const std::string name = of({})[3].name;
  EXPECT_EQ(compare({of({}), fewer})->field, name);
  EXPECT_NE(message({of({}), fewer}).find(R"m(rank 1 has "(absent)")m"), std::string::npos) << message({of({}), fewer});
  EXPECT_NE(message({fewer, of({})}).find(R"m(rank 0 has "(absent)")m"), std::string::npos) << message({fewer, of({})});
}

TEST(Agreement, SizesAreWrittenAsTheFlagTakesThem) {
  EXPECT_EQ(describe_sizes({1024, 2048, 4096}), "2^10..2^12");
  EXPECT_EQ(describe_sizes({1 << 20, 1 << 24}), "2^20,2^24");
  EXPECT_EQ(describe_sizes({1000, 1 << 20, 1 << 21}), "2^20,2^21,1000");
  EXPECT_EQ(describe_sizes({0, 1, 512, std::int64_t{1} << 40}), "2^40,0,1,512");
  EXPECT_EQ(describe_sizes({}), "(none)");
}

TEST(Agreement, FieldsCarryTheirTextsHash) {
  EXPECT_EQ(hash_text(""), 0xcbf29ce484222325ULL);  // FNV-1a's published vectors
  EXPECT_EQ(hash_text("a"), 0xaf63dc4c8601ec8cULL);
  for (const auto& f : of({"--sizes=2^20"})) EXPECT_EQ(f.hash, hash_text(f.value)) << f.name;
}

TEST(Agreement, EncodesAnyBytesAndRejectsWhatIsNoFingerprint) {
  Fingerprint f = of({});
  for (auto& x : f) {
    if (x.name == "--benchmark_filter") x = make_field(x.name, std::string("a\tb\nc\0d", 7));
  }
  f.push_back(make_field(std::string("x\0y", 3), std::string(1000, '\xff')));
  const std::string bytes = encode(f);
  const Fingerprint back = decode(bytes);
  ASSERT_EQ(back.size(), f.size());
  for (std::size_t i = 0; i < f.size(); ++i) {
    EXPECT_EQ(back[i].name, f[i].name);
    EXPECT_EQ(back[i].value, f[i].value);
    EXPECT_EQ(back[i].hash, f[i].hash);
  }
  EXPECT_THROW(decode(bytes.substr(0, bytes.size() - 1)), std::runtime_error);
  EXPECT_THROW(decode(bytes + "x"), std::runtime_error);
  EXPECT_THROW(decode("RBFP2" + bytes.substr(5)), std::runtime_error);
  EXPECT_THROW(decode(std::string(128, '\0')), std::runtime_error);  // an id is no fingerprint
  // Control characters are shown escaped in the message.
  EXPECT_NE(message({of({}), f}).find(R"(rank 1 has "a\x09b\x0ac\x00d")"), std::string::npos) << message({of({}), f});
}

// A channel that plays the other ranks.
class Scripted final : public RankChannel {
 public:
  Scripted(int rank, std::vector<std::string> others, std::string answer = {})
      : rank_(rank), others_(std::move(others)), answer_(std::move(answer)) {}
  std::vector<std::string> gather(const std::string& mine) override {
    sent = mine;
    if (rank_ > 0) return {};
    std::vector<std::string> all = {mine};
    all.insert(all.end(), others_.begin(), others_.end());
    return all;
  }
  std::string broadcast(const std::string& from_rank0) override {
    answered = from_rank0;
    return rank_ == 0 ? from_rank0 : answer_;
  }
  std::string sent, answered;

 private:
  int rank_;
  std::vector<std::string> others_;
  std::string answer_;
};

TEST(Agreement, RankZeroStopsEveryRankWithOneMessage) {
  Scripted agreeing(0, {encode(of({"--seed=5"}))});
  AgreementResult r = agree(agreeing, 0, of({"--seed=5"}));
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.line, "");
  Scripted disagreeing(0, {encode(of({"--seed=6"}))});
  r = agree(disagreeing, 0, of({"--seed=5"}));
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(r.line, R"(reduce_bench: ranks disagree on --seed: rank 0 has "5", rank 1 has "6")");
  EXPECT_NE(disagreeing.answered, agreeing.answered);
  // What rank 1 makes of either answer.
  Scripted go(1, {}, agreeing.answered);
  r = agree(go, 1, of({"--seed=5"}));
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.line, "");
  EXPECT_EQ(decode(go.sent)[0].name, "version");
  Scripted stop(1, {}, disagreeing.answered);
  r = agree(stop, 1, of({"--seed=6"}));
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_EQ(r.line,
            "reduce_bench: rank 1: rank 0 stopped the job: the ranks' arguments differ on --seed (rank 0's message "
            "names the values)");
  EXPECT_EQ(r.line.find("disagree"), std::string::npos) << "one \"disagree\" message per job: rank 0's";
  Scripted garbage(1, {}, std::string(128, 'x'));
  EXPECT_THROW(agree(garbage, 1, of({})), std::runtime_error);
}

TEST(Agreement, AnUnreadableFingerprintIsAnotherVersion) {
  Scripted odd(0, {"RBFP1 and then nothing sensible"});
  const AgreementResult r = agree(odd, 0, of({}));
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_NE(r.line.find(R"(ranks disagree on version: rank 0 has "0.1.0 (configuration )"), std::string::npos)
      << r.line;
  EXPECT_NE(r.line.find(R"(rank 1 has "(unreadable: fingerprint: )"), std::string::npos) << r.line;
}

// Random interleaving orders the rows per process: refused under a launcher, from the flag or
// Google Benchmark's environment variable; its "false" and other flags are fine.
TEST(Agreement, RandomInterleavingIsRefusedUnderALauncher) {
  EXPECT_NE(refused_under_launcher({"--benchmark_enable_random_interleaving=true"}), "");
  EXPECT_NE(refused_under_launcher({"--benchmark_enable_random_interleaving"}), "");
  EXPECT_EQ(refused_under_launcher({"--benchmark_enable_random_interleaving=false"}), "");
  EXPECT_EQ(refused_under_launcher({"--benchmark_repetitions=3"}), "");
  ::setenv("BENCHMARK_ENABLE_RANDOM_INTERLEAVING", "true", 1);
  EXPECT_NE(refused_under_launcher({}), "");
  EXPECT_EQ(refused_under_launcher({"--benchmark_enable_random_interleaving=false"}), "");
  ::unsetenv("BENCHMARK_ENABLE_RANDOM_INTERLEAVING");
}

TEST(Agreement, OneProcessSkipsIt) { EXPECT_EQ(agree_between_ranks(Launch{}, parsed({}), {}, kBuild), kExitOk); }

int free_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  EXPECT_GE(s, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  EXPECT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  EXPECT_EQ(::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len), 0);
  ::close(s);
  return ntohs(a.sin_port);
}

// Each rank a thread over the real channel, ranks > 0 started first (as they may be).
std::vector<AgreementResult> run_ranks(const Rendezvous& r, const std::vector<Fingerprint>& by_rank) {
  const int size = static_cast<int>(by_rank.size());
  std::vector<AgreementResult> results(by_rank.size());
  std::vector<std::string> errors(by_rank.size());
  std::vector<std::thread> ranks;
  for (int rank = size - 1; rank >= 0; --rank) {
    ranks.emplace_back([&, rank] {
      try {
        const auto channel = open_channel(r, rank, size, rank == 0 ? 20 : 40);
        results[static_cast<std::size_t>(rank)] = agree(*channel, rank, by_rank[static_cast<std::size_t>(rank)]);
      } catch (const std::exception& e) {
        errors[static_cast<std::size_t>(rank)] = e.what();
      }
    });
    if (rank == 1) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  for (auto& t : ranks) t.join();
  for (int rank = 0; rank < size; ++rank) EXPECT_EQ(errors[static_cast<std::size_t>(rank)], "") << "rank " << rank;
  return results;
}

void agree_and_disagree(const Rendezvous& r) {
  const Launch three{0, 3, 0, "torchrun"};
  const Fingerprint same = of({"--sizes=2^20,2^24"}, kBuild, three);
  for (const auto& res : run_ranks(r, {same, same, same})) {
    EXPECT_EQ(res.status, kExitOk);
    EXPECT_EQ(res.line, "");
  }
  const auto res = run_ranks(r, {same, same, of({"--sizes=2^20"}, kBuild, three)});
  ASSERT_EQ(res.size(), 3u);
  EXPECT_EQ(res[0].status, kExitUsage);
  EXPECT_EQ(res[0].line, R"(reduce_bench: ranks disagree on --sizes: rank 0 has "2^20,2^24", rank 2 has "2^20")");
  for (int rank : {1, 2}) {
    EXPECT_EQ(res[static_cast<std::size_t>(rank)].status, kExitUsage) << rank;
    EXPECT_NE(res[static_cast<std::size_t>(rank)].line.find("rank 0 stopped the job"), std::string::npos) << rank;
  }
}

TEST(AgreementChannel, FileLeavesNothingBehind) {
  const auto dir = std::filesystem::temp_directory_path() / ("rb_agreement_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directory(dir);
  agree_and_disagree(parse_rendezvous("file:" + (dir / "id").string()));
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "every rank removes what it read";
  std::filesystem::remove_all(dir);
}

// The id follows the agreement on the same port (and the same file path), and is not confused with it.
TEST(AgreementChannel, TcpThenTheIdOnTheSamePort) {
  const Rendezvous r = parse_rendezvous("tcp:127.0.0.1:" + std::to_string(free_port()));
  agree_and_disagree(r);
  const std::string id(128, '\x5a');
  std::string got;
  std::thread reader([&] { got = fetch(r, id.size(), 20); });
  publish(r, id, 1, 20);
  reader.join();
  EXPECT_EQ(got, id);
}

// What a rank that waits alone throws: `wait` must fail with a message containing `says`.
template <class Wait>
void expect_gives_up(Wait wait, const std::string& says, const char* otherwise) {
  try {
    wait();
    ADD_FAILURE() << otherwise;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

TEST(AgreementChannel, GivesUpWithAReason) {
  const auto dir = std::filesystem::temp_directory_path() / ("rb_agreement_alone_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const Rendezvous f = parse_rendezvous("file:" + (dir / "id").string());
  expect_gives_up([&] { open_channel(f, 0, 2, 0.3)->gather("x"); }, "0 of 1 ranks wrote their arguments beside",
                  "rank 1 never came");
  expect_gives_up(
      [&] {
        auto c = open_channel(f, 1, 2, 0.3);
        c->gather("x");
        c->broadcast({});
      },
      "no answer from rank 0", "rank 0 never answered");
  std::filesystem::remove_all(dir);
  const Rendezvous t = parse_rendezvous("tcp:127.0.0.1:" + std::to_string(free_port()));
  expect_gives_up([&] { open_channel(t, 0, 3, 0.3)->gather("x"); }, "0 of 2 ranks sent their arguments",
                  "ranks 1 and 2 never came");
  expect_gives_up([&] { open_channel(t, 1, 3, 0.3)->gather("x"); }, "rank 0 did not listen",
                  "rank 0 never listened");
}

}  // namespace
