// Property tests: random chains and DAGs of data-movement ops between
// compute ops. For each, the greedy's strategy and strategies with single
// edges forced or forbidden must all give bit-identical outputs.
#include "exec/PlanExecutor.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "ops/GraphBuilder.h"
#include "ops/Printer.h"
#include "pipeline/VtcSession.h"

#include <catch2/catch.hpp>
#include <numeric>
#include <random>

using namespace tcx;

namespace {

class RandomMovementGraph {
public:
  explicit RandomMovementGraph(uint32_t seed) : rng_(seed), b_("random_" + std::to_string(seed)) {}

  Graph build() {
    Shape shape = randomShape();
    Value* x = b_.input("x", DType::F32, shape);
    Value* v = b_.op("Relu", {x});
    Value* side = nullptr;
    int steps = 2 + static_cast<int>(rng_() % 5);
    for (int i = 0; i < steps; ++i) {
      v = randomMovement(v, side);
      if (rng_() % 4 == 0) side = b_.op("Sigmoid", {v}); // a compute consumer in the middle: a DAG
    }
    b_.output(b_.op("Neg", {v}));
    if (side) b_.output(b_.op("Abs", {side}));
    return b_.finish();
  }

private:
  Shape randomShape() {
    Shape s;
    int rank = 2 + static_cast<int>(rng_() % 3);
    for (int i = 0; i < rank; ++i) s.push_back(1 + static_cast<int64_t>(rng_() % 4));
    return s;
  }

  Value* randomMovement(Value* v, Value*& side) {
    const Shape& s = v->type().shape;
    const int64_t rank = static_cast<int64_t>(s.size());
    switch (rng_() % 8) {
    case 0: { // Transpose by a random permutation
      std::vector<int64_t> perm(rank);
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng_);
      return b_.op("Transpose", {v}, attrs({{"perm", perm}}));
    }
    case 1: { // Reshape: merge two neighbours or split one
      Shape t = s;
      if (rank > 1 && rng_() % 2) {
        size_t i = rng_() % (t.size() - 1);
        t[i] *= t[i + 1];
        t.erase(t.begin() + static_cast<long>(i) + 1);
      } else {
        t.insert(t.begin() + static_cast<long>(rng_() % (t.size() + 1)), 1);
      }
      return b_.op("Reshape", {v, b_.ints("shape" + std::to_string(counter_++), t)});
    }
    case 2: { // Slice one axis
      int64_t a = static_cast<int64_t>(rng_() % s.size());
      if (s[a] < 2) return v;
      int64_t start = static_cast<int64_t>(rng_() % static_cast<uint64_t>(s[a] - 1));
      return b_.op("Slice", {v, b_.ints("st" + std::to_string(counter_++), {start}), b_.ints("en" + std::to_string(counter_++), {s[a]}),
                             b_.ints("ax" + std::to_string(counter_++), {a})});
    }
    case 3: { // Concat with a computed copy
      int64_t a = static_cast<int64_t>(rng_() % s.size());
      Value* other = b_.op("Exp", {v});
      return rng_() % 2 ? b_.op("Concat", {v, other}, attrs({{"axis", a}})) : b_.op("Concat", {other, v}, attrs({{"axis", a}}));
    }
    case 4: { // Split and continue with one part, the other to a compute op
      int64_t a = static_cast<int64_t>(rng_() % s.size());
      if (s[a] < 2) return v;
      int64_t first = 1 + static_cast<int64_t>(rng_() % static_cast<uint64_t>(s[a] - 1));
      auto parts = b_.ops("Split", {v, b_.ints("sp" + std::to_string(counter_++), {first, s[a] - first})}, attrs({{"axis", a}}), 2);
      side = b_.op("Tanh", {parts[1]});
      return parts[0];
    }
    case 5: { // Unsqueeze then Expand the new axis
      Value* u = b_.op("Unsqueeze", {v, b_.ints("un" + std::to_string(counter_++), {0})});
      Shape t = u->type().shape;
      t[0] = 2;
      return b_.op("Expand", {u, b_.ints("ex" + std::to_string(counter_++), t)});
    }
    case 6: { // Constant Pad on the last axis
      std::vector<int64_t> pads(2 * s.size(), 0);
      pads[s.size() - 1] = 1;
      pads[2 * s.size() - 1] = 2;
      return b_.op("Pad", {v, b_.ints("pd" + std::to_string(counter_++), pads)}, attrs({{"mode", "constant"}}));
    }
    default: { // Flatten
      int64_t a = static_cast<int64_t>(rng_() % (s.size() + 1));
      return b_.op("Flatten", {v}, attrs({{"axis", a}}));
    }
    }
  }

  std::mt19937 rng_;
  GraphBuilder b_;
  int counter_ = 0;
};

void requireExact(const VtcSession& s, uint64_t seed) {
  REQUIRE(s.strategy().valid());
  auto inputs = randomInputs(s.graph(), seed);
  ExecutionResult ref = ReferenceExecutor(s.graph()).run(inputs);
  std::vector<Tensor> got = runPlan(s.optimizedPlan(), inputs);
  for (size_t i = 0; i < got.size(); ++i) REQUIRE(got[i].identicalTo(ref.outputs[i]));
}

} // namespace

TEST_CASE("random data-movement graphs: every strategy is bit-identical to the reference", "[vtc][property]") {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    INFO("seed " << seed);
    Graph g = RandomMovementGraph(seed).build();
    INFO(graphToString(g));
    VtcSession s(std::move(g), defaultGpuPreset());
    s.select(EdgeConstraintSpecs{});
    requireExact(s, seed);
    for (const VtogEdge& e : s.vtog().edges()) {
      INFO("edge " << e.describe());
      StrategyConstraints forbid;
      forbid.forbidden.insert(e.id);
      s.select(forbid);
      requireExact(s, seed);
      StrategyConstraints force;
      force.forced.insert(e.id);
      try {
        s.select(force);
      } catch (const Error& err) {
        REQUIRE(err.kind() == ErrorKind::InvalidArgument);
        continue;
      }
      REQUIRE(s.greedy().selected.count(e.id));
      requireExact(s, seed);
    }
  }
}
