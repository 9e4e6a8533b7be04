#include "bench/session.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <new>
#include <tuple>

#include "common/parallel.hpp"
#include "bench/verify.hpp"

namespace rb::bench {
namespace {

// Room left for the OS, the process and the other buffers when sizing the host copy.
constexpr std::int64_t kHostReserve = std::int64_t{1} << 30;
constexpr std::int64_t kFillChunk = std::int64_t{1} << 22;

}  // namespace

std::string Case::name() const {
  std::string name = backend + "/" + std::to_string(n) + (mode == Mode::cold ? "/cold" : "/hot");
  if (min_time > 0) {
    char t[32];
    std::snprintf(t, sizeof t, "/min_time:%0.3f", min_time);  // as Google Benchmark appends it
    name += t;
  }
  return name;
}

std::string format_bytes(double bytes) {
  char buf[64];
  if (bytes >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  else std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  return buf;
}

Session::Session(Options options) : options_(std::move(options)), scan_(chunk_source()) {
  if (!options_.input_path.empty()) file_ = inspect_input_file(options_.input_path);
  exact_references_.resize(kExactSets);
  for (int set = 0; set < kExactSets; ++set) exact_scans_.emplace_back(exact_source(set));
}

ChunkSource Session::chunk_source() const {
  return [this](std::int64_t b, std::int64_t e, float* scratch) { return read_chunk(b, e, scratch); };
}

ChunkSource Session::exact_source(int set) const {
  return [this, set](std::int64_t b, std::int64_t e, float* scratch) -> const float* {
    generate(Dist::integers, exact_seed(set), scratch, b, e);
    return scratch;
  };
}

std::uint64_t Session::exact_seed(int set) const noexcept {
  return set == 0 ? options_.seed
                  : rb::synth::mix(options_.seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(set));
}

const float* Session::read_chunk(std::int64_t b, std::int64_t e, float* scratch) const {
  if (!file_) {
    generate(options_.dist, options_.seed, scratch, b, e);
    return scratch;
  }
  // Resident when the host copy holds it (it is needed anyway for the CPU backends and the GPU
  // upload) and holds the input, read straight from the file otherwise.
  if (e <= host_.count && host_.dirty == 0) return host_.buffer.data() + options_.offset + b;
  read_input_range(*file_, scratch, b, e);
  return scratch;
}

std::string Session::input_description() const {
  std::string d;
  if (file_) d = "file " + file_->path + " (" + std::to_string(file_->count) + " float32 values)";
  else if (options_.dist == Dist::harmonic) d = "synthetic harmonic x[i] = 1/(i+1)";
  else if (options_.dist == Dist::uniform) d = "synthetic uniform [-1, 1), seed " + std::to_string(options_.seed);
  else if (options_.dist == Dist::positive)
    d = "synthetic positive uniform [0, 1), seed " + std::to_string(options_.seed);
  else if (options_.dist == Dist::normal)
    d = "synthetic normal (Irwin-Hall of 4), seed " + std::to_string(options_.seed);
  else d = "synthetic nonzero integers in [-8, 8], seed " + std::to_string(options_.seed);
  if (options_.offset != 0) d += ", starting " + std::to_string(options_.offset) + " floats past alignment";
  return d;
}

void Session::require_input(std::int64_t n) const {
  if (file_ && n > file_->count) {
    throw Skip("n = " + std::to_string(n) + " exceeds the " + std::to_string(file_->count) +
               " values in " + file_->path);
  }
}

const Reference& Session::scan_to(ReferenceScan& scan, std::map<std::int64_t, Reference>& known, std::int64_t n,
                                  const ChunkSource& source) {
  if (const auto it = known.find(n); it != known.end()) return it->second;
  if (n <= scan.covered()) {  // only when n was never selected: scan it on its own
    const std::int64_t one[] = {n};
    return known[n] = compute_references(one, source).front();
  }
  std::vector<std::int64_t> sizes;
  for (const auto s : selected_) {
    if (s > scan.covered() && s < n) sizes.push_back(s);
  }
  sizes.push_back(n);
  for (const auto& r : scan.extend(sizes)) known[r.n] = r;
  return known.at(n);
}

Session::Scanned& Session::typed_scan(Dtype d, int set) {
  const auto key = std::make_pair(d, set);
  if (const auto it = typed_scans_.find(key); it != typed_scans_.end()) return it->second;
  ChunkSource quantized = [this, d, set](std::int64_t b, std::int64_t e, float* scratch) -> const float* {
    const float* x = set < 0 ? read_chunk(b, e, scratch) : exact_source(set)(b, e, scratch);
    if (x != scratch) std::copy(x, x + (e - b), scratch);
    quantize(d, scratch, e - b);
    return scratch;
  };
  return typed_scans_.emplace(key, Scanned{quantized, ReferenceScan(quantized), {}}).first->second;
}

const Reference& Session::reference(std::int64_t n, Dtype d) {
  if (d != Dtype::f32 && d != Dtype::f64) {
    require_input(n);
    Scanned& s = typed_scan(d, -1);
    return scan_to(s.scan, s.known, n, s.source);
  }
  if (!references_.contains(n)) require_input(n);
  return scan_to(scan_, references_, n, chunk_source());
}

StoredInput Session::stored_input(std::int64_t n, Dtype d) {
  const Reference& stored = reference(n, d);
  // Unaltered, the stored values are the input's as far as the counts go: no second scan.
  const Reference& input = may_be_altered(d, stored) ? reference(n) : stored;
  const StoredInput s = ::rb::bench::stored_input(d, input, stored);
  if (s.any()) {
    auto& note = input_notes_[d];
    if (n >= note.first) note = {n, s};
  }
  return s;
}

const Reference& Session::exact_reference(std::int64_t n, int set, Dtype d, ExactData data) {
  if (data == ExactData::sparse) {
    const auto key = std::make_tuple(n, set, d);
    if (const auto it = sparse_references_.find(key); it != sparse_references_.end()) return it->second;
    SparseSet s = sparse_set(exact_seed(set), n);
    quantize(d, s.value.data(), static_cast<std::int64_t>(s.value.size()));
    Reference r;
    r.n = n;
    for (const float v : s.value) {  // a few dozen small integers: every double addition is exact
      r.sum += v;
      r.sum_abs += std::fabs(v);
      r.max_abs = std::max<double>(r.max_abs, std::fabs(v));
    }
    return sparse_references_[key] = r;
  }
  if (d != Dtype::f32 && d != Dtype::f64) {
    Scanned& s = typed_scan(d, set);
    return scan_to(s.scan, s.known, n, s.source);
  }
  return scan_to(exact_scans_.at(static_cast<std::size_t>(set)), exact_references_[static_cast<std::size_t>(set)], n,
                 exact_source(set));
}

namespace {

void fill_synthetic(Dist dist, std::uint64_t seed, float* dst, std::int64_t begin, std::int64_t end) {
  parallel_for((end - begin + kFillChunk - 1) / kFillChunk, [&](std::int64_t c) {
    const std::int64_t b = begin + c * kFillChunk;
    generate(dist, seed, dst + (b - begin), b, std::min(end, b + kFillChunk));
  });
}

// src[0, count) stored as `d` into dst, in parallel chunks.
void parallel_store(Dtype d, const float* src, void* dst, std::int64_t count) {
  auto* out = static_cast<unsigned char*>(dst);
  parallel_for((count + kFillChunk - 1) / kFillChunk, [&](std::int64_t c) {
    const std::int64_t b = c * kFillChunk;
    store(d, src + b, out + b * dtype_bytes(d), std::min(count, b + kFillChunk) - b);
  });
}

void parallel_copy(float* dst, const float* src, std::int64_t count) {
  parallel_for((count + kFillChunk - 1) / kFillChunk, [&](std::int64_t c) {
    const std::int64_t b = c * kFillChunk;
    std::copy(src + b, src + std::min(count, b + kFillChunk), dst + b);
  });
}

}  // namespace

void Session::fill_input(float* dst, std::int64_t begin, std::int64_t end) const {
  if (!file_) return fill_synthetic(options_.dist, options_.seed, dst, begin, end);
  if (begin == 0) return read_input_file(*file_, dst, end);
  read_input_range(*file_, dst, begin, end);
}

const float* Session::host_data(std::int64_t n) {
  require_input(n);
  restore_host();
  if ((n > host_.count || host_.buffer.data() == nullptr) && host_.limit.empty()) {
    std::int64_t want = 0;
    for (const auto s : selected_) {
      if (holds(s)) want = std::max(want, s);
    }
    const std::int64_t room = (available_host_bytes() - kHostReserve) / 4 - options_.offset - kPadFloats;
    std::int64_t cap = 0;
    for (const auto s : selected_) {
      if (s <= want && s <= room) cap = std::max(cap, s);
    }
    if (cap < want) {
      host_.limit =
          "of host memory for the input, " + format_bytes(std::max(0.0, static_cast<double>(room) * 4)) + " available";
    }
    try {
      HostBuffer buf(cap + options_.offset + kPadFloats);  // the mapping is zero-filled: the padding too
      fill_input(buf.data() + options_.offset, 0, cap);
      host_.buffer = std::move(buf);
      host_.count = cap;
    } catch (const std::bad_alloc&) {
      host_.limit = "of host memory for the input: the mapping failed";
    }
  }
  if (n > host_.count) {
    throw Skip("n = " + std::to_string(n) +
               (host_.limit.empty() ? " was not selected"
                                    : " needs " + format_bytes(4.0 * static_cast<double>(n)) + " " + host_.limit));
  }
  return host_.buffer.data() + options_.offset;
}

const void* Session::typed_host(Dtype d, std::int64_t n) {
  const float* x = host_data(n);  // sizes the float copy, restores it, or throws Skip
  if (d == Dtype::f32) return x;
  TypedCopy& t = typed_[d];
  const std::int64_t elements = options_.offset + host_.count + kPadFloats;
  const int bytes = dtype_bytes(d);
  if (t.count != host_.count || t.buffer.data() == nullptr) {
    t.buffer = HostBuffer((elements * bytes + 3) / 4);  // throws std::bad_alloc: the row fails with it
    parallel_store(d, host_.buffer.data(), t.buffer.data(), elements);
    t.count = host_.count;
    t.dirty = 0;
  }
  return reinterpret_cast<const unsigned char*>(t.buffer.data()) + options_.offset * bytes;
}

void Session::keep_copies() {
  if (copies_tried_) return;
  copies_tried_ = true;
  const std::int64_t count = host_.count;
  const std::int64_t bytes = (count + 1) * static_cast<std::int64_t>(sizeof(float));
  if (available_host_bytes() - kHostReserve < (kExactSets + 1) * bytes) return;
  try {
    for (int set = 0; set < kExactSets; ++set) {
      exact_copies_.emplace_back(count + 1);
      fill_synthetic(Dist::integers, exact_seed(set), exact_copies_.back().data(), 0, count);
    }
    input_copy_ = HostBuffer(count + 1);
    parallel_copy(input_copy_.data(), host_.buffer.data() + options_.offset, count);
  } catch (const std::bad_alloc&) {
    exact_copies_.clear();
    input_copy_ = HostBuffer();
  }
}

void Session::fill_exact_host(std::int64_t n, int set, Dtype d, ExactData data) {
  const ExactFill want{n, set, d, data};
  if (host_.dirty > 0 && host_.filled == want) return;
  if (d != Dtype::f32) (void)typed_host(d, n);  // sized before the float copy is overwritten
  if (host_.buffer.data() == nullptr || n > host_.count) (void)host_data(n);  // sizes it, or throws Skip; no restore
  if (host_.dirty == 0) keep_copies();  // the input is whole: it may be copied now
  host_.filled = want;
  float* x = host_.buffer.data() + options_.offset;
  host_.dirty = std::max(host_.dirty, n + kPadFloats);
  if (data == ExactData::sparse) {
    std::fill(x, x + n, 0.0f);
    const SparseSet s = sparse_set(exact_seed(set), n);
    for (std::size_t k = 0; k < s.index.size(); ++k) x[s.index[k]] = s.value[k];
  } else if (exact_copies_.empty()) {
    fill_synthetic(Dist::integers, exact_seed(set), x, 0, n);
  } else {
    parallel_copy(x, exact_copies_[static_cast<std::size_t>(set)].data(), n);
  }
  std::fill(x + n, x + n + kPadFloats, kPoison);
  if (d == Dtype::f32) return;
  TypedCopy& t = typed_.at(d);
  auto* typed = reinterpret_cast<unsigned char*>(t.buffer.data()) + options_.offset * dtype_bytes(d);
  parallel_store(d, x, typed, n + kPadFloats);
  t.dirty = std::max(t.dirty, n + kPadFloats);
}

void Session::restore_host() {
  if (host_.dirty == 0) return;
  float* x = host_.buffer.data() + options_.offset;
  const std::int64_t dirty = host_.dirty, input_end = std::min(dirty, host_.count);
  host_.dirty = 0;
  host_.filled = {};
  if (input_copy_.data()) parallel_copy(x, input_copy_.data(), input_end);
  else fill_input(x, 0, input_end);
  std::fill(x + input_end, x + std::max(input_end, dirty), 0.0f);  // the padding past the largest n
  for (auto& [d, t] : typed_) {
    if (t.dirty == 0) continue;
    auto* typed = reinterpret_cast<unsigned char*>(t.buffer.data()) + options_.offset * dtype_bytes(d);
    parallel_store(d, x, typed, t.dirty);
    t.dirty = 0;
  }
}

const ExactResult& Session::exact_check(const Case& c, ExactData data,
                                       const std::function<double(int set)>& sum_exact) {
  const auto key = std::make_pair(c.backend, c.n);
  if (const auto it = exact_.find(key); it != exact_.end()) return it->second;
  const auto t0 = std::chrono::steady_clock::now();
  ExactResult r;
  r.check = Outcome::Check::passed;
  try {
    // Set 0 last: the timed calls sum it (--time_on=exact), so it stays in place for them.
    for (int set = kExactSets - 1; set >= 0 && r.check == Outcome::Check::passed; --set) {
      const double got = sum_exact(set);
      const Verdict v = check_exact(got, exact_reference(c.n, set, c.dtype, data));
      if (!v.ok) {
        r.check = Outcome::Check::failed;
        r.message = v.message + " (" + (data == ExactData::sparse ? "sparse " : "") + "data set " +
                    std::to_string(set + 1) + " of " + std::to_string(kExactSets) + ", seed " +
                    std::to_string(exact_seed(set)) + ")";
      }
    }
  } catch (const Skip& e) {
    r.check = Outcome::Check::skipped;
    r.message = std::string("exact check could not run: ") + e.what();
  } catch (const CheckFailed& e) {
    r.check = Outcome::Check::failed;
    r.message = e.what();
  }
  exact_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return exact_[key] = std::move(r);
}

std::vector<Outcome> Session::benchmarks() const {
  // Worse kinds replace better ones; among equals the first run's checks stay.
  const auto rank = [](Outcome::Kind k) {
    switch (k) {
      case Outcome::Kind::ok: return 0;
      case Outcome::Kind::skipped: return 1;
      case Outcome::Kind::verification_failed: return 2;
      case Outcome::Kind::error: return 3;
    }
    return 3;
  };
  std::vector<Outcome> out;
  std::map<std::string, std::size_t> index;
  for (const auto& o : outcomes_) {
    const auto [it, fresh] = index.try_emplace(o.name, out.size());
    if (fresh) {
      out.push_back(o);
      out.back().lowest_high = o.samples > 0 ? o.median * (1 + o.precision) : std::numeric_limits<double>::infinity();
      out.back().highest_low = o.samples > 0 ? o.median * (1 - o.precision) : 0.0;
      continue;
    }
    Outcome& kept = out[it->second];
    // Repetitions: the sampling verdict is the worst of the runs that sampled.
    const bool both_sampled = kept.samples > 0 && o.samples > 0;
    const std::int64_t samples = kept.samples + o.samples;
    const double precision = std::max(kept.precision, o.precision);
    const bool target_met = both_sampled ? kept.target_met && o.target_met : kept.target_met || o.target_met;
    const bool throttled = kept.throttled || o.throttled;
    const bool correlated = kept.correlated || o.correlated, drift = kept.drift || o.drift;
    const bool contended = kept.contended || o.contended;
    const double lowest_high =
        o.samples > 0 ? std::min(kept.lowest_high, o.median * (1 + o.precision)) : kept.lowest_high;
    const double highest_low =
        o.samples > 0 ? std::max(kept.highest_low, o.median * (1 - o.precision)) : kept.highest_low;
    const std::int64_t checked_calls = kept.checked_calls + o.checked_calls;
    if (rank(o.kind) > rank(kept.kind)) kept = o;
    kept.lowest_high = lowest_high;
    kept.highest_low = highest_low;
    kept.checked_calls = checked_calls;
    kept.samples = samples;
    kept.precision = precision;
    kept.target_met = target_met;
    kept.throttled = throttled;
    kept.correlated = correlated;
    kept.drift = drift;
    kept.contended = contended;
  }
  return out;
}

std::string contention_summary(const std::vector<Outcome>& benchmarks, std::size_t listed) {
  std::vector<const Outcome*> hit;
  for (const auto& o : benchmarks) {
    if (o.contended) hit.push_back(&o);
  }
  if (hit.empty()) return {};
  // One name a line, as the rows short of the target: within the console's width.
  std::string text = "reduce_bench: " + std::to_string(hit.size()) +
                     " measured under contention (other processes' load; JSON: contended):";
  for (std::size_t i = 0; i < hit.size() && i < listed; ++i) text += "\n  " + hit[i]->name;
  if (hit.size() > listed) text += "\n  and " + std::to_string(hit.size() - listed) + " more";
  return text;
}

int Session::failures() const {
  const auto all = benchmarks();
  return static_cast<int>(std::count_if(all.begin(), all.end(), [](const Outcome& o) {
    return o.kind == Outcome::Kind::verification_failed || o.kind == Outcome::Kind::error;
  }));
}

}  // namespace rb::bench
