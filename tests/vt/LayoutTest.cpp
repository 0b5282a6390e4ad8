// Layouts as a plan decision (VTensor): a tensor stored channels-last is
// read and written through one more mapping function, so the plan computes
// the reference's bytes whatever its tensors' layouts.
#include "exec/ReferenceExecutor.h"
#include "ops/GraphBuilder.h"
#include "pipeline/VtcSession.h"
#include "plan/Layout.h"
#include "plan/LayoutChoice.h"
#include "plan/PlanLowering.h"
#include "target/GpuPreset.h"

#include "support/PlanCheck.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace tcx;

namespace {

Tensor weights(Shape shape, float scale) {
  std::vector<float> values(static_cast<size_t>(numElements(shape)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = scale * static_cast<float>(static_cast<int>(i % 7) - 3);
  return Tensor::fromVector<float>(std::move(shape), values);
}

// A residual block: 3x3 conv, ReLU, max pool, 1x1 conv, the pooled tensor
// added back, ReLU; then a global average pool to the output.
Graph residualBlock() {
  GraphBuilder b("residual_block");
  Value* x = b.input("x", DType::F32, {2, 3, 8, 8});
  Value* c1 = b.op("Conv", {x, b.constant("w1", weights({6, 3, 3, 3}, 0.1f))},
                   attrs({{"pads", std::vector<int64_t>{1, 1, 1, 1}}}), "c1");
  Value* r1 = b.op("Relu", {c1}, {}, "r1");
  Value* p = b.op("MaxPool", {r1},
                  attrs({{"kernel_shape", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}}), "p");
  Value* c2 = b.op("Conv", {p, b.constant("w2", weights({6, 6, 1, 1}, 0.2f))}, {}, "c2");
  Value* sum = b.op("Add", {c2, p}, {}, "sum");
  Value* r2 = b.op("Relu", {sum}, {}, "r2");
  b.output(b.op("GlobalAveragePool", {r2}, {}, "pooled"));
  return b.finish();
}

Layout layoutOfTensor(const ExecPlan& plan, const Graph& g, const std::string& name) {
  const Value* v = g.findValue(name);
  REQUIRE(v);
  const int buffer = plan.bufferOf(v);
  REQUIRE(buffer >= 0);
  return plan.buffers[buffer].layout;
}

} // namespace

TEST_CASE("a channels-last layout stores the channel innermost", "[layout]") {
  const Layout nhwc = Layout::channelsLast(4);
  CHECK(nhwc.order == std::vector<int>{0, 2, 3, 1});
  CHECK(nhwc.toString() == "NHWC");
  CHECK(Layout{}.isIdentity());
  CHECK(storedShape({2, 3, 4, 5}, nhwc) == Shape{2, 4, 5, 3});
  const MappingFunction m = storageMapping({2, 3, 4, 5}, nhwc);
  for (const std::vector<int64_t>& x : {std::vector<int64_t>{0, 1, 0, 0}, {1, 2, 3, 4}, {0, 0, 1, 0}, {1, 0, 0, 1}}) {
    INFO("x = (" << x[0] << ", " << x[1] << ", " << x[2] << ", " << x[3] << ")");
    CHECK(m.evaluate(x.data()).offset == ((x[0] * 4 + x[2]) * 5 + x[3]) * 3 + x[1]);
  }
}

TEST_CASE("identity and storage mappings answer for their own shape", "[layout]") {
  // Both are kept once built (per shape): a shape asked after another gets its own.
  const Layout nhwc = Layout::channelsLast(4);
  for (const Shape& shape : {Shape{2, 3, 4, 5}, Shape{2, 5, 4, 3}, Shape{2, 3, 4, 5}, Shape{1, 7, 1, 2}}) {
    INFO("shape (" << shape[0] << ", " << shape[1] << ", " << shape[2] << ", " << shape[3] << ")");
    const MappingFunction id = MappingFunction::identity(shape);
    const MappingFunction stored = storageMapping(shape, nhwc);
    REQUIRE(id.virtualShape() == shape);
    REQUIRE(stored.virtualShape() == shape);
    REQUIRE(stored.sourceShapes() == std::vector<Shape>{storedShape(shape, nhwc)});
    const std::vector<int64_t> last{shape[0] - 1, shape[1] - 1, shape[2] - 1, shape[3] - 1};
    CHECK(id.evaluate(last.data()).offset == numElements(shape) - 1);
    CHECK(stored.evaluate(last.data()).offset == numElements(shape) - 1);
    const std::vector<int64_t> channel{0, shape[1] - 1, 0, 0};
    CHECK(id.evaluate(channel.data()).offset == (shape[1] - 1) * shape[2] * shape[3]);
    CHECK(stored.evaluate(channel.data()).offset == shape[1] - 1);
  }
}

TEST_CASE("the Auto layout is decided once per model, by its convolutions' work", "[layout]") {
  // The residual block's convolutions are far from the 8 GFLOP channels-last pays off at.
  VtcSession small(residualBlock(), defaultGpuPreset());
  CHECK(decideLayoutPolicy(small.kernels(), small.vtog(), LayoutPolicy::Auto) == LayoutPolicy::AsExported);
  CHECK(decideLayoutPolicy(small.kernels(), small.vtog(), LayoutPolicy::ChannelsLast) == LayoutPolicy::ChannelsLast);
  // 32 images of a 256-channel 3x3 convolution at 56x56: 118 GFLOP, dense.
  GraphBuilder b("wide_conv");
  Value* x = b.input("x", DType::F32, {32, 256, 56, 56});
  Value* w = b.input("w", DType::F32, {256, 256, 3, 3});
  Value* c = b.op("Conv", {x, w}, attrs({{"pads", std::vector<int64_t>{1, 1, 1, 1}}}), "c");
  b.output(b.op("Relu", {c}, {}, "r"));
  VtcSession wide(b.finish(), defaultGpuPreset());
  CHECK(decideLayoutPolicy(wide.kernels(), wide.vtog(), LayoutPolicy::Auto) == LayoutPolicy::ChannelsLast);
  CHECK(decideLayoutPolicy(wide.kernels(), wide.vtog(), LayoutPolicy::AsExported) == LayoutPolicy::AsExported);
}

TEST_CASE("a plan stores what convolutions read and write channels-last and computes the reference's bytes",
          "[layout]") {
  VtcSession s(residualBlock(), defaultGpuPreset(), PlanOptions{.layouts = LayoutPolicy::ChannelsLast});
  s.select(EdgeConstraintSpecs{});
  const ExecPlan& plan = s.optimizedPlan();
  const Layout nhwc = Layout::channelsLast(4);
  // Every intermediate a convolution kernel reads or writes: its output, the
  // pooled tensor it reads and adds back.
  for (const char* name : {"c1", "r1", "p", "c2", "sum", "r2"}) {
    const Value* v = s.graph().findValue(name);
    if (plan.bufferOf(v) >= 0) {
      INFO(name);
      CHECK(layoutOfTensor(plan, s.graph(), name) == nhwc);
    }
  }
  CHECK(layoutOfTensor(plan, s.graph(), "p") == nhwc);
  // The accesses index the buffers as stored: the pooled tensor's writer
  // puts channel 1 of pixel (0, 0) one element in, not a plane (4 x 4) in; stored as [2, 4, 4, 6].
  const Value* pooled = s.graph().findValue("p");
  bool written = false;
  for (const PlanKernel& k : plan.kernels)
    for (const TensorAccess& a : k.outputs)
      if (a.value == pooled) {
        written = true;
        CHECK(a.mapping.sourceShapes().at(0) == Shape{2, 4, 4, 6});
        const int64_t x[] = {0, 1, 0, 0};
        CHECK(a.mapping.evaluate(x).offset == 1);
      }
  CHECK(written);
  // The caller's tensors stay as stated.
  CHECK(layoutOfTensor(plan, s.graph(), "x").isIdentity());
  CHECK(plan.buffers[plan.bufferOf(s.graph().outputs()[0])].layout.isIdentity());
  test::requireBitIdentical(s, plan, 11);
}

TEST_CASE("a tensor convolutions write through virtual tensors is stored channels-last", "[layout]") {
  // Two convolutions' outputs concatenated, the concatenation read by a ReLU only. With the
  // concatenation's edges chosen the convolutions write into its buffer, so that buffer is stored
  // as they write it, though no convolution names it.
  GraphBuilder b("concat_of_convs");
  Value* x = b.input("x", DType::F32, {2, 3, 6, 6});
  Value* a = b.op("Conv", {x, b.constant("wa", weights({4, 3, 1, 1}, 0.1f))}, {}, "a");
  Value* c = b.op("Conv", {x, b.constant("wb", weights({5, 3, 3, 3}, 0.2f))},
                  attrs({{"pads", std::vector<int64_t>{1, 1, 1, 1}}}), "c");
  Value* cat = b.op("Concat", {a, c}, attrs({{"axis", int64_t{1}}}), "cat");
  Value* r = b.op("Relu", {cat}, {}, "r");
  b.output(b.op("GlobalAveragePool", {r}, {}, "pooled"));
  VtcSession s(b.finish(), defaultGpuPreset(), PlanOptions{.layouts = LayoutPolicy::ChannelsLast});
  s.select(EdgeConstraintSpecs{});
  const ExecPlan& plan = s.optimizedPlan();
  const int catBuffer = plan.bufferOf(s.graph().findValue("cat"));
  REQUIRE(catBuffer >= 0);
  // The convolutions write into it: their outputs are virtual tensors stored there.
  for (const char* name : {"a", "c"}) {
    INFO(name);
    const Value* v = s.graph().findValue(name);
    bool written = false;
    for (const PlanKernel& k : plan.kernels)
      for (const TensorAccess& out : k.outputs)
        if (out.value == v) written = out.buffers == std::vector<int>{catBuffer};
    REQUIRE(written);
  }
  CHECK(plan.buffers[catBuffer].layout == Layout::channelsLast(4));
  // The ReLU's output, which no convolution reads or writes, stays as stated.
  if (const int relu = plan.bufferOf(s.graph().findValue("r")); relu >= 0) CHECK(plan.buffers[relu].layout.isIdentity());
  test::requireBitIdentical(s, plan, 13);
}

TEST_CASE("lowering one kernel gives what the whole plan gives, where a convolution's output is updated in place",
          "[layout]") {
  // A scatter updates a convolution's output in place, and another convolution reads the result: both tensors
  // share one buffer, stored as stated. The greedy's oracle lowers each kernel alone (lowerKernel): the first
  // convolution must learn of the scatter's sharing, a kernel it is not, to write its output as the plan does.
  GraphBuilder b("conv_scatter_conv");
  Value* x = b.input("x", DType::F32, {1, 4, 6, 6});
  Value* y = b.op("Conv", {x, b.constant("w1", weights({8, 4, 1, 1}, 0.1f))}, {}, "y");
  Value* ids = b.input("ids", DType::I64, {1, 8, 2, 6});
  Value* z = b.op("ScatterElements", {y, ids, b.input("updates", DType::F32, {1, 8, 2, 6})},
                  attrs({{"axis", int64_t{2}}}), "z");
  b.output(b.op("Conv", {z, b.constant("w2", weights({3, 8, 1, 1}, 0.2f))}, {}, "out"));
  const PlanOptions options{.layouts = LayoutPolicy::ChannelsLast};
  VtcSession s(b.finish(), defaultGpuPreset(), options);
  s.select(EdgeConstraintSpecs{});
  const ExecPlan& plan = s.optimizedPlan();
  const int shared = plan.bufferOf(s.graph().findValue("y"));
  REQUIRE(shared >= 0);
  REQUIRE(plan.bufferOf(s.graph().findValue("z")) == shared);
  CHECK(plan.buffers[shared].layout.isIdentity());
  for (const FusedKernel& k : s.kernels().kernels()) {
    INFO(k.anchor->name());
    std::vector<const PlanKernel*> whole;
    for (const PlanKernel& pk : plan.kernels)
      if (pk.fused == &k) whole.push_back(&pk);
    const std::vector<PlanKernel> alone = lowerKernel(s.kernels(), k, s.strategy(), options);
    REQUIRE(alone.size() == whole.size());
    for (size_t i = 0; i < alone.size(); ++i) {
      REQUIRE(alone[i].inputs.size() == whole[i]->inputs.size());
      REQUIRE(alone[i].outputs.size() == whole[i]->outputs.size());
      for (size_t j = 0; j < alone[i].inputs.size(); ++j)
        CHECK(alone[i].inputs[j].mapping == whole[i]->inputs[j].mapping);
      for (size_t j = 0; j < alone[i].outputs.size(); ++j)
        CHECK(alone[i].outputs[j].mapping == whole[i]->outputs[j].mapping);
    }
  }
  test::requireBitIdentical(s, plan, 17);
}

TEST_CASE("as exported, every tensor is stored as the model states it", "[layout]") {
  VtcSession s(residualBlock(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  for (const PlanBuffer& b : s.optimizedPlan().buffers) {
    INFO(b.name);
    CHECK(b.layout.isIdentity());
  }
}
