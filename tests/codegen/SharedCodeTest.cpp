// Code shared between plan kernels (GeneratedPlan::codeKernel): buffers
// bound to slots per launch, offsets into them in the binding, and what that
// saves. Checked without a GPU; tests/gpu runs the shared kernels.
#include "CodegenTestUtil.h"
#include "Samples.h"

#include "codegen/CudaCodegen.h"
#include "codegen/ModuleBuilder.h"
#include "codegen/SlotBinding.h"
#include "ops/GraphBuilder.h"
#include "pipeline/VtcSession.h"
#include "support/Error.h"
#include "target/GpuPreset.h"
#include "tcx/launch.h"

#include <catch2/catch.hpp>

#include <set>

using namespace tcx;
using namespace tcx::test;

TEST_CASE("a kernel's buffers and offsets are bound to slots in the order its code names them", "[codegen]") {
  const BoundCode bound = bindSlots(unboundBufferRef(7, 0) + " " + unboundBufferRef(3, 64) + " " +
                                    unboundBufferRef(7, 0) + " " + unboundBufferRef(7, 16) + " tb.p[1]");
  CHECK(bound.code == "b.p[0] b.p[1] b.p[0] b.p[2] tb.p[1]");
  CHECK(bound.buffers == std::vector<BufferBinding>{{7, 0}, {3, 64}, {7, 16}});
  CHECK_THROWS_AS(bindSlots("b.p[x]"), Error);
  CHECK_THROWS_AS(unboundBufferRef(1, -4), Error);
  CHECK(replacePrefix("k1_v0(b) + k12_v1 + xk1_v2 + k1_", "k1_", "k@_") == "k@_v0(b) + k12_v1 + xk1_v2 + k@_");
  // A launch value takes a slot as a buffer does, the number in its binding.
  const BoundCode value = bindSlots(unboundBufferRef(2, 0) + " " + ModuleBuilder::launchValue(224) + " " +
                                    ModuleBuilder::launchValue(0));
  CHECK(value.code == "b.p[0] tcx::slotValue(b.p[1]) tcx::slotValue(b.p[2])");
  CHECK(value.buffers == std::vector<BufferBinding>{{2, 0}, {BufferBinding::kValue, 224}, {BufferBinding::kValue, 0}});
  CHECK(value.buffers[1].isValue());
}

TEST_CASE("plan kernels whose code differs only in its buffers share one compiled kernel", "[codegen]") {
  // An encoder's layers: the same MatMul four times over (each reads the one before, so none fuse), then
  // one of another width.
  GraphBuilder b("layers");
  Value* x = b.input("x", DType::F32, {8, 64});
  for (int i = 0; i < 4; ++i) x = b.op("MatMul", {x, b.input("w" + std::to_string(i), DType::F32, {64, 64})});
  b.output(b.op("MatMul", {x, b.input("wide", DType::F32, {64, 96})}));
  VtcSession s(b.finish(), defaultGpuPreset());
  const GeneratedPlan code = generateCuda(s.baselinePlan());
  REQUIRE(code.launches.size() == 5);
  // Kernels 1 to 3 run kernel 0's code; the wider MatMul has its own.
  CHECK(code.codeKernel == std::vector<int>{0, 0, 0, 0, 4});
  std::set<std::string> entries;
  std::set<std::vector<BufferBinding>> bindings;
  for (const GeneratedLaunch& l : code.launches) {
    INFO(l.entry << " of plan kernel " << l.planKernel);
    CHECK(l.entry.starts_with("k" + std::to_string(code.codeKernel[l.planKernel]) + "_"));
    CHECK(l.buffers.size() <= code.bufferSlots);
    CHECK(std::set<BufferBinding>(l.buffers.begin(), l.buffers.end()).size() == l.buffers.size());
    entries.insert(l.entry);
    bindings.insert(l.buffers);
  }
  CHECK(entries.size() == 2);
  CHECK(bindings.size() == 5); // each launch reads and writes buffers of its own
  CHECK(countOccurrences(code.source, "gemm(Buffers b) {") == 2);
  CHECK(countOccurrences(code.source, "vendor_epilogue(Buffers b) {") == 2); // their cuBLAS alternatives' epilogues
  CHECK(code.source.find("void* p[" + std::to_string(code.bufferSlots) + "];") != std::string::npos);
  // The code names slots, never the module's buffer numbers beyond them.
  CHECK(code.source.find("b.p[" + std::to_string(code.bufferSlots) + "]") == std::string::npos);
}

TEST_CASE("convolutions that write their own slices of one concatenation share one compiled kernel", "[codegen]") {
  // A DenseNet block's layers write into the block's concatenation at growing channel offsets: with the
  // Concat virtual, each convolution stores into its slice; the slice's offset goes into the address its
  // launch binds, not into the code.
  GraphBuilder b("slices");
  Value* x = b.input("x", DType::F32, {1, 16, 8, 8});
  const AttrMap pads = attrs({{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  Value* first = b.op("Conv", {x, b.input("w1", DType::F32, {16, 16, 3, 3})}, pads);
  Value* second = b.op("Conv", {x, b.input("w2", DType::F32, {16, 16, 3, 3})}, pads);
  b.output(b.op("Concat", {first, second}, attrs({{"axis", int64_t{1}}})));
  VtcSession s(b.finish(), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  const GeneratedPlan code = generateCuda(s.optimizedPlan());
  REQUIRE(countLaunches(code, "copy") == 0); // the Concat is virtual
  const std::vector<GeneratedLaunch> convs = launchesDescribed(code, "conv 3x3");
  REQUIRE(convs.size() == 2);
  CHECK(convs[0].entry == convs[1].entry);
  CHECK(code.codeKernel[convs[1].planKernel] == convs[0].planKernel);
  // Each binds the concatenation; the second 16 x 8 x 8 floats further in.
  std::vector<BufferBinding> stores;
  const std::vector<PlanBuffer>& buffers = s.optimizedPlan().buffers;
  for (const GeneratedLaunch& l : convs)
    for (const BufferBinding& binding : l.buffers)
      if (size_t(binding.buffer) < buffers.size() && buffers[binding.buffer].kind == PlanBuffer::Kind::Output)
        stores.push_back(binding);
  REQUIRE(stores.size() == 2);
  CHECK(stores[0].buffer == stores[1].buffer);
  CHECK(stores[0].byteOffset == 0);
  CHECK(stores[1].byteOffset == 16 * 8 * 8 * 4);
}

TEST_CASE("Llama-3-8B decode attention needs under 2 MiB beyond its inputs and weights", "[codegen]") {
  // Issue 20's memory target (VTC Fig. 2, batch 16, 4096 positions): Q in the arena, the output, and
  // one workspace that the QKV GEMM's split-K and the attention's partials (bf16, after the counters)
  // share, because the launches run one after another.
  VtcSession s(samples::buildLlama3Decode({.outputProjection = false}), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  const ExecPlan& plan = s.optimizedPlan();
  const GeneratedPlan code = generateCuda(plan);
  REQUIRE(countLaunches(code, "attention") == 2);
  // The workspace, and the staging buffer of the QKV GEMM's cuBLAS alternative, which exists on the
  // device only if the profiler picks that (it counts into `tcx profile`'s extra memory then).
  REQUIRE(code.scratchBytes.size() == 2);
  REQUIRE(code.scratchZeroed[0]);
  REQUIRE(code.vendorAlternatives.size() == 1);
  REQUIRE(code.vendorAlternatives[0].staging == static_cast<int>(code.numPlanBuffers) + 1);
  const int workspace = static_cast<int>(code.numPlanBuffers);
  for (const GeneratedLaunch& l : code.launches)
    CHECK(std::ranges::count(l.buffers, workspace, &BufferBinding::buffer) == 1);
  AttentionProblem attention;
  attention.batch = 16, attention.heads = 32, attention.kvHeads = 8, attention.skv = 4096, attention.headDim = 128;
  const int64_t partials = static_cast<int64_t>(planAttention(attention, defaultGpuPreset().smCount).workspaceBytes);
  CHECK(code.scratchBytes[0] == kSplitKCounterBytes + partials);
  int64_t extra = plan.arenaBytes + code.scratchBytes[0];
  for (const PlanBuffer& b : plan.buffers)
    if (b.kind == PlanBuffer::Kind::Output && b.aliasOf < 0) extra += b.bytes;
  CHECK(extra < 2 << 20);
}
