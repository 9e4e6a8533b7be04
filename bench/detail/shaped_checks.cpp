#include "bench/detail/shaped_checks.hpp"

#include <string>

namespace rb::bench {
namespace {

const OutputReferences& input_references(Session& session, const Case& c, const Structure& s) {
  if (session.options().time_on != TimedData::exact) {
    throw Skip("a shape's timed calls sum the exact data (--time_on=input is for one-dimensional rows)");
  }
  if (exact_data_for(s) != ExactData::dense) {
    throw Skip("no exact data along a dimension for a 16-bit accumulator or result");
  }
  return session.references().outputs(*c.shape, c.dtype);
}

}  // namespace

ShapedChecks::ShapedChecks(Session& session, const Case& c, const Structure& s, Determinism promised)
    : session_(session), case_(c), on_input_(input_references(session, c, s), s, promised) {}

ExactResult ShapedChecks::exact(const std::function<std::vector<float>(int set)>& sum) {
  return session_.exact().run_judged(case_, ExactData::dense, [&](int set) {
    const std::vector<float> got = sum(set);
    const std::string why =
        compare_outputs(got, exact_outputs(session_.references().outputs(*case_.shape, case_.dtype, set)));
    return why.empty() ? why : "exact check failed: " + why;
  });
}

std::vector<float> ShapedChecks::expected() const {
  return exact_outputs(session_.references().outputs(*case_.shape, case_.dtype, 0));
}

Measurement::OutputsVerdicts ShapedChecks::verdicts(std::span<const CallMismatch> calls) const {
  return {on_input_.verdict(), timed_outputs_verdict(calls, case_.shape->outputs())};
}

}  // namespace rb::bench
