// A plan's module in parts (profiler/PlanModules.h), checked without a GPU:
// how kernels are shared out, and that a part's cubin holds its kernels and
// no others.
#include "codegen/CudaCodegen.h"
#include "ops/GraphBuilder.h"
#include "pipeline/VtcSession.h"
#include "profiler/PlanModules.h"
#include "target/GpuPreset.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace tcx;
using namespace tcx::gpu;

namespace {

// Each kernel's code is the given number of lines and costs that much.
GeneratedPlan withSpans(const std::vector<int>& lines) {
  GeneratedPlan code;
  int at = 10;
  for (int n : lines) {
    code.codeKernel.push_back(static_cast<int>(code.kernelSpans.size()));
    code.kernelSpans.push_back(n ? SourceSpan{at, at + n - 1} : SourceSpan{});
    code.compileCost.push_back(n);
    at += n;
  }
  return code;
}

// Four kernels that do not fuse and do not share code: each MatMul reads
// the previous one and is narrower.
GeneratedPlan fourKernelPlan(std::unique_ptr<VtcSession>& session) {
  GraphBuilder b("chain");
  Value* x = b.input("x", DType::F32, {8, 64});
  for (int i = 0; i < 4; ++i)
    x = b.op("MatMul", {x, b.input("w" + std::to_string(i), DType::F32, {64 - 8 * i, 56 - 8 * i})});
  b.output(x);
  session = std::make_unique<VtcSession>(b.finish(), defaultGpuPreset());
  return generateCuda(session->baselinePlan());
}

} // namespace

TEST_CASE("the largest kernels go first to the part with the least code", "[profiler][nvrtc]") {
  const GeneratedPlan code = withSpans({100, 10, 0, 60, 50, 40});
  const std::vector<std::vector<int>> parts = PlanModules::partition(code, 2);
  // 100 to one part, 60 to the other, 50 joins the 60 (110), 40 the 100
  // (140), and 10 the 110.
  REQUIRE(parts.size() == 2);
  CHECK(parts[0] == std::vector<int>{0, 5});
  CHECK(parts[1] == std::vector<int>{1, 3, 4});
  INFO("a kernel with no code is in no part; more parts than kernels leave none empty");
  const std::vector<std::vector<int>> many = PlanModules::partition(code, 16);
  CHECK(many.size() == 5);
  std::set<int> all;
  for (const std::vector<int>& part : many) all.insert(part.begin(), part.end());
  CHECK(all == std::set<int>{0, 1, 3, 4, 5});
}

TEST_CASE("the compile cost weighs library templates, and a kernel that runs another's code costs nothing",
          "[profiler][nvrtc]") {
  // Three layers of a convolution (a library template) then a store, the last two convolutions the first's
  // code with other buffers; a wider convolution; a larger store.
  GraphBuilder b("convs");
  Value* x = b.input("x", DType::F32, {1, 16, 8, 8});
  for (int i = 0; i < 3; ++i)
    x = b.op("Relu", {b.op("Conv", {x, b.input("w" + std::to_string(i), DType::F32, {16, 16, 3, 3})},
                           attrs({{"pads", std::vector<int64_t>{1, 1, 1, 1}}}))});
  b.output(b.op("Conv", {x, b.input("wide", DType::F32, {32, 16, 1, 1})}));
  b.output(b.op("Exp", {b.op("Sigmoid", {b.input("y", DType::F32, {64, 64})})}));
  VtcSession s(b.finish(), defaultGpuPreset());
  const GeneratedPlan code = generateCuda(s.baselinePlan());
  std::vector<int> convs, own;
  for (const GeneratedLaunch& l : code.launches)
    if (l.what.rfind("conv", 0) == 0) convs.push_back(l.planKernel);
  for (size_t k = 0; k < code.compileCost.size(); ++k) {
    const SourceSpan& span = code.kernelSpans[k];
    INFO("plan kernel " << k);
    if (code.codeKernel[k] != static_cast<int>(k)) {
      CHECK(code.compileCost[k] == 0);
    } else if (std::find(convs.begin(), convs.end(), static_cast<int>(k)) != convs.end()) {
      CHECK(code.compileCost[k] > 10 * (span.lastLine - span.firstLine + 1));
      own.push_back(static_cast<int>(k));
    } else {
      CHECK(code.compileCost[k] == span.lastLine - span.firstLine + 1);
    }
  }
  REQUIRE(convs.size() == 4);
  CHECK(own.size() == 2); // the first 3x3 and the 1x1
  // Two parts: one convolution each, however many lines the other kernels have.
  const std::vector<std::vector<int>> parts = PlanModules::partition(code, 2);
  REQUIRE(parts.size() == 2);
  for (const std::vector<int>& part : parts)
    CHECK(std::count_if(part.begin(), part.end(), [&](int k) { return std::ranges::count(own, k) > 0; }) == 1);
}

TEST_CASE("a part's cubin holds its kernels' entries and no other kernel's", "[profiler][nvrtc]") {
  std::unique_ptr<VtcSession> session;
  const GeneratedPlan code = fourKernelPlan(session);
  REQUIRE(session->baselinePlan().kernels.size() == 4);
  NvrtcCompiler compiler("");
  CompileOptions options{.arch = "sm_90", .extraOptions = {"-DTCX_PART", "-DTCX_KERNEL_1"}};
  const CompileResult part = compiler.compile(code.source, options);
  for (const GeneratedLaunch& l : code.launches) {
    INFO(l.entry << " of plan kernel " << l.planKernel);
    CHECK((part.cubin->find(l.entry) != std::string::npos) == (l.planKernel == 1));
  }
}
