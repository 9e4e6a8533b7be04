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

Session::Session(Options options) : options_(std::move(options)) {
  if (!options_.input_path.empty()) file_ = inspect_input_file(options_.input_path);
}

std::string Session::input_description() const {
  if (file_) return "file " + file_->path + " (" + std::to_string(file_->count) + " float32 values)";
  if (options_.dist == Dist::harmonic) return "synthetic harmonic x[i] = 1/(i+1)";
  return "synthetic uniform [-1, 1), seed " + std::to_string(options_.seed);
}

void Session::require_input(std::int64_t n) const {
  if (file_ && n > file_->count) {
    throw Skip("n = " + std::to_string(n) + " exceeds the " + std::to_string(file_->count) +
               " values in " + file_->path);
  }
}

const Reference& Session::reference(std::int64_t n) {
  require_input(n);
  if (references_.empty()) {
    std::vector<std::int64_t> sizes;
    for (const auto s : selected_) {
      if (holds(s)) sizes.push_back(s);
    }
    const Dist dist = options_.dist;
    const std::uint64_t seed = options_.seed;
    ChunkSource source;
    if (file_) {
      // Resident when the host copy holds it (it is needed anyway for the CPU backends and the
      // GPU upload), read straight from the file otherwise.
      materialize(sizes.empty() ? 0 : sizes.back());
      source = [this](std::int64_t b, std::int64_t e, float* scratch) -> const float* {
        if (e <= host_.size()) return host_.data() + b;
        read_input_range(*file_, scratch, b, e);
        return scratch;
      };
    } else {
      source = [dist, seed](std::int64_t b, std::int64_t e, float* scratch) -> const float* {
        generate(dist, seed, scratch, b, e);
        return scratch;
      };
    }
    references_ = compute_references(sizes, source);
  }
  const auto it = std::lower_bound(references_.begin(), references_.end(), n,
                                   [](const Reference& r, std::int64_t v) { return r.n < v; });
  if (it == references_.end() || it->n != n) {
    throw std::logic_error("no reference for n = " + std::to_string(n) + " (size not selected)");
  }
  return *it;
}

void Session::materialize(std::int64_t n) {
  if (n <= host_.size() || !host_limit_.empty()) return;
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
    HostBuffer buf(cap);
    if (file_) {
      read_input_file(*file_, buf.data(), cap);
    } else {
      float* dst = buf.data();
      const Dist dist = options_.dist;
      const std::uint64_t seed = options_.seed;
      parallel_for((cap + kFillChunk - 1) / kFillChunk, [&](std::int64_t c) {
        const std::int64_t b = c * kFillChunk;
        generate(dist, seed, dst + b, b, std::min(cap, b + kFillChunk));
      });
    }
    host_ = std::move(buf);
  } catch (const std::bad_alloc&) {
    host_limit_ = "could not map " + format_bytes(4.0 * static_cast<double>(cap)) + " of host memory";
  }
}

const float* Session::host_data(std::int64_t n) {
  require_input(n);
  materialize(n);
  if (n > host_.size()) {
    throw Skip("n = " + std::to_string(n) + " " + (host_limit_.empty() ? "was not selected" : host_limit_));
  }
  return host_.data();
}

int Session::failures() const {
  return static_cast<int>(std::count_if(outcomes_.begin(), outcomes_.end(), [](const Outcome& o) {
    return o.kind == Outcome::Kind::verification_failed || o.kind == Outcome::Kind::error;
  }));
}

}  // namespace rb::bench
