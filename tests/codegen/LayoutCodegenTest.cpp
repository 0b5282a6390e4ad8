// Code generation under a chosen layout (plan/Layout.h): element kernels,
// copies and cuDNN's staged result walk the way their buffers are stored.
#include "CodegenTestUtil.h"

#include "codegen/CudaCodegen.h"
#include "ops/GraphBuilder.h"
#include "pipeline/VtcSession.h"
#include "target/GpuPreset.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

// x [2, 3, 8, 8] -> 3x3 conv (`channels` filters, padded) -> ReLU -> 2x2 max pool.
Value* pooledConvolution(GraphBuilder& b, int64_t channels) {
  Value* x = b.input("x", DType::F32, {2, 3, 8, 8});
  Value* c = b.op("Conv", {x, b.constant("w0", Tensor::filled(DType::F32, {channels, 3, 3, 3}, 0.1))},
                  attrs({{"pads", std::vector<int64_t>{1, 1, 1, 1}}}));
  return b.op("MaxPool", {b.op("Relu", {c})},
              attrs({{"kernel_shape", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}}));
}

} // namespace

TEST_CASE("an element kernel walks a tensor stored channels-last in its buffer's order", "[codegen][layout]") {
  // x -> 3x3 conv (6 channels) -> ReLU -> 2x2 max pool -> 1x1 conv: the pool's
  // result is stored NHWC, so its store kernel runs consecutive threads along
  // the channels (x1 innermost) where as exported they run along the width.
  auto build = [] {
    GraphBuilder b("pooled_between_convolutions");
    Value* p = pooledConvolution(b, 6);
    b.output(b.op("Conv", {p, b.constant("w2", Tensor::filled(DType::F32, {6, 6, 1, 1}, 0.2))}));
    return b.finish();
  };
  auto generate = [&](LayoutPolicy layouts) {
    VtcSession s(build(), defaultGpuPreset(), PlanOptions{.layouts = layouts});
    s.select(EdgeConstraintSpecs{});
    return generateCuda(s.optimizedPlan());
  };
  const GeneratedPlan channelsLast = generate(LayoutPolicy::ChannelsLast), asExported = generate(LayoutPolicy::AsExported);
  CHECK(channelsLast.source.find("const Index x1 = u % 6u;") != std::string::npos);
  CHECK(asExported.source.find("const Index x1 = u % 6u;") == std::string::npos);
  CHECK(asExported.source.find("const Index x3 = u % 4u;") != std::string::npos);
  // cuDNN's alternative for the first convolution stages its result NHWC,
  // and the epilogue walks it channel-innermost (6 channels, 64 pixels);
  // the second's result is the graph output, stored as stated.
  auto firstConv = [](const GeneratedPlan& g) {
    REQUIRE(g.vendorAlternatives.size() == 2);
    return std::get<VendorConv>(g.vendorAlternatives.front().call);
  };
  CHECK(firstConv(channelsLast).channelsLastResult);
  CHECK(!std::get<VendorConv>(channelsLast.vendorAlternatives.back().call).channelsLastResult);
  CHECK(!firstConv(asExported).channelsLastResult);
  CHECK(channelsLast.source.find("EpilogueAt{int(row / 64), int(u % 6), int(row % 64), ") != std::string::npos);
  CHECK(asExported.source.find("EpilogueAt{int(row / 6), int(row % 6), int(u % 64), ") != std::string::npos);
}

TEST_CASE("a kernel storing into a channel slice of a channels-last concatenation walks the channels innermost",
          "[codegen][layout]") {
  // DenseNet's block: the pool's result and a convolution of it are
  // concatenated along the channels for the next convolution, and VTC has
  // each store into its slice of the concatenation, which is stored NHWC.
  // The pool's stage then walks its 4 channels innermost, where it walked
  // the width while only the value's own storage decided the walk.
  GraphBuilder b("dense_block");
  Value* p = pooledConvolution(b, 4);
  Value* q = b.op("Conv", {p, b.constant("w1", Tensor::filled(DType::F32, {2, 4, 1, 1}, 0.2))});
  Value* cat = b.op("Concat", {p, q}, attrs({{"axis", int64_t{1}}}));
  b.output(b.op("Conv", {cat, b.constant("w2", Tensor::filled(DType::F32, {6, 6, 1, 1}, 0.3))}));
  VtcSession s(b.finish(), defaultGpuPreset(), PlanOptions{.layouts = LayoutPolicy::ChannelsLast});
  s.select(EdgeConstraintSpecs{});
  const ExecPlan& plan = s.optimizedPlan();
  const PlanBuffer& concatenation = plan.buffers.at(plan.tensorBuffers.at(cat));
  REQUIRE(concatenation.layout == Layout::channelsLast(4));
  const std::string source = generateCuda(plan).source;
  // The pool's stage, then the copy of the convolution's 2 channels into
  // channels 4 and 5, each walking the channels innermost.
  const size_t pool = source.find("const Index x1 = u % 4u;\n    const Index x3 = (u / 4u) % 4u;");
  CHECK(pool != std::string::npos);
  CHECK(source.find("const Index x1 = u % 6u;\n    const Index x3 = (u / 6u) % 4u;", pool) != std::string::npos);
  CHECK(source.find("const Index x3 = u % 4u;") == std::string::npos);
}
