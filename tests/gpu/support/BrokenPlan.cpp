#include "BrokenPlan.h"

#include "codegen/CudaCodegen.h"
#include "ops/GraphBuilder.h"
#include "target/GpuPreset.h"

#include <catch2/catch.hpp>

namespace tcx::test {

std::unique_ptr<VtcSession> reluExpSession(const std::vector<int64_t>& shape) {
  GraphBuilder b("relu_exp");
  Value* x = b.input("x", DType::F32, shape);
  Value* r = b.op("Relu", {x}, {}, "the_relu");
  b.output(b.op("Exp", {r}, {}, "the_exp"));
  auto session = std::make_unique<VtcSession>(b.finish(), defaultGpuPreset());
  session->select(EdgeConstraintSpecs{});
  return session;
}

GeneratedPlan withStatementInFirstKernel(const ExecPlan& plan, const std::string& statement) {
  GeneratedPlan code = generateCuda(plan);
  REQUIRE(!code.launches.empty());
  const size_t entry = code.source.find(code.launches.front().entry + "(");
  REQUIRE(entry != std::string::npos);
  const size_t body = code.source.find('{', entry);
  REQUIRE(body != std::string::npos);
  code.source.insert(body + 1, " " + statement + " ");
  return code;
}

} // namespace tcx::test
