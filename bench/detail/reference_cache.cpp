#include "bench/detail/reference_cache.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

namespace rb::bench {

ReferenceCache::Scanned& ReferenceCache::scanned(Dtype d, int set) {
  const Dtype as = d == Dtype::f64 ? Dtype::f32 : d;  // f64 stores the floats exactly
  const auto key = std::make_pair(as, set);
  if (const auto it = scans_.find(key); it != scans_.end()) return it->second;
  ChunkSource raw = set < 0 ? input_.input_source() : input_.exact_source(set);
  ChunkSource source = raw;
  if (as != Dtype::f32) {
    source = [raw, as](std::int64_t b, std::int64_t e, float* scratch) -> const float* {
      const float* x = raw(b, e, scratch);
      if (x != scratch) std::copy(x, x + (e - b), scratch);
      quantize(as, scratch, e - b);
      return scratch;
    };
  }
  return scans_.emplace(key, Scanned{source, ReferenceScan(source), {}}).first->second;
}

const Reference& ReferenceCache::scan_to(Scanned& s, std::int64_t n) {
  if (const auto it = s.known.find(n); it != s.known.end()) return it->second;
  if (n <= s.scan.covered()) {  // only when n was never selected: scan it on its own
    const std::int64_t one[] = {n};
    return s.known[n] = compute_references(one, s.source).front();
  }
  std::vector<std::int64_t> sizes;
  for (const auto size : input_.selected_sizes()) {
    if (size > s.scan.covered() && size < n) sizes.push_back(size);
  }
  sizes.push_back(n);
  for (const auto& r : s.scan.extend(sizes)) s.known[r.n] = r;
  return s.known.at(n);
}

const Reference& ReferenceCache::input(std::int64_t n, Dtype d) {
  input_.require(n);
  return scan_to(scanned(d, -1), n);
}

const Reference& ReferenceCache::exact(std::int64_t n, int set, Dtype d, ExactData data) {
  if (data == ExactData::dense) return scan_to(scanned(d, set), n);
  const auto key = std::make_tuple(n, set, d);
  if (const auto it = sparse_.find(key); it != sparse_.end()) return it->second;
  SparseSet s = sparse_set(input_.exact_seed(set), n);
  quantize(d, s.value.data(), static_cast<std::int64_t>(s.value.size()));
  Reference r;
  r.n = n;
  for (const float v : s.value) {  // a few dozen small integers: every double addition is exact
    r.sum += v;
    r.sum_abs += std::fabs(v);
    r.max_abs = std::max<double>(r.max_abs, std::fabs(v));
  }
  return sparse_[key] = r;
}

StoredInput ReferenceCache::stored_input(std::int64_t n, Dtype d) {
  const Reference& stored = input(n, d);
  // Unaltered, the stored values are the input's as far as the counts go: no second scan.
  const Reference& in = may_be_altered(d, stored) ? input(n) : stored;
  const StoredInput s = ::rb::bench::stored_input(d, in, stored);
  if (s.any()) {
    auto& note = notes_[d];
    if (n >= note.first) note = {n, s};
  }
  return s;
}

const OutputReferences& ReferenceCache::outputs(const Shape2D& shape, Dtype d, int set) {
  input_.require(shape.elements());
  if (!(shape == outputs_shape_)) {
    outputs_.clear();
    outputs_shape_ = shape;
  }
  const auto key = std::make_pair(d, set);
  if (const auto it = outputs_.find(key); it != outputs_.end()) return it->second;
  const ChunkSource source = set < 0 ? input_.input_source() : input_.exact_source(set);
  return outputs_[key] = output_references(source, shape, d);
}

}  // namespace rb::bench
