#pragma once
// The fp64 references of the input and of the exact check's data sets, over the values as each
// element type stores them. Every scan only moves forward: asking for n computes every selected
// size up to n that is not known yet, so a sweep reads its data once per type in all.
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

#include "bench/detail/exact_data.hpp"
#include "bench/detail/input_store.hpp"
#include "bench/detail/outputs_check.hpp"
#include "bench/detail/reference.hpp"
#include "bench/detail/stored_input.hpp"

namespace rb::bench {

class ReferenceCache {
 public:
  explicit ReferenceCache(const InputStore& input) : input_(input) {}

  // The reference at n over the input as `d` stores it; throws Skip where the input is shorter.
  const Reference& input(std::int64_t n, Dtype d = Dtype::f32);
  // The reference of exact data set `set` (InputStore::fill_exact) as `d` stores it.
  const Reference& exact(std::int64_t n, int set, Dtype d = Dtype::f32, ExactData data = ExactData::dense);
  // Each output's reference of a shape (bench/detail/outputs_check.hpp) over the input (set -1) or
  // exact data set `set`, as `d` stores them. Only the last shape's are kept: the shapes' rows run
  // shape by shape, and at 2^28 outputs one set takes 4 GiB.
  const OutputReferences& outputs(const Shape2D& shape, Dtype d, int set = -1);

  // What the input holds and what storing it as `d` did to it at n (bench/detail/stored_input.hpp); the
  // largest n of each type with something to say is kept for the closing summary.
  StoredInput stored_input(std::int64_t n, Dtype d);
  const std::map<Dtype, std::pair<std::int64_t, StoredInput>>& input_notes() const noexcept { return notes_; }

 private:
  // One scan with its results: of the input (set -1) or of an exact data set, over the values as
  // a type stores them; f32 and f64 store the float values themselves and share their scans.
  struct Scanned {
    ChunkSource source;
    ReferenceScan scan;
    std::map<std::int64_t, Reference> known;
  };
  Scanned& scanned(Dtype d, int set);
  const Reference& scan_to(Scanned& s, std::int64_t n);

  const InputStore& input_;
  std::map<std::pair<Dtype, int>, Scanned> scans_;
  std::map<std::tuple<std::int64_t, int, Dtype>, Reference> sparse_;
  std::map<Dtype, std::pair<std::int64_t, StoredInput>> notes_;
  Shape2D outputs_shape_;
  std::map<std::pair<Dtype, int>, OutputReferences> outputs_;
};

}  // namespace rb::bench
