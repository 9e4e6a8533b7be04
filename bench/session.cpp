#include "bench/session.hpp"

#include <algorithm>
#include <cstdio>
#include <new>

#include "bench/parallel.hpp"

namespace rb::bench {
namespace {

// Room left for the OS, the process and the other buffers when sizing the host copy.
constexpr std::int64_t kHostReserve = std::int64_t{1} << 30;
constexpr std::int64_t kFillChunk = std::int64_t{1} << 22;

}  // namespace

std::string Case::name() const {
  return backend + "/" + std::to_string(n) + (mode == Mode::cold ? "/cold" : "/hot");
}

std::string format_bytes(double bytes) {
  char buf[64];
  if (bytes >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  else std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  return buf;
}

Session::Session(Options options)
    : options_(std::move(options)),
      scan_(chunk_source()) {
  if (!options_.input_path.empty()) file_ = inspect_input_file(options_.input_path);
}

ChunkSource Session::chunk_source() const {
  return [this](std::int64_t b, std::int64_t e, float* scratch) { return read_chunk(b, e, scratch); };
}

const float* Session::read_chunk(std::int64_t b, std::int64_t e, float* scratch) const {
  if (!file_) {
    generate(options_.dist, options_.seed, scratch, b, e);
    return scratch;
  }
  // Resident when the host copy holds it (it is needed anyway for the CPU backends and the GPU
  // upload), read straight from the file otherwise.
  if (e <= host_count_) return host_.data() + options_.offset + b;
  read_input_range(*file_, scratch, b, e);
  return scratch;
}

std::string Session::input_description() const {
  std::string d;
  if (file_) d = "file " + file_->path + " (" + std::to_string(file_->count) + " float32 values)";
  else if (options_.dist == Dist::harmonic) d = "synthetic harmonic x[i] = 1/(i+1)";
  else if (options_.dist == Dist::uniform) d = "synthetic uniform [-1, 1), seed " + std::to_string(options_.seed);
  else d = "synthetic normal (Irwin-Hall of 4), seed " + std::to_string(options_.seed);
  if (options_.offset != 0) d += ", starting " + std::to_string(options_.offset) + " floats past alignment";
  return d;
}

void Session::require_input(std::int64_t n) const {
  if (file_ && n > file_->count) {
    throw Skip("n = " + std::to_string(n) + " exceeds the " + std::to_string(file_->count) +
               " values in " + file_->path);
  }
}

const Reference& Session::reference(std::int64_t n) {
  if (const auto it = references_.find(n); it != references_.end()) return it->second;
  require_input(n);
  if (n <= scan_.covered()) {  // only when n was never selected: scan it on its own
    const std::int64_t one[] = {n};
    return references_[n] = compute_references(one, chunk_source()).front();
  }
  std::vector<std::int64_t> sizes;
  for (const auto s : selected_) {
    if (s > scan_.covered() && s < n) sizes.push_back(s);
  }
  sizes.push_back(n);
  for (const auto& r : scan_.extend(sizes)) references_[r.n] = r;
  return references_.at(n);
}

void Session::materialize(std::int64_t n) {
  if (n <= host_count_ || !host_limit_.empty()) return;
  std::int64_t want = 0;
  for (const auto s : selected_) {
    if (holds(s)) want = std::max(want, s);
  }
  const std::int64_t room = (available_host_bytes() - kHostReserve) / 4;
  std::int64_t cap = 0;
  for (const auto s : selected_) {
    if (s <= want && s <= room) cap = std::max(cap, s);
  }
  if (cap < want) {
    host_limit_ = "needs " + format_bytes(4.0 * static_cast<double>(want)) + " of host memory, " +
                  format_bytes(std::max(0.0, static_cast<double>(room) * 4)) + " available";
  }
  try {
    HostBuffer buf(cap + options_.offset);
    float* dst = buf.data() + options_.offset;
    if (file_) {
      read_input_file(*file_, dst, cap);
    } else {
      const Dist dist = options_.dist;
      const std::uint64_t seed = options_.seed;
      parallel_for((cap + kFillChunk - 1) / kFillChunk, [&](std::int64_t c) {
        const std::int64_t b = c * kFillChunk;
        generate(dist, seed, dst + b, b, std::min(cap, b + kFillChunk));
      });
    }
    host_ = std::move(buf);
    host_count_ = cap;
  } catch (const std::bad_alloc&) {
    host_limit_ = "could not map " + format_bytes(4.0 * static_cast<double>(cap)) + " of host memory";
  }
}

const float* Session::host_data(std::int64_t n) {
  require_input(n);
  materialize(n);
  if (n > host_count_) {
    throw Skip("n = " + std::to_string(n) + " " + (host_limit_.empty() ? "was not selected" : host_limit_));
  }
  return host_.data() + options_.offset;
}

int Session::failures() const {
  return static_cast<int>(std::count_if(outcomes_.begin(), outcomes_.end(), [](const Outcome& o) {
    return o.kind == Outcome::Kind::verification_failed || o.kind == Outcome::Kind::error;
  }));
}

}  // namespace rb::bench
