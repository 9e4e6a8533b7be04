#pragma once
// The input on the host: the synthetic values or the file's, sized once for the largest selected n
// that fits, stored as every element type asked for, and the exact check's integers written over
// it in place (through ExactInPlace, which puts the input back).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/detail/case.hpp"
#include "bench/detail/exact_data.hpp"
#include "bench/detail/input.hpp"
#include "bench/detail/options.hpp"
#include "bench/detail/reference.hpp"

namespace rb::bench {

class InputStore {
 public:
  explicit InputStore(const Options& options);  // inspects --input at once (throws InputError)

  std::string description() const;
  bool synthetic() const noexcept { return !file_; }
  // The sizes the selected benchmarks use (sorted, unique). Set once, before any run.
  void select_sizes(std::vector<std::int64_t> sizes) { selected_ = std::move(sizes); }
  const std::vector<std::int64_t>& selected_sizes() const noexcept { return selected_; }
  // Whether the input holds n values (a synthetic one always does); require() throws Skip if not.
  bool holds(std::int64_t n) const noexcept { return !file_ || n <= file_->count; }
  void require(std::int64_t n) const;

  // x[0, n) in host memory, starting --offset floats after a 64-byte boundary, the input whatever
  // was written over it before. The first call materializes the largest selected n that fits in
  // available memory; throws Skip for an n above that.
  const float* host_data(std::int64_t n);
  // The same values stored as T (bench/detail/element.hpp), K elements past alignment for --offset=K.
  template <class T>
  const T* host_data_as(std::int64_t n) {
    return static_cast<const T*>(typed_host(dtype_of<T>, n));
  }

  // The exact check's kExactSets data sets: integers (--dist=integers) with seeds of their own.
  static constexpr int kExactSets = 2;
  std::uint64_t exact_seed(int set) const noexcept;
  // x[begin, end) of the input (via the host copy where it holds it), and of exact set `set`.
  ChunkSource input_source() const;
  ChunkSource exact_source(int set) const;

  // Writes set `set`'s integers over host_data(n)'s x[0, n) and kPoison over the kPadFloats after
  // it, and the same stored as `d` over host_data_as's; restore() puts the input back. Through
  // ExactInPlace only, so that no path leaves them there.
  void fill_exact(std::int64_t n, int set, Dtype d, ExactData data);
  void restore();

 private:
  // A host copy of some prefix of the input: sized once, for the largest selected n that fits.
  struct HostCopy {
    HostBuffer buffer;   // offset floats, count values, then kPadFloats zeros
    std::int64_t count = 0;
    std::string limit;   // why sizes above count cannot be materialized
    std::int64_t dirty = 0;  // x[0, dirty) holds the exact check's data, not the input
    ExactFill filled;        // which, while dirty: filling it again is a no-op
  };
  // The host copies stored as each type other than f32: offset + count + kPadFloats elements.
  struct TypedCopy {
    HostBuffer buffer;       // sized in floats: page-aligned, zero-filled
    std::int64_t count = 0;  // elements stored, as host_.count
    std::int64_t dirty = 0;  // elements [0, dirty) hold the exact check's data
  };
  void fill_input(float* dst, std::int64_t begin, std::int64_t end) const;
  const float* read_chunk(std::int64_t begin, std::int64_t end, float* scratch) const;
  void materialize();
  const void* typed_host(Dtype d, std::int64_t n);
  // Copies of the exact check's data sets and of the input, each host_.count values, kept beside
  // the input where memory allows: writing and restoring in place is then a copy, not a
  // generation (2^28 integers take ~0.7 s to generate on 2 cores, ~0.1 s to copy). Empty: not
  // tried yet, or no room (then generated in place).
  void keep_copies();

  Dist dist_;
  std::uint64_t seed_;
  std::int64_t offset_;
  std::optional<InputFile> file_;
  std::vector<std::int64_t> selected_;
  HostCopy host_;
  std::map<Dtype, TypedCopy> typed_;
  std::vector<HostBuffer> exact_copies_;
  HostBuffer input_copy_;
  bool copies_tried_ = false;
};

// Exact data in place of an input (InputStore, gpu::GpuSession) for as long as the guard lives:
// every path out of a row, an exception's included, leaves the input as it was.
template <class Store>
class ExactInPlace {
 public:
  explicit ExactInPlace(Store& store) : store_(store) {}
  ExactInPlace(const ExactInPlace&) = delete;
  ExactInPlace& operator=(const ExactInPlace&) = delete;
  ~ExactInPlace() {
    try {
      store_.restore();
    } catch (...) {  // only on a path that is failing already: its first error is the row's
    }
  }
  void fill(std::int64_t n, int set, Dtype d, ExactData data) { store_.fill_exact(n, set, d, data); }
  void restore() { store_.restore(); }  // early, where the timed calls sum the input

 private:
  Store& store_;
};

std::string format_bytes(double bytes);

}  // namespace rb::bench
