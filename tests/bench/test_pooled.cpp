// --processes' pooling (bench/detail/pooled.hpp) and the JSON it reads and writes
// (bench/detail/json.hpp): values passed through unchanged, the between-process scatter widening
// every run, rows measured by some processes only, skipped rows left alone.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "bench/detail/json.hpp"
#include "bench/detail/pooled.hpp"
#include "bench/detail/repetitions.hpp"

namespace rb::bench {
namespace {

TEST(Json, ReadsAndWritesGoogleBenchmarksLayoutUnchanged) {
  const std::string text =
      "{\n  \"context\": {\n    \"date\": \"2026-12-05T08:00:00+00:00\",\n    \"num_cpus\": 16,\n"
      "    \"note\": \"quote \\\" backslash \\\\ tab \\t\"\n  },\n  \"benchmarks\": [\n    {\n"
      "      \"name\": \"cub/1000/hot/manual_time\",\n      \"real_time\": 1.2345678901234567e+00,\n"
      "      \"rel_tol\": NaN,\n      \"ceiling\": -Infinity,\n      \"error_occurred\": false,\n"
      "      \"empty\": [],\n      \"none\": {}\n    }\n  ]\n}\n";
  const Json doc = parse_json(text);
  EXPECT_EQ(dump_json(doc), text);
  const Json& row = doc.find("benchmarks")->items.at(0);
  EXPECT_DOUBLE_EQ(row.find("real_time")->as_number(), 1.2345678901234567);
  EXPECT_TRUE(std::isnan(row.find("rel_tol")->as_number()));
  EXPECT_EQ(row.find("ceiling")->as_number(), -INFINITY);
  EXPECT_EQ(doc.find("context")->find("note")->text, "quote \" backslash \\ tab \t");
  EXPECT_TRUE(std::isnan(row.find("name")->as_number()));
}

TEST(Json, NumbersWrittenRoundTrip) {
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> u(-30, 30);
  for (int i = 0; i < 1000; ++i) {
    const double v = std::ldexp(u(gen), static_cast<int>(u(gen) * 10));
    EXPECT_EQ(parse_json(dump_json(Json::number(v))).as_number(), v);
  }
  EXPECT_EQ(Json::number(INFINITY).text, "Infinity");
  EXPECT_EQ(Json::number(NAN).text, "NaN");
}

TEST(Json, RejectsWhatIsNotADocument) {
  for (const char* bad : {"", "{", "{\"a\" 1}", "[1, 2", "{\"a\": 1} x", "\"open", "{\"a\": }"}) {
    EXPECT_THROW(parse_json(bad), std::invalid_argument) << bad;
  }
  std::string deep(100, '[');
  EXPECT_THROW(parse_json(deep + std::string(100, ']')), std::invalid_argument);
}

// One process's document: rows (name, median, own precision), each sampled and meeting ±0.5%.
struct Row {
  std::string name;
  double median_us;
  double precision;
};
Json process_doc(const std::vector<Row>& rows, int family_base = 0) {
  Json doc;
  doc.kind = Json::Kind::object;
  Json context;
  context.kind = Json::Kind::object;
  context.set("date", Json::string_of("today"));
  doc.set("context", context);
  Json list;
  list.kind = Json::Kind::array;
  int family = family_base;
  for (const Row& r : rows) {
    Json b;
    b.kind = Json::Kind::object;
    b.set("name", Json::string_of(r.name + "/manual_time"));
    b.set("family_index", Json::number(family++));
    b.set("per_family_instance_index", Json::number(0));
    b.set("run_name", Json::string_of(r.name + "/manual_time"));
    b.set("run_type", Json::string_of("iteration"));
    b.set("repetitions", Json::number(1));
    b.set("repetition_index", Json::number(0));
    b.set("median_us", Json::number(r.median_us));
    b.set("precision", Json::number(r.precision));
    b.set("target_met", Json::number(r.precision <= 0.005 ? 1 : 0));
    list.items.push_back(b);
  }
  doc.set("benchmarks", list);
  return doc;
}

const Json& run_of(const Json& pooled, std::size_t i) { return pooled.find("benchmarks")->items.at(i); }

TEST(Pooled, ProcessStatesWidenEveryRun) {
  // "a": each process measures it to +-0.2%, but the processes disagree by 3%: no run may keep
  // claiming +-0.5%. "b": the processes agree within their intervals: nothing to widen.
  std::vector<Json> docs;
  const double a[] = {100.0, 103.0, 100.5};
  const double b[] = {50.0, 50.02, 49.99};
  for (int p = 0; p < 3; ++p) docs.push_back(process_doc({{"a", a[p], 0.002}, {"b", b[p], 0.002}}));
  std::vector<PooledRow> rows;
  const Json pooled = pool_processes(docs, 0.005, &rows);
  EXPECT_EQ(pooled.find("context")->find("processes")->text, "3");
  EXPECT_EQ(pooled.find("context")->find("date")->text, "today");
  ASSERT_EQ(pooled.find("benchmarks")->items.size(), 6u);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "a");
  EXPECT_EQ(rows[0].runs, 3);
  EXPECT_EQ(rows[0].processes, 3);
  EXPECT_DOUBLE_EQ(rows[0].median_us, 100.5);
  const double between = between_repetitions({{100.0, 0.002}, {103.0, 0.002}, {100.5, 0.002}});
  EXPECT_GT(between, 0.03);
  EXPECT_DOUBLE_EQ(rows[0].between, between);
  EXPECT_EQ(rows[0].target_met, 0);
  for (std::size_t i = 0; i < 3; ++i) {
    const Json& r = run_of(pooled, i);
    EXPECT_EQ(r.find("process")->as_number(), static_cast<double>(i));
    EXPECT_EQ(r.find("repetition_index")->as_number(), static_cast<double>(i));
    EXPECT_EQ(r.find("repetitions")->as_number(), 3);
    EXPECT_DOUBLE_EQ(r.find("precision_run")->as_number(), 0.002);
    EXPECT_DOUBLE_EQ(r.find("precision")->as_number(), std::hypot(0.002, between));
    EXPECT_EQ(r.find("target_met")->as_number(), 0);
  }
  EXPECT_EQ(rows[1].between, 0);
  EXPECT_EQ(rows[1].target_met, 3);
  EXPECT_DOUBLE_EQ(run_of(pooled, 3).find("precision")->as_number(), 0.002);
}

TEST(Pooled, ARunWidenedInItsProcessIsPooledFromItsOwnPrecision) {
  // A process with repetitions already widened its runs; the pool starts again from precision_run.
  std::vector<Json> docs = {process_doc({{"a", 10.0, 0.004}}), process_doc({{"a", 10.0, 0.004}})};
  Json& r = docs[0].find("benchmarks")->items[0];
  r.set("precision_run", Json::number(0.001));
  r.set("precision", Json::number(0.2));
  const Json pooled = pool_processes(docs, 0.005);
  EXPECT_DOUBLE_EQ(run_of(pooled, 0).find("precision")->as_number(), 0.001);
  EXPECT_DOUBLE_EQ(run_of(pooled, 1).find("precision")->as_number(), 0.004);
}

TEST(Pooled, SkippedRowsAggregatesAndRowsOfSomeProcesses) {
  std::vector<Json> docs = {process_doc({{"a", 10.0, 0.002}, {"c", 5.0, 0.002}}), process_doc({{"a", 10.1, 0.002}})};
  Json skipped = docs[1].find("benchmarks")->items[0];
  skipped.set("error_occurred", Json{Json::Kind::literal, "true", {}, {}});
  skipped.set("error_message", Json::string_of("verification failed"));
  docs[1].find("benchmarks")->items.push_back(skipped);
  Json aggregate = docs[0].find("benchmarks")->items[0];
  aggregate.set("run_type", Json::string_of("aggregate"));
  docs[0].find("benchmarks")->items.push_back(aggregate);
  std::vector<PooledRow> rows;
  const Json pooled = pool_processes(docs, 0.005, &rows);
  ASSERT_EQ(pooled.find("benchmarks")->items.size(), 4u);  // the aggregate dropped
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].runs, 3);
  EXPECT_EQ(rows[0].processes, 2);
  const Json& failed = run_of(pooled, 2);
  EXPECT_EQ(failed.find("error_message")->text, "verification failed");
  EXPECT_EQ(failed.find("precision_run"), nullptr);  // not widened
  EXPECT_EQ(rows[1].name, "c");
  EXPECT_EQ(rows[1].runs, 1);
  EXPECT_EQ(rows[1].between, 0);
  EXPECT_THROW(pool_processes({}, 0.005), std::invalid_argument);
  Json not_results;
  not_results.kind = Json::Kind::object;
  EXPECT_THROW(pool_processes({not_results}, 0.005), std::invalid_argument);
}

}  // namespace
}  // namespace rb::bench
