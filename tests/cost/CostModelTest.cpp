// The roofline cost model on one-op graphs: FLOPs from the op registry
// (OpDef::flops), bytes from the plan's accesses, and the bound that wins.
#include "cost/CostModel.h"
#include "fusion/FusionPass.h"
#include "ops/GraphBuilder.h"
#include "plan/PlanLowering.h"
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
