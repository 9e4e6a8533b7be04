#pragma once
// The checks of a sum along a dimension (common/shape.hpp), one verdict per output: what
// bench/detail/verify.hpp does for the one sum of x[0, n), applied to each of a shape's outputs.
//   references   each output's sum and sum|x| in double (compensated), over the values as stored
//   accuracy     every untimed call on the input: each output within the stated bound of its
//                reference (the structure an adapter states is that of one output's sum), and,
//                where promised, each call's bits equal to the first's
//   exact        each output of a call on integer data equal to its integer sum, bit for bit
//   timed calls  counted per call where they run (a compare kernel on the GPU, after the stop
//                event): how many outputs differ from the integer sums, and the first of them
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bench/api/determinism.hpp"
#include "bench/api/summation.hpp"
#include "bench/detail/element.hpp"
#include "bench/detail/reference.hpp"
#include "bench/detail/verify.hpp"
#include "common/shape.hpp"

namespace rb::bench {

struct OutputReferences {
  Shape2D shape;
  std::vector<double> sum;      // per output
  std::vector<double> sum_abs;  // per output
  bool finite = true;           // no NaN or infinity in x
};

// Over x[0, B N) of `source`, stored as `d` (quantize), in parallel; the result does not depend on
// the thread count.
OutputReferences output_references(const ChunkSource& source, const Shape2D& shape, Dtype d);

// The exact outputs of integer data: each reference sum as a float (exact below 2^24).
std::vector<float> exact_outputs(const OutputReferences& r);

// Empty when every output of `got` equals `want` bit for bit; else how many differ and the first.
std::string compare_outputs(std::span<const float> got, std::span<const float> want);

// The accuracy and repeatability of the untimed calls on the input, one call at a time: the first
// call's outputs are kept and every later one is compared with them.
class OutputsAccuracy {
 public:
  OutputsAccuracy(const OutputReferences& refs, const Structure& s, Determinism promised)
      : refs_(refs), structure_(s), promised_(promised) {}
  void add(std::span<const float> got);
  CallsVerdict verdict() const;

 private:
  const OutputReferences& refs_;
  Structure structure_;
  Determinism promised_;
  std::vector<float> first_;
  CallsVerdict v_;
};

// One timed call as its per-call check saw it: outputs that differ from the integer sums (and
// writes past the last output), the first of them.
struct CallMismatch {
  std::int64_t wrong = 0;
  std::int64_t first = -1;
};
CallsVerdict timed_outputs_verdict(std::span<const CallMismatch> calls, std::int64_t outputs);
// The host's per-call check (the CPU rows): `got` holds want.size() outputs, then guard floats
// that must still hold the poison (all bits set).
CallMismatch mismatches(std::span<const float> got, std::span<const float> want);
inline constexpr std::int64_t kOutputsGuard = 64;  // floats poisoned past the last output

}  // namespace rb::bench
