// The roofline cost model on one-op graphs: FLOPs from the op registry
// (OpDef::flops), bytes from the plan's accesses, and the bound that wins.
#include "cost/CostModel.h"
#include "fusion/FusionPass.h"
#include "ops/GraphBuilder.h"
#include "plan/PlanLowering.h"
#include "plan/StridedView.h"
#include "vt/Vtog.h"

#include <catch2/catch.hpp>

using namespace tcx;

namespace {

using Ints = std::vector<int64_t>;

// Round numbers, so that each expected time is a quotient by hand: 1 TB/s
// and 1 TFLOP/s on every unit, all of it reached, 1 µs per launch.
GpuPreset roundPreset() {
  GpuPreset p = defaultGpuPreset();
  p.hbmBytesPerSecond = 1e12;
  p.bandwidthEfficiency = 1;
  p.tensorFlops16 = p.tensorFlopsTf32 = p.simtFlops32 = 1e12;
  p.computeEfficiency = 1;
  p.launchSeconds = 1e-6;
  return p;
}

// The estimate of the one kernel of `graph`, a graph of one compute op
// without any strategy.
KernelEstimate estimateOnlyKernel(const Graph& graph, const GpuPreset& preset = roundPreset()) {
  const KernelGraph kernels = fuseOperators(graph);
  REQUIRE(kernels.kernels().size() == 1);
  const Vtog vtog = buildVtog(kernels);
  const PointsToGraph noStrategy(vtog, {});
  const ExecPlan plan = lowerToPlan(kernels, noStrategy);
  REQUIRE(plan.kernels.size() == 1);
  return CostModel(preset).estimate(plan.kernels[0]);
}

// Every data-movement output virtual over its input: the whole chain folds
// into the mapping function of the compute op that reads its end.
PointsToGraph everyOutputVirtual(const Vtog& vtog) {
  std::set<int> chosen;
  for (const VtogEdge& e : vtog.edges())
    if (e.direction == EdgeDirection::OutputOverInput) chosen.insert(e.id);
  PointsToGraph g(vtog, chosen);
  REQUIRE(g.valid());
  return g;
}

// A graph of `op` over f32 inputs of the given shapes.
Graph oneOp(const std::string& op, const std::vector<Shape>& shapes, AttrMap attributes = {}) {
  GraphBuilder b(op);
  std::vector<Value*> inputs;
  for (size_t i = 0; i < shapes.size(); ++i) inputs.push_back(b.input("x" + std::to_string(i), DType::F32, shapes[i]));
  b.output(b.op(op, inputs, std::move(attributes), "/" + op));
  return b.finish();
}

} // namespace

TEST_CASE("contraction FLOPs: two per multiply-add", "[cost]") {
  SECTION("batched MatMul: [2,3,8,16] x [2,3,16,4], K = 16 for each of 2*3*8*4 outputs") {
    CHECK(estimateOnlyKernel(oneOp("MatMul", {{2, 3, 8, 16}, {2, 3, 16, 4}})).flops == 2.0 * 16 * (2 * 3 * 8 * 4));
  }
  SECTION("Gemm with transA: A is [K, M] = [16, 8], so K = 16, not A's last dimension") {
    Graph g = oneOp("Gemm", {{16, 8}, {16, 4}}, attrs({{"transA", 1}}));
    CHECK(g.outputs()[0]->type().shape == Shape{8, 4});
    CHECK(estimateOnlyKernel(g).flops == 2.0 * 16 * (8 * 4));
  }
  SECTION("grouped Conv: W [8, 2, 3, 3] in 2 groups, each output sums 2 channels x 9 taps") {
    Graph g = oneOp("Conv", {{1, 4, 6, 6}, {8, 2, 3, 3}}, attrs({{"group", 2}}));
    CHECK(g.outputs()[0]->type().shape == Shape{1, 8, 4, 4});
    CHECK(estimateOnlyKernel(g).flops == 2.0 * (2 * 3 * 3) * (8 * 4 * 4));
  }
  SECTION("depthwise Conv: W [4, 1, 3, 3] in 4 groups, each output sums 9 taps of its channel") {
    Graph g = oneOp("Conv", {{1, 4, 6, 6}, {4, 1, 3, 3}}, attrs({{"group", 4}}));
    CHECK(g.outputs()[0]->type().shape == Shape{1, 4, 4, 4});
    CHECK(estimateOnlyKernel(g).flops == 2.0 * 9 * (4 * 4 * 4));
  }
  SECTION("grouped ConvTranspose: W is [Cin, Cout/group, k...] (ONNX)") {
    // X [1, 4, 5, 5], W [4, 3, 3, 3], group 2, stride 2: Cout = 3 * 2 = 6 and
    // the output is [1, 6, 11, 11] (2 * (5 - 1) + 3 = 11). Each of X's
    // 4 * 5 * 5 = 100 elements is multiplied into the 3 filters of its group
    // at each of 3 * 3 taps: 100 * 27 = 2700 multiply-adds, 5400 FLOPs. (The
    // output-side count of a [Cout, Cin/group, k] weight, 2 * 726 * 27 =
    // 39204, is what this replaced.)
    Graph g = oneOp("ConvTranspose", {{1, 4, 5, 5}, {4, 3, 3, 3}}, attrs({{"group", 2}, {"strides", Ints{2, 2}}}));
    CHECK(g.outputs()[0]->type().shape == Shape{1, 6, 11, 11});
    CHECK(estimateOnlyKernel(g).flops == 5400);
  }
}

TEST_CASE("a large MatMul is compute-bound: its time is FLOPs over the tensor-core rate", "[cost]") {
  // [64, 256] x [256, 64] in f32: 2 * 256 * 64 * 64 FLOPs (2.1 µs at
  // 1 TFLOP/s) against (2 * 64 * 256 + 64 * 64) * 4 bytes (0.15 µs at 1 TB/s).
  KernelEstimate e = estimateOnlyKernel(oneOp("MatMul", {{64, 256}, {256, 64}}));
  CHECK(e.flops == 2.0 * 256 * 64 * 64);
  CHECK(e.bytes == (2.0 * 64 * 256 + 64 * 64) * 4);
  CHECK_FALSE(e.memoryBound);
  CHECK(e.seconds == Approx(2.0 * 256 * 64 * 64 / 1e12 + 1e-6));
}

TEST_CASE("an element-wise Add is memory-bound: its time is bytes over bandwidth", "[cost]") {
  // Two [1024, 1024] f32 operands read, one written: 12 MiB (12.6 µs at
  // 1 TB/s), against 2^20 FLOPs (1 µs at 1 TFLOP/s).
  KernelEstimate e = estimateOnlyKernel(oneOp("Add", {{1024, 1024}, {1024, 1024}}));
  CHECK(e.flops == 1024.0 * 1024);
  CHECK(e.bytes == 3.0 * 1024 * 1024 * 4);
  CHECK(e.memoryBound);
  CHECK(e.seconds == Approx(3.0 * 1024 * 1024 * 4 / 1e12 + 1e-6));
}

TEST_CASE("a contraction whose operand is no strided view is estimated at the element form's rate", "[cost]") {
  // Swin's window partition: [1, 14, 14, 96] as 2 x 2 windows of 7 x 7 tokens, the tokens of a window
  // as rows of a [4, 49, 96] x [96, 288] MatMul. With every output virtual over its input, the Reshape-Transpose-
  // Reshape chain folds into the MatMul's mapping function (x1 / 7, x1 % 7, ...), which no library
  // kernel takes: codegen computes it one output per thread, on CUDA cores.
  GraphBuilder b("windows");
  Value* x = b.input("x", DType::F32, {1, 14, 14, 96});
  Value* parts = b.op("Reshape", {x, b.ints("split", {1, 2, 7, 2, 7, 96})});
  Value* windows = b.op("Transpose", {parts}, attrs({{"perm", Ints{0, 1, 3, 2, 4, 5}}}));
  Value* rows = b.op("Reshape", {windows, b.ints("rows", {4, 49, 96})});
  b.output(b.op("MatMul", {rows, b.input("w", DType::F32, {96, 288})}, {}, "/qkv"));
  const Graph graph = b.finish();
  const KernelGraph kernels = fuseOperators(graph);
  const Vtog vtog = buildVtog(kernels);
  const ExecPlan plan = lowerToPlan(kernels, everyOutputVirtual(vtog));
  REQUIRE(plan.kernels.size() == 1);
  const PlanKernel& matmul = plan.kernels[0];
  bool windowed = false;
  for (const TensorAccess& a : matmul.inputs) windowed |= a.value == rows && !hasStridedView(a);
  REQUIRE(windowed);
  const double flops = 2.0 * 96 * 4 * 49 * 288;
  const KernelEstimate e = CostModel(roundPreset()).estimate(matmul);
  CHECK(e.flops == flops);
  CHECK_FALSE(e.memoryBound);
  CHECK(e.seconds == Approx(flops / (1e12 / 24) + 1e-6));
  // The same MatMul over a plain [4, 49, 96] input: the tensor-core rate.
  CHECK(estimateOnlyKernel(oneOp("MatMul", {{4, 49, 96}, {96, 288}})).seconds == Approx(flops / 1e12 + 1e-6));
}

TEST_CASE("GQA's shared KV heads are a strided view with a grouped dimension, and a group of 1 a plain one", "[cost]") {
  // K of [1, 8, 16, 64] read by 32 query heads: head h reads KV head h / 4.
  GraphBuilder b("gqa");
  Value* k = b.input("k", DType::F16, {1, 8, 1, 16, 64});
  Value* expanded = b.op("Expand", {k, b.ints("to", {1, 8, 4, 16, 64})});
  Value* heads = b.op("Reshape", {expanded, b.ints("heads", {1, 32, 16, 64})});
  b.output(b.op("MatMul", {b.input("q", DType::F16, {1, 32, 1, 16}), b.op("Reshape", {heads, b.ints("flat", {1, 32, 16, 64})})}));
  const Graph graph = b.finish();
  const KernelGraph kernels = fuseOperators(graph);
  const Vtog vtog = buildVtog(kernels);
  const ExecPlan plan = lowerToPlan(kernels, everyOutputVirtual(vtog));
  REQUIRE(plan.kernels.size() == 1);
  int grouped = 0, plain = 0;
  for (const TensorAccess& a : plan.kernels[0].inputs)
    if (a.value->type().shape == Shape{1, 32, 16, 64}) {
      CHECK_FALSE(stridedView(a));
      CHECK(hasStridedView(a));
      const std::optional<StridedView> byFour = stridedView(a, 1, 4);
      REQUIRE(byFour);
      // KV head h / 4, 1024 elements apart (the batch of 1 has no stride).
      CHECK(byFour->strides == std::vector<int64_t>{0, 1024, 64, 1});
      ++grouped;
    } else if (a.value->type().shape == Shape{1, 32, 1, 16}) {
      // Q, one head each: a group of 1 is its plain view (attention's search over group sizes ends there).
      const std::optional<StridedView> byOne = stridedView(a, 1, 1);
      REQUIRE(byOne);
      CHECK(byOne->strides == stridedView(a)->strides);
      ++plain;
    }
  CHECK(grouped == 1);
  CHECK(plain == 1);
}

TEST_CASE("a write split by div/mod costs its bytes where the mod leaves whole sectors", "[cost]") {
  // A multi-head projection written straight into q, k and v ([3, batch, heads, tokens, 32]): output column
  // n of the MatMul lands at (n / 96, ..., (n / 32) % 3, ..., n % 32), so 32 consecutive columns are
  // consecutive floats (128 bytes, four sectors): the write costs its bytes, not a sector per float.
  GraphBuilder b("qkv");
  Value* y = b.op("MatMul", {b.input("x", DType::F32, {4, 10, 96}), b.input("w", DType::F32, {96, 288})});
  Value* heads = b.op("Reshape", {y, b.ints("split", {4, 10, 3, 3, 32})});
  b.output(b.op("Transpose", {heads}, attrs({{"perm", Ints{2, 0, 3, 1, 4}}})));
  const Graph graph = b.finish();
  const KernelGraph kernels = fuseOperators(graph);
  const Vtog vtog = buildVtog(kernels);
  std::set<int> chosen;
  for (const VtogEdge& e : vtog.edges())
    if (e.direction == EdgeDirection::InputOverOutput) chosen.insert(e.id);
  const PointsToGraph written(vtog, chosen);
  REQUIRE(written.valid());
  const ExecPlan plan = lowerToPlan(kernels, written);
  REQUIRE(plan.kernels.size() == 1);
  const PlanKernel& matmul = plan.kernels[0];
  REQUIRE(matmul.outputs.size() == 1);
  REQUIRE(matmul.outputs[0].mapping.pieces().size() == 1);
  CHECK_FALSE(matmul.outputs[0].mapping.pieces()[0].offset.isAffine());
  // x and w read, the output written, each byte once.
  CHECK(CostModel(roundPreset()).estimate(matmul).bytes == (4.0 * 10 * 96 + 96 * 288 + 4 * 10 * 288) * 4);
}
