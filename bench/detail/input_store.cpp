#include "bench/detail/input_store.hpp"

#include <algorithm>
#include <cstdio>
#include <new>

#include "common/parallel.hpp"
#include "common/synth.hpp"

namespace rb::bench {
namespace {

// Room left for the OS, the process and the other buffers when sizing the host copy.
constexpr std::int64_t kHostReserve = std::int64_t{1} << 30;
constexpr std::int64_t kFillChunk = std::int64_t{1} << 22;

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

std::string format_bytes(double bytes) {
  char buf[64];
  if (bytes >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  else std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  return buf;
}

InputStore::InputStore(const Options& options) : dist_(options.dist), seed_(options.seed), offset_(options.offset) {
  if (!options.input_path.empty()) file_ = inspect_input_file(options.input_path);
}

std::string InputStore::description() const {
  std::string d;
  if (file_) d = "file " + file_->path + " (" + std::to_string(file_->count) + " float32 values)";
  else if (dist_ == Dist::harmonic) d = "synthetic harmonic x[i] = 1/(i+1)";
  else if (dist_ == Dist::uniform) d = "synthetic uniform [-1, 1), seed " + std::to_string(seed_);
  else if (dist_ == Dist::positive) d = "synthetic positive uniform [0, 1), seed " + std::to_string(seed_);
  else if (dist_ == Dist::normal) d = "synthetic normal (Irwin-Hall of 4), seed " + std::to_string(seed_);
  else d = "synthetic nonzero integers in [-8, 8], seed " + std::to_string(seed_);
  if (offset_ != 0) d += ", starting " + std::to_string(offset_) + " floats past alignment";
  return d;
}

void InputStore::require(std::int64_t n) const {
  if (file_ && n > file_->count) {
    throw Skip("n = " + std::to_string(n) + " exceeds the " + std::to_string(file_->count) + " values in " +
               file_->path);
  }
}

std::uint64_t InputStore::exact_seed(int set) const noexcept {
  return set == 0 ? seed_ : rb::synth::mix(seed_ + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(set));
}

ChunkSource InputStore::input_source() const {
  return [this](std::int64_t b, std::int64_t e, float* scratch) { return read_chunk(b, e, scratch); };
}

ChunkSource InputStore::exact_source(int set) const {
  return [this, set](std::int64_t b, std::int64_t e, float* scratch) -> const float* {
    generate(Dist::integers, exact_seed(set), scratch, b, e);
    return scratch;
  };
}

const float* InputStore::read_chunk(std::int64_t b, std::int64_t e, float* scratch) const {
  if (!file_) {
    generate(dist_, seed_, scratch, b, e);
    return scratch;
  }
  // Resident when the host copy holds it (it is needed anyway for the CPU backends and the GPU
  // upload) and holds the input, read straight from the file otherwise.
  if (e <= host_.count && host_.dirty == 0) return host_.buffer.data() + offset_ + b;
  read_input_range(*file_, scratch, b, e);
  return scratch;
}

void InputStore::fill_input(float* dst, std::int64_t begin, std::int64_t end) const {
  if (!file_) return fill_synthetic(dist_, seed_, dst, begin, end);
  if (begin == 0) return read_input_file(*file_, dst, end);
  read_input_range(*file_, dst, begin, end);
}

void InputStore::materialize() {
  std::int64_t want = 0;
  for (const auto s : selected_) {
    if (holds(s)) want = std::max(want, s);
  }
  const std::int64_t room = (available_host_bytes() - kHostReserve) / 4 - offset_ - kPadFloats;
  std::int64_t cap = 0;
  for (const auto s : selected_) {
    if (s <= want && s <= room) cap = std::max(cap, s);
  }
  if (cap < want) {
    host_.limit =
        "of host memory for the input, " + format_bytes(std::max(0.0, static_cast<double>(room) * 4)) + " available";
  }
  try {
    HostBuffer buf(cap + offset_ + kPadFloats);  // the mapping is zero-filled: the padding too
    fill_input(buf.data() + offset_, 0, cap);
    host_.buffer = std::move(buf);
    host_.count = cap;
  } catch (const std::bad_alloc&) {
    host_.limit = "of host memory for the input: the mapping failed";
  }
}

const float* InputStore::host_data(std::int64_t n) {
  require(n);
  restore();
  if ((n > host_.count || host_.buffer.data() == nullptr) && host_.limit.empty()) materialize();
  if (n > host_.count) {
    throw Skip("n = " + std::to_string(n) +
               (host_.limit.empty() ? " was not selected"
                                    : " needs " + format_bytes(4.0 * static_cast<double>(n)) + " " + host_.limit));
  }
  return host_.buffer.data() + offset_;
}

const void* InputStore::typed_host(Dtype d, std::int64_t n) {
  const float* x = host_data(n);  // sizes the float copy, restores it, or throws Skip
  if (d == Dtype::f32) return x;
  TypedCopy& t = typed_[d];
  const std::int64_t elements = offset_ + host_.count + kPadFloats;
  const int bytes = dtype_bytes(d);
  if (t.count != host_.count || t.buffer.data() == nullptr) {
    t.buffer = HostBuffer((elements * bytes + 3) / 4);  // throws std::bad_alloc: the row fails with it
    parallel_store(d, host_.buffer.data(), t.buffer.data(), elements);
    t.count = host_.count;
    t.dirty = 0;
  }
  return reinterpret_cast<const unsigned char*>(t.buffer.data()) + offset_ * bytes;
}

void InputStore::keep_copies() {
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
    parallel_copy(input_copy_.data(), host_.buffer.data() + offset_, count);
  } catch (const std::bad_alloc&) {
    exact_copies_.clear();
    input_copy_ = HostBuffer();
  }
}

void InputStore::fill_exact(std::int64_t n, int set, Dtype d, ExactData data) {
  const ExactFill want{n, set, d, data};
  if (host_.dirty > 0 && host_.filled == want) return;
  if (d != Dtype::f32) (void)typed_host(d, n);  // sized before the float copy is overwritten
  if (host_.buffer.data() == nullptr || n > host_.count) (void)host_data(n);  // sizes it, or throws Skip
  if (host_.dirty == 0) keep_copies();  // the input is whole: it may be copied now
  host_.filled = want;
  float* x = host_.buffer.data() + offset_;
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
  auto* typed = reinterpret_cast<unsigned char*>(t.buffer.data()) + offset_ * dtype_bytes(d);
  parallel_store(d, x, typed, n + kPadFloats);
  t.dirty = std::max(t.dirty, n + kPadFloats);
}

void InputStore::restore() {
  if (host_.dirty == 0) return;
  float* x = host_.buffer.data() + offset_;
  const std::int64_t dirty = host_.dirty, input_end = std::min(dirty, host_.count);
  host_.dirty = 0;
  host_.filled = {};
  if (input_copy_.data()) parallel_copy(x, input_copy_.data(), input_end);
  else fill_input(x, 0, input_end);
  std::fill(x + input_end, x + std::max(input_end, dirty), 0.0f);  // the padding past the largest n
  for (auto& [d, t] : typed_) {
    if (t.dirty == 0) continue;
    auto* typed = reinterpret_cast<unsigned char*>(t.buffer.data()) + offset_ * dtype_bytes(d);
    parallel_store(d, x, typed, t.dirty);
    t.dirty = 0;
  }
}

}  // namespace rb::bench
