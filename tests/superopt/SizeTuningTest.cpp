// Size classes: the search explores one partition per class, and a found
// μGraph's grid and for-loop sizes are chosen afterwards by the cost model.
#include "Programs.h"

#include "superopt/CandidateRanking.h"
#include "superopt/MuGraphCost.h"
#include "superopt/SizeTuning.h"

#include <catch2/catch.hpp>

#include <map>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::superopt;

namespace {

int64_t chunkElements(const BlockGraph& inputs) {
  int64_t n = 0;
  for (const Operator& op : inputs.ops()) n += numElements(op.outputs[0].shape);
  return n;
}

} // namespace

TEST_CASE("the search takes one partition per size class, the one with the smallest chunks", "[superopt]") {
  KernelGraph gqa = testing::attention({8, 2, 1, 1024, 64});
  AxisAnalysis::Labelled l = AxisAnalysis(gqa).label(gqa);
  std::vector<const TensorLabels*> operands;
  std::vector<TensorDesc> descs;
  for (int i = 0; i < 3; ++i) {
    operands.push_back(&*l.of({i, 0}));
    descs.push_back(gqa.desc({i, 0}));
  }
  std::vector<GraphPartition> all = enumeratePartitions(l.unifier, operands, PartitionLimits{2, 1, 1056, 132});
  std::vector<GraphPartition> representatives = sizeClassRepresentatives(all, descs);
  CHECK(representatives.size() * 4 < all.size());

  std::map<std::string, int64_t> smallest;
  for (const GraphPartition& p : representatives) {
    BlockGraph inputs = partitionInputs(descs, p);
    CHECK(smallest.emplace(sizeClass(inputs), chunkElements(inputs)).second); // one per class
  }
  for (const GraphPartition& p : all) {
    BlockGraph inputs = partitionInputs(descs, p);
    auto it = smallest.find(sizeClass(inputs));
    REQUIRE(it != smallest.end());
    CHECK(it->second <= chunkElements(inputs));
  }
}

TEST_CASE("size tuning rebuilds a μGraph on its size class and keeps the cheapest", "[superopt]") {
  // x W with W's columns over 2 blocks and its rows over a for-loop: two
  // blocks leave most of the GPU idle, so a larger grid of the same class wins.
  KernelGraph reference("gemm");
  TensorRef x = reference.input("x", {16, 1024});
  TensorRef w = reference.input("w", {1024, 1024});
  reference.markOutput(reference.matmul(x, w));
  KernelGraph searched("gemm");
  TensorRef sx = searched.input("x", {16, 1024});
  TensorRef sw = searched.input("w", {1024, 1024});
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{searched.desc(sx), searched.desc(sw)}, Shape{2},
                                            Shape{16});
  TensorRef xb = block->inputIterator(0, {kReplica}, {1});
  TensorRef wb = block->inputIterator(1, {1}, {0});
  block->outputAccumulator(block->matmul(xb, wb), {1}, {kReplica});
  searched.markOutput(searched.graphDefined(block, {sx, sw})[0]);

  const GpuPreset& preset = defaultGpuPreset();
  SizeTuning tuned = tuneSizes(searched, AxisAnalysis(reference), PartitionLimits::of(preset, 2, 1), preset);
  CHECK(tuned.variants > 1);
  CHECK(tuned.estimatedMicros < estimateCost(searched, preset).micros);
  CHECK(tuned.estimatedMicros == Approx(estimateCost(tuned.graph, preset).micros));
  CHECK(structureHash(tuned.graph) == structureHash(searched)); // only sizes changed
  CHECK(tuned.graph.op(2).body->gridDims()[0] > 2);
  CHECK(testing::maxDifference(reference, tuned.graph) < 1e-3);
}

TEST_CASE("size tuning keeps a μGraph whose sizes have no alternative", "[superopt]") {
  KernelGraph lora = testing::lora({16, 64, 64, 16});
  const GpuPreset& preset = defaultGpuPreset();
  SizeTuning tuned = tuneSizes(lora, AxisAnalysis(lora), PartitionLimits::of(preset, 2, 1), preset);
  CHECK(tuned.variants == 1);
  CHECK(tuned.graph == lora);
}
