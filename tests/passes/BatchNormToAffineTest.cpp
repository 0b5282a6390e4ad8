// passes/BatchNormToAffine.h: a BatchNormalization with constant statistics
// becomes a Mul and an Add by per-channel constants, its values kept to
// rounding; statistics that are graph inputs and graph outputs keep the op.

#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "ops/GraphBuilder.h"
#include "passes/GraphPasses.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace tcx;

namespace {

Tensor channelValues(int64_t c, double first, double step) {
  std::vector<float> v;
  for (int64_t i = 0; i < c; ++i) v.push_back(static_cast<float>(first + step * i));
  return Tensor::fromVector<float>({c}, v);
}

// x -> BatchNormalization -> Relu, statistics constants (or graph inputs).
Graph bnRelu(bool constantStatistics, bool bnIsOutput = false) {
  GraphBuilder b("bn_relu");
  const int64_t c = 6;
  Value* x = b.input("x", DType::F32, {2, c, 3, 5});
  std::vector<Value*> params;
  const char* names[] = {"scale", "bias", "mean", "var"};
  for (int i = 0; i < 4; ++i)
    params.push_back(constantStatistics ? b.constant(names[i], channelValues(c, i == 3 ? 0.5 : -0.7 + i, 0.3))
                                        : b.input(names[i], DType::F32, {c}));
  Value* y = b.op("BatchNormalization", {x, params[0], params[1], params[2], params[3]},
                  attrs({{"epsilon", 1e-3f}}), "bn");
  b.output(b.op("Relu", {y}));
  if (bnIsOutput) b.output(y);
  return b.finish();
}

std::vector<std::string> opsInOrder(const Graph& g) {
  std::vector<std::string> ops;
  for (const Node* node : g.nodes()) ops.push_back(node->opType());
  return ops;
}

} // namespace

TEST_CASE("a BatchNormalization with constant statistics becomes a multiply-add per channel", "[passes]") {
  Graph rewritten = bnRelu(true);
  graphCleanupPipeline().run(rewritten);
  REQUIRE(opsInOrder(rewritten) == std::vector<std::string>{"Mul", "Add", "Relu"});
  const Node* mul = rewritten.nodes().front();
  CHECK(mul->input(1)->isConstant());
  CHECK(mul->input(1)->type().shape == Shape{6, 1, 1});
  // Channel 2: scale -0.1, bias 0.9, mean 1.9, var 1.1, epsilon 1e-3.
  const double a = -0.1 / std::sqrt(1.1 + 1e-3), shift = 0.9 - 1.9 * a;
  CHECK(mul->input(1)->constant().elementAsDouble(2) == Approx(a).epsilon(1e-6));
  CHECK(rewritten.nodes()[1]->input(1)->constant().elementAsDouble(2) == Approx(shift).epsilon(1e-6));

  const Graph original = bnRelu(true);
  const std::map<std::string, Tensor> inputs = randomInputs(original, 5);
  const Tensor before = ReferenceExecutor(original).run(inputs).outputs.at(0);
  const Tensor after = ReferenceExecutor(rewritten).run(inputs).outputs.at(0);
  const auto x = before.data<float>(), y = after.data<float>();
  REQUIRE(x.size() == y.size());
  for (size_t i = 0; i < x.size(); ++i) REQUIRE(std::abs(x[i] - y[i]) <= 1e-6 * (1 + std::abs(x[i])));
}

TEST_CASE("a BatchNormalization keeps its op where its statistics are inputs or it is an output", "[passes]") {
  Graph inputs = bnRelu(false);
  graphCleanupPipeline().run(inputs);
  CHECK(opsInOrder(inputs) == std::vector<std::string>{"BatchNormalization", "Relu"});
  Graph output = bnRelu(true, true);
  graphCleanupPipeline().run(output);
  CHECK(opsInOrder(output) == std::vector<std::string>{"BatchNormalization", "Relu"});
}
