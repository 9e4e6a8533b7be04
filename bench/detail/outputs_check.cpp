#include "bench/detail/outputs_check.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/parallel.hpp"

namespace rb::bench {
namespace {

// A compensated double sum (Neumaier) of finite values, with the non-finite ones added apart, so
// that a NaN or an infinity gives what IEEE arithmetic gives over the whole row.
struct Acc {
  double hi = 0, lo = 0, abs = 0, special = 0;
  void add(double v) {
    if (!std::isfinite(v)) {
      special += v;
      return;
    }
    two_sum(v);
    abs += std::fabs(v);
  }
  void add(const Acc& o) {
    two_sum(o.hi);
    lo += o.lo;
    abs += o.abs;
    special += o.special;
  }
  double value() const { return special != 0 ? special : hi + lo; }  // NaN != 0 too

 private:
  void two_sum(double v) {
    const double t = hi + v;
    lo += std::fabs(hi) >= std::fabs(v) ? (hi - t) + v : (v - t) + hi;
    hi = t;
  }
};

constexpr std::int64_t kChunk = std::int64_t{1} << 16;

// fn(row, first column, values, count) over x[rows r0..r1) x [j0, j1), values as stored in d.
template <class F>
void read_rect(const ChunkSource& source, Dtype d, std::int64_t n_cols, std::int64_t r0, std::int64_t r1,
               std::int64_t j0, std::int64_t j1, std::vector<float>& scratch, F&& fn) {
  const std::int64_t width = j1 - j0;
  if (width == n_cols) {  // whole rows: contiguous
    const std::int64_t rows_per_read = std::max<std::int64_t>(1, kChunk / n_cols);
    for (std::int64_t r = r0; r < r1; r += rows_per_read) {
      const std::int64_t re = std::min(r1, r + rows_per_read);
      scratch.resize(static_cast<std::size_t>((re - r) * n_cols));
      const float* x = source(r * n_cols, re * n_cols, scratch.data());
      if (x != scratch.data()) std::copy(x, x + (re - r) * n_cols, scratch.data());
      quantize(d, scratch.data(), (re - r) * n_cols);
      for (std::int64_t i = r; i < re; ++i) fn(i, j0, scratch.data() + (i - r) * n_cols, width);
    }
    return;
  }
  scratch.resize(static_cast<std::size_t>(width));
  for (std::int64_t r = r0; r < r1; ++r) {
    const float* x = source(r * n_cols + j0, r * n_cols + j1, scratch.data());
    if (x != scratch.data()) std::copy(x, x + width, scratch.data());
    quantize(d, scratch.data(), width);
    fn(r, j0, scratch.data(), width);
  }
}

// Writes each output's reference as it completes: no array of accumulators per output (at 2^28
// outputs one would take 8 GiB).
struct Sink {
  explicit Sink(OutputReferences& o, std::int64_t outputs) : out(o) {
    out.sum.resize(static_cast<std::size_t>(outputs));
    out.sum_abs.resize(static_cast<std::size_t>(outputs));
  }
  ~Sink() { out.finite = finite; }
  void put(std::int64_t i, const Acc& a) {
    out.sum[static_cast<std::size_t>(i)] = a.value();
    out.sum_abs[static_cast<std::size_t>(i)] = a.abs;
    if (a.special != 0) finite = false;  // NaN != 0 too
  }
  OutputReferences& out;
  std::atomic<bool> finite{true};
};

// Rows: short rows in bands of whole rows, each row's sum complete in one task; long rows in
// column chunks whose partials are added in column order.
void rows_references(const ChunkSource& source, const Shape2D& s, Dtype d, OutputReferences& out) {
  Sink sink(out, s.rows);
  const std::int64_t chunks = (s.cols + kChunk - 1) / kChunk;
  const std::int64_t band = chunks > 1 ? 1 : std::max<std::int64_t>(1, kChunk / s.cols);
  const std::int64_t bands = (s.rows + band - 1) / band;
  std::vector<Acc> partial(chunks > 1 ? static_cast<std::size_t>(s.rows * chunks) : 0);
  parallel_for(bands * chunks, [&](std::int64_t task) {
    const std::int64_t b = task / chunks, c = task % chunks;
    std::vector<float> scratch;
    read_rect(source, d, s.cols, b * band, std::min(s.rows, (b + 1) * band), c * kChunk,
              std::min(s.cols, (c + 1) * kChunk), scratch,
              [&](std::int64_t r, std::int64_t, const float* x, std::int64_t k) {
                Acc a;
                for (std::int64_t i = 0; i < k; ++i) a.add(x[i]);
                if (chunks == 1) sink.put(r, a);
                else partial[static_cast<std::size_t>(r * chunks + c)] = a;
              });
  });
  if (chunks == 1) return;
  for (std::int64_t r = 0; r < s.rows; ++r) {
    Acc a;
    for (std::int64_t c = 0; c < chunks; ++c) a.add(partial[static_cast<std::size_t>(r * chunks + c)]);
    sink.put(r, a);
  }
}

// Columns: bands of rows (as many as keep bands x N partials within 2^24, at most 64) by bands of
// columns; the row bands' partials are added in row order. One band: each column completes in
// its task.
void cols_references(const ChunkSource& source, const Shape2D& s, Dtype d, OutputReferences& out) {
  Sink sink(out, s.cols);
  const std::int64_t bands =
      std::clamp<std::int64_t>((std::int64_t{1} << 24) / s.cols, 1, std::min<std::int64_t>(s.rows, 64));
  const std::int64_t width = s.cols <= kChunk ? s.cols : 4096;
  const std::int64_t col_bands = (s.cols + width - 1) / width;
  std::vector<Acc> partial(bands > 1 ? static_cast<std::size_t>(bands * s.cols) : 0);
  parallel_for(bands * col_bands, [&](std::int64_t task) {
    const std::int64_t b = task / col_bands, c = task % col_bands;
    const std::int64_t j0 = c * width, j1 = std::min(s.cols, (c + 1) * width);
    std::vector<Acc> local(bands == 1 ? static_cast<std::size_t>(j1 - j0) : 0);
    // acc[j - base]: column j's accumulator, local (one band) or this band's partial
    const std::int64_t base = bands == 1 ? j0 : 0;
    Acc* acc = bands == 1 ? local.data() : &partial[static_cast<std::size_t>(b * s.cols)];
    std::vector<float> scratch;
    read_rect(source, d, s.cols, s.rows * b / bands, s.rows * (b + 1) / bands, j0, j1, scratch,
              [&](std::int64_t, std::int64_t first, const float* x, std::int64_t k) {
                for (std::int64_t i = 0; i < k; ++i) acc[first - base + i].add(x[i]);
              });
    if (bands == 1) {
      for (std::int64_t j = j0; j < j1; ++j) sink.put(j, acc[j - base]);
    }
  });
  if (bands == 1) return;
  parallel_for((s.cols + kChunk - 1) / kChunk, [&](std::int64_t c) {
    for (std::int64_t j = c * kChunk; j < std::min(s.cols, (c + 1) * kChunk); ++j) {
      Acc a;
      for (std::int64_t b = 0; b < bands; ++b) a.add(partial[static_cast<std::size_t>(b * s.cols + j)]);
      sink.put(j, a);
    }
  });
}

bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

}  // namespace

OutputReferences output_references(const ChunkSource& source, const Shape2D& shape, Dtype d) {
  OutputReferences out;
  out.shape = shape;
  if (shape.elements() == 0) {
    out.sum.assign(static_cast<std::size_t>(shape.outputs()), 0.0);
    out.sum_abs = out.sum;
    return out;
  }
  if (shape.axis == Axis::rows) rows_references(source, shape, d, out);
  else cols_references(source, shape, d, out);
  return out;
}

std::vector<float> exact_outputs(const OutputReferences& r) {
  std::vector<float> out(r.sum.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(r.sum[i]);
  return out;
}

std::string compare_outputs(std::span<const float> got, std::span<const float> want) {
  std::int64_t wrong = 0, first = -1;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (same_bits(got[i], want[i])) continue;
    if (wrong++ == 0) first = static_cast<std::int64_t>(i);
  }
  if (wrong == 0) return {};
  char buf[200];
  std::snprintf(buf, sizeof buf, "%lld of %zu outputs differ from their integer sums; output %lld is %.9g, not %.9g",
                static_cast<long long>(wrong), want.size(), static_cast<long long>(first),
                static_cast<double>(got[first]), static_cast<double>(want[first]));
  return buf;
}

void OutputsAccuracy::add(std::span<const float> got) {
  const bool first_call = first_.empty();
  std::int64_t differed = 0, wrong = 0;
  Verdict worst;
  bool any = false;
  const auto judge = [&](std::size_t i) {
    Reference r;
    r.n = refs_.shape.summed();
    r.sum = refs_.sum[i];
    r.sum_abs = refs_.sum_abs[i];
    if (std::isnan(r.sum)) r.nan = 1;  // matched in kind (check_accuracy)
    else if (std::isinf(r.sum)) (r.sum > 0 ? r.pos_inf : r.neg_inf) = 1;
    Verdict v = check_accuracy(got[i], r, structure_);
    if (!v.ok) {
      ++wrong;
      v.message += " (output " + std::to_string(i) + ")";
    }
    if (!any || (!v.ok && worst.ok) || (v.ok == worst.ok && v.rel_err > worst.rel_err)) worst = v;
    any = true;
  };
  // An output within its float result's own rounding passes every bound stated for a float result
  // (summation.hpp): only the worst of those is judged in full (2^28 outputs a call otherwise).
  std::int64_t easy = -1;
  double easy_rel = -1;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!first_call && same_bits(got[i], first_[i])) continue;  // judged with the first call
    differed += !first_call;
    const double err = std::fabs(static_cast<double>(got[i]) - refs_.sum[i]);
    if (structure_.float_result && std::isfinite(err) && err <= kU32 * std::fabs(refs_.sum[i])) {
      const double rel = refs_.sum_abs[i] > 0 ? err / refs_.sum_abs[i] : 0;
      if (rel > easy_rel) easy_rel = rel, easy = static_cast<std::int64_t>(i);
      continue;
    }
    judge(i);
  }
  if (easy >= 0) judge(static_cast<std::size_t>(easy));
  if (first_call) {
    first_.assign(got.begin(), got.end());
    v_.worst = worst;
    v_.worst.ok = !any || worst.ok;
  } else {
    ++v_.checked;
    if (any && ((!worst.ok && v_.worst.ok) || (worst.ok == v_.worst.ok && worst.rel_err > v_.worst.rel_err))) {
      v_.worst = worst;
    }
  }
  v_.differed += differed > 0;
  const bool broke = differed > 0 && promised_ != Determinism::not_guaranteed;
  if ((wrong > 0 || broke) && v_.wrong++ == 0) {
    v_.message = wrong > 0
                     ? worst.message
                     : std::to_string(differed) + " outputs differ from the first call's bits; the backend promises " +
                           std::string(determinism_name(promised_));
  }
}

CallsVerdict OutputsAccuracy::verdict() const {
  CallsVerdict v = v_;
  v.repeatable = v.differed == 0;
  v.ok = v.wrong == 0 && v.worst.ok;
  if (!v.ok) v.message = "per-output check of the calls on the input failed: " + v.message;
  return v;
}

CallsVerdict timed_outputs_verdict(std::span<const CallMismatch> calls, std::int64_t outputs) {
  CallsVerdict v;
  v.worst.ok = true;
  v.worst.rel_tol = 0.0;
  v.checked = static_cast<std::int64_t>(calls.size());
  for (std::size_t k = 0; k < calls.size(); ++k) {
    if (calls[k].wrong == 0) continue;
    if (v.wrong++ == 0) {
      v.worst.ok = false;
      v.worst.rel_err = std::numeric_limits<double>::infinity();
      v.message = "per-call check failed: timed call " + std::to_string(k + 1) + " of " + std::to_string(calls.size()) +
                  ": " + std::to_string(calls[k].wrong) + " of " + std::to_string(outputs) +
                  " outputs differ from their integer sums (or were written past), the first at " +
                  std::to_string(calls[k].first);
    }
  }
  v.differed = v.wrong;
  v.repeatable = v.wrong == 0;
  v.ok = v.wrong == 0;
  if (!v.ok) v.message += "; " + std::to_string(v.wrong) + " of " + std::to_string(v.checked) + " timed calls wrong";
  return v;
}

CallMismatch mismatches(std::span<const float> got, std::span<const float> want) {
  CallMismatch m;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool ok = i < want.size() ? same_bits(got[i], want[i]) : std::bit_cast<std::uint32_t>(got[i]) == ~0u;
    if (ok) continue;
    if (m.wrong++ == 0) m.first = static_cast<std::int64_t>(i);
  }
  return m;
}

}  // namespace rb::bench
