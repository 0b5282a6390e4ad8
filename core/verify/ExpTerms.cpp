#include "verify/ExpTerms.h"

#include "mugraph/InterpreterImpl.h"

#include <algorithm>

namespace tcx::verify {

namespace {

constexpr uint64_t kSaturated = uint64_t{1} << 62;

struct TermCount {
  bool plain = false; // a term without an exponential
  uint64_t exps = 0;  // terms with one
  uint64_t total() const { return std::min(kSaturated, exps + plain); }
};

uint64_t saturatingMul(uint64_t a, uint64_t b) { return a && b > kSaturated / a ? kSaturated : a * b; }

struct ExpTermDomain {
  using Value = TermCount;
  Value zero() const { return {false, 0}; } // no terms: the additive identity
  Value constant(double) const { return {true, 0}; }
  Value add(Value a, Value b) const { return {a.plain || b.plain, std::min(kSaturated, a.exps + b.exps)}; }
  Value sub(Value a, Value b) const { return add(a, b); }
  Value mul(Value a, Value b) const {
    bool plain = a.plain && b.plain;
    return {plain, saturatingMul(a.total(), b.total()) - plain};
  }
  Value div(Value a, Value b) const { return mul(a, b); }
  Value exp(Value) const { return {false, 1}; }
  Value sqrt(Value a) const { return a; }
};

} // namespace

uint64_t countExpTerms(const mugraph::KernelGraph& graph) {
  ExpTermDomain domain;
  std::vector<mugraph::DenseTensor<TermCount>> inputs;
  for (int i : graph.inputOps()) inputs.emplace_back(graph.op(i).shape, TermCount{true, 0});
  uint64_t k = 1;
  for (const auto& out : mugraph::Interpreter<ExpTermDomain>(domain).run(graph, inputs))
    for (const TermCount& c : out.data) k = std::max(k, c.total());
  return k;
}

} // namespace tcx::verify
