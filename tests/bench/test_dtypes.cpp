// The element-type axis (--dtype, bench/detail/element.hpp) through the real harness: every type sums the
// f32 input stored in that type, against references over the values as stored; names carry the
// type; a wrong typed row fails verification like an f32 one.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/api/cpu_backend.hpp"
#include "bench/detail/element.hpp"
#include "kernels/cpu/accumulate.hpp"
#include "tests/support/data.hpp"
#include "tests/support/run_cases.hpp"

namespace {

using namespace rb::bench;
using rb::test::outcome_of;
using Kind = Outcome::Kind;

// A plain double sum of the values as stored, independent of the harness's scan.
template <class T>
double widened_sum(const T* x, std::int64_t n) {
  long double s = 0;
  for (std::int64_t i = 0; i < n; ++i) s += rb::widen(x[i]);
  return static_cast<double>(s);
}

Options typed_options(std::vector<std::int64_t> sizes, std::vector<Dtype> dtypes) {
  Options o = rb::test::small_options(std::move(sizes));
  o.dtypes = std::move(dtypes);
  return o;
}

TEST(Dtypes, ParseNamesEveryTypeAndRejectsOthers) {
  EXPECT_EQ(parse_dtypes("all"), (std::vector<Dtype>{Dtype::f32, Dtype::f64, Dtype::f16, Dtype::bf16, Dtype::i32}));
  EXPECT_EQ(parse_dtypes("bf16,f32,bf16"), (std::vector<Dtype>{Dtype::bf16, Dtype::f32}));
  EXPECT_THROW(parse_dtypes("f8"), std::invalid_argument);
  EXPECT_THROW(parse_dtypes("f32,"), std::invalid_argument);
  EXPECT_EQ(dtype_suffix(Dtype::f32), "");
  EXPECT_EQ(dtype_suffix(Dtype::bf16), "@bf16");
}

TEST(Dtypes, StoredValuesAreTheInputRoundedAndEveryOneIsAFloat) {
  std::vector<float> x = {1.0f / 3, -2.5e-8f, 70000.0f, 65519.0f, 1e-7f, -3.999f, 20.0f, NAN};
  std::vector<rb::f16> h(x.size());
  std::vector<rb::bf16> b(x.size());
  std::vector<std::int32_t> i(x.size());
  store(Dtype::f16, x.data(), h.data(), static_cast<std::int64_t>(x.size()));
  store(Dtype::bf16, x.data(), b.data(), static_cast<std::int64_t>(x.size()));
  store(Dtype::i32, x.data(), i.data(), static_cast<std::int64_t>(x.size()));
  EXPECT_EQ(rb::to_float(h[2]), INFINITY);      // past 65504
  EXPECT_EQ(rb::to_float(h[3]), 65504.0f);      // below the midpoint to infinity
  EXPECT_EQ(rb::to_float(b[0]), 0.333984375f);  // 8 significant bits, nearest
  EXPECT_EQ(i[0], 349525);                      // 2^20 / 3, nearest
  EXPECT_EQ(i[4], 0);
  EXPECT_EQ(i[5], -4193256);  // -3.999f is -3.99900007...: x 2^20 = -4193256.08
  EXPECT_EQ(i[6], 16777215);  // 20 * 2^20 saturates at 2^24 - 1
  EXPECT_EQ(i[7], 0);         // NaN has no integer
  for (const Dtype d : {Dtype::f16, Dtype::bf16, Dtype::i32}) {
    std::vector<float> q = x;
    quantize(d, q.data(), static_cast<std::int64_t>(q.size()));
    for (std::size_t k = 0; k + 1 < x.size(); ++k) {
      const double want = d == Dtype::f16 ? rb::widen(h[k]) : d == Dtype::bf16 ? rb::widen(b[k]) : i[k];
      EXPECT_EQ(q[k], want) << dtype_name(d) << " " << k;
    }
  }
}

template <class T>
void expect_typed_data(Session& session, std::int64_t n) {
  const float* x = session.input().host_data(n);
  const T* t = session.input().host_data_as<T>(n);
  std::vector<T> want(static_cast<std::size_t>(n));
  store(rb::dtype_of<T>, x, want.data(), n);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(rb::widen(t[i]), rb::widen(want[i])) << i;
  const Reference& r = session.references().input(n, rb::dtype_of<T>);
  EXPECT_NEAR(r.sum, widened_sum(t, n), 1e-12 * r.sum_abs) << dtype_name(rb::dtype_of<T>);
}

TEST(Dtypes, HostDataAndReferencesAreTheValuesAsStored) {
  Options o = typed_options({1, 4097, 100003}, {Dtype::f16});
  o.dist = Dist::uniform;
  o.offset = 3;
  Session session(o);
  session.input().select_sizes(o.sizes);
  for (const std::int64_t n : o.sizes) {
    expect_typed_data<double>(session, n);
    expect_typed_data<rb::f16>(session, n);
    expect_typed_data<rb::bf16>(session, n);
    expect_typed_data<std::int32_t>(session, n);
  }
  // f16 rounding moves the sum: the types' references differ from f32's, as they must.
  EXPECT_NE(session.references().input(100003, Dtype::f16).sum, session.references().input(100003).sum);
  EXPECT_EQ(session.references().input(100003, Dtype::f64).sum, session.references().input(100003).sum);
}

TEST(Dtypes, RowsOfEveryTypeAreNamedByTypeAndF32NamesStay) {
  Session session(typed_options({1024}, {Dtype::f32, Dtype::bf16, Dtype::i32}));
  std::string why_not;
  const auto entries = registered_backends(session, why_not);
  bool f32 = false, bf16 = false, i32 = false;
  for (const auto& e : entries) {
    f32 = f32 || e.name == "cpu/accumulate";
    bf16 = bf16 || (e.name == "cpu/avx2@bf16" && e.dtype == Dtype::bf16);
    i32 = i32 || (e.name == "cpu/accumulate@i32" && e.dtype == Dtype::i32);
    EXPECT_EQ(e.name.find("@f32"), std::string::npos) << e.name;
    EXPECT_EQ(e.name.find("@f64"), std::string::npos) << e.name;  // not asked for
  }
  EXPECT_TRUE(f32 && bf16 && i32);
}

float bf16_drops_last(const rb::bf16* x, std::int64_t n) noexcept {
  return rb::cpu::accumulate_bf16(x, n > 0 ? n - 1 : 0);
}
std::int64_t i32_wraps(const std::int32_t* x, std::int64_t n) noexcept {
  std::int32_t s = 0;  // an int32 accumulator: wraps where the int64 sum does not
  for (std::int64_t i = 0; i < n; ++i)
    s = static_cast<std::int32_t>(static_cast<std::uint32_t>(s) + static_cast<std::uint32_t>(x[i]));
  return s;
}

TEST(Dtypes, TypedRowsAreVerifiedAndWrongOnesFail) {
  // Values in [8, 15): stored as i32 (x 2^20) every 300001 of them overflow an int32 sum.
  const auto path = std::filesystem::temp_directory_path() / ("rb_dtypes_" + std::to_string(::getpid()) + ".f32");
  {
    std::vector<float> x = rb::test::random_signed(300001, 7);
    for (float& v : x) v = 11.5f + 3.5f * v;
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(x.data()), x.size() * sizeof(float));
  }
  Options o = typed_options({7, 4097, 300001}, {Dtype::bf16, Dtype::i32});
  o.input_path = path.string();
  Session session(o);
  auto bf16 =
      bind_backends<rb::bf16>(session, {cpu_function<&rb::cpu::accumulate_bf16>("t/good", lanes(Accumulator::f32, 1)),
                                        cpu_function<&bf16_drops_last>("t/drops_last", lanes(Accumulator::f32, 1))});
  const auto i32 = bind_backends<std::int32_t>(
      session, {cpu_function<&rb::cpu::accumulate_i32>("t/good", lanes(Accumulator::i64, 1)),
                cpu_function<&i32_wraps>("t/wraps", lanes(Accumulator::i64, 1))});
  bf16.insert(bf16.end(), i32.begin(), i32.end());
  rb::test::run_in_process(session, bf16);
  for (const std::string n : {"7", "4097", "300001"}) {
    EXPECT_EQ(outcome_of(session, "t/good@bf16/" + n + "/hot").kind, Kind::ok)
        << n << ": " << outcome_of(session, "t/good@bf16/" + n + "/hot").message;
    EXPECT_EQ(outcome_of(session, "t/drops_last@bf16/" + n + "/hot").kind, Kind::verification_failed) << n;
    EXPECT_EQ(outcome_of(session, "t/good@i32/" + n + "/hot").kind, Kind::ok) << n;
  }
  EXPECT_EQ(outcome_of(session, "t/wraps@i32/300001/hot").kind, Kind::verification_failed);
  std::filesystem::remove(path);
}

}  // namespace
