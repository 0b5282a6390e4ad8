// Imported graphs to μGraphs, checked against the CPU reference executor, and
// the LAX partition with its cut reasons.
#include "Programs.h"

#include "Samples.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "ops/GraphBuilder.h"
#include "mugraph/Conversion.h"
#include "mugraph/FloatDomain.h"
#include "mugraph/Lax.h"
#include "mugraph/LaxPartition.h"
#include "verify/FiniteFieldVerifier.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::mugraph;

namespace {

// Runs `graph` with the reference executor and its μGraph with the float
// interpreter on the same inputs; returns the largest difference.
double conversionError(const Graph& graph) {
  KernelGraph k = toMuGraph(graph);
  std::map<std::string, Tensor> inputs = tcx::randomInputs(graph, 5);
  std::vector<DenseTensor<double>> dense;
  for (int i : k.inputOps()) {
    const Tensor& t = inputs.at(k.op(i).name);
    DenseTensor<double> d(t.type().shape, 0.0);
    for (int64_t e = 0; e < t.numElements(); ++e) d.data[e] = t.elementAsDouble(e);
    dense.push_back(std::move(d));
  }
  ExecutionResult ref = ReferenceExecutor(graph).run(inputs);
  FloatDomain domain;
  auto out = Interpreter<FloatDomain>(domain).run(k, dense);
  REQUIRE(out.size() == ref.outputs.size());
  double worst = 0;
  for (size_t o = 0; o < out.size(); ++o)
    for (size_t e = 0; e < out[o].data.size(); ++e)
      worst = std::max(worst, std::abs(out[o].data[e] - ref.outputs[o].elementAsDouble(static_cast<int64_t>(e))));
  return worst;
}

} // namespace

TEST_CASE("Mirage's samples convert to μGraphs that compute the same values", "[mugraph][conversion]") {
  CHECK(conversionError(samples::buildAttention("gqa", {1, 4, 2, 8, 3, 16, DType::F32})) < 1e-4);
  CHECK(conversionError(samples::buildLora({4, 16, 16, 2, DType::F32})) < 1e-4);
  CHECK(conversionError(samples::buildGatedMlp({4, 16, 8, DType::F32})) < 1e-4);
  CHECK(conversionError(samples::buildRmsNormMatmul({4, 16, 8, 1e-6f, DType::F32})) < 1e-4);
}

TEST_CASE("a converted sample verifies against the hand-written LoRA μGraph", "[mugraph][conversion]") {
  KernelGraph imported = toMuGraph(samples::buildLora({4, 8, 8, 2, DType::F16}));
  CHECK(checkLax(imported).lax);
  verify::VerifyOptions options;
  options.seed = 3;
  verify::VerifyResult r = verify::FiniteFieldVerifier(options).verify(imported, testing::loraConcat({4, 8, 8, 2}));
  CHECK(r.verdict == verify::Verdict::Equivalent);
}

TEST_CASE("ops without a μGraph form are named", "[mugraph][conversion]") {
  GraphBuilder b("t");
  Value* x = b.input("x", DType::F32, {2, 3});
  b.output(b.op("Transpose", {x}, {}, "/t"));
  Graph g = b.finish();
  CHECK_THROWS_WITH(toMuGraph(g), Catch::Contains("'/t' (Transpose): Transpose has no μGraph operator"));
}

TEST_CASE("the LAX partition cuts at non-LAX ops and second exponentiations, and says why", "[mugraph][lax]") {
  std::vector<LaxSubprogram> parts = partitionLax(samples::buildRmsNormMatmul({4, 16, 8, 1e-6f, DType::F16}));
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].lax);
  CHECK(parts[0].nodes.size() == 3); // Pow, ReduceMean, Add
  CHECK_THAT(parts[0].cut, Catch::Contains("(Sqrt): Sqrt is not LAX"));
  CHECK_FALSE(parts[1].lax);
  CHECK(parts[2].lax);
  CHECK(parts[2].cut == "end of graph");

  GraphBuilder b("twice");
  Value* x = b.input("x", DType::F32, {4});
  Value* e = b.op("Exp", {x}, {}, "/e1");
  Value* y = b.op("Add", {e, x}, {}, "/add");
  b.output(b.op("Exp", {y}, {}, "/e2"));
  parts = partitionLax(b.finish());
  REQUIRE(parts.size() == 2);
  CHECK_THAT(parts[0].cut, Catch::Contains("'/e2' (Exp) would be a second exponentiation on a path"));
  CHECK(parts[1].nodes.size() == 1);

  CHECK(partitionLax(samples::buildAttention("gqa", {1, 4, 2, 8, 3, 16, DType::F16})).size() == 1);
  CHECK(partitionLax(samples::buildGatedMlp({4, 16, 8, DType::F16})).size() == 1);
}
