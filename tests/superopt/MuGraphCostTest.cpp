// The μGraph cost model: the programs Mirage discovers are estimated faster
// than the references they replace, a grid too small for the GPU loses, views
// are free, the breakdown adds up, and candidates timed on an H100 rank as
// they measured.
#include "Programs.h"

#include "mugraph/Json.h"
#include "superopt/MuGraphCost.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::mugraph::testing;
using namespace tcx::superopt;

namespace {

// Mirage's mha-decode benchmark shape.
const AttentionShape kDecode{32, 32, 1, 4096, 128};
const LoraShape kLora{16, 4096, 4096, 16};

void checkBreakdown(const MuGraphCost& cost) {
  double sum = 0;
  for (const KernelCost& k : cost.kernels) {
    CHECK(std::isfinite(k.micros));
    CHECK(k.micros > 0);
    CHECK(k.deviceBytes > 0);
    CHECK_FALSE(k.what.empty());
    sum += k.micros;
  }
  CHECK(cost.micros == Approx(sum));
}

// Exp over x [rows, 512], a row per block and iteration: the same work
// however it is split between the grid and the for-loop.
KernelGraph rowwiseExp(int64_t rows, int64_t blocks) {
  KernelGraph k("rowwise_exp");
  TensorRef x = k.input("x", {rows, 512});
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(x)}, Shape{blocks}, Shape{rows / blocks});
  block->outputAccumulator(block->exp(block->inputIterator(0, {0}, {0})), {0}, {0});
  k.markOutput(k.graphDefined(block, {x})[0]);
  return k;
}

} // namespace

TEST_CASE("FlashDecoding is estimated faster than attention that materialises the scores", "[superopt][cost]") {
  MuGraphCost fused = estimateCost(flashDecoding(kDecode, 4, 8));
  MuGraphCost reference = estimateCost(attention(kDecode));
  checkBreakdown(fused);
  checkBreakdown(reference);
  REQUIRE(fused.kernels.size() == 2);
  REQUIRE(reference.kernels.size() == 5);
  CHECK(fused.micros < reference.micros);

  const KernelCost& split = fused.kernels[0];
  CHECK(split.what == "graph-defined 32x4 blocks x 8 iterations");
  CHECK(split.bound == std::string("serial"));
  // K and V come from HBM once; q's chunk is re-read per block, from L2.
  double kv = 2.0 * 32 * 4096 * 128 * 2;
  CHECK(split.deviceBytes > kv);
  CHECK(split.deviceBytes < kv * 1.01);
  // Matmuls of one query row are below the tensor-core tile: SIMT flops.
  CHECK(split.flops >= 4.0 * 32 * 4096 * 128);
  CHECK(reference.kernels[0].what == "Matmul");
  CHECK(reference.kernels[1].what == "EwExp");
}

TEST_CASE("a loop-invariant chunk is loaded once per block, not once per iteration", "[superopt][cost]") {
  // q's chunk has fmap φ: 8 iterations over the keys read no more than 1.
  const KernelCost one = estimateCost(flashDecoding(kDecode, 4, 1)).kernels[0];
  const KernelCost eight = estimateCost(flashDecoding(kDecode, 4, 8)).kernels[0];
  CHECK(eight.deviceBytes == Approx(one.deviceBytes));
  double q = 32.0 * 128 * 2, kv = 2.0 * 32 * 4096 * 128 * 2;
  CHECK(one.deviceBytes == Approx(kv + 4 * q + 2 * (32.0 * 4 * 128 * 2 + 32.0 * 4 * 2)).epsilon(0.01));
}

TEST_CASE("RMSNorm fused into the matmul's kernel is estimated faster than the operators one by one",
          "[superopt][cost]") {
  RmsNormShape shape{.tokens = 8, .in = 4096, .out = 4096};
  MuGraphCost fused = estimateCost(rmsNormFused(shape, 128, 2));
  MuGraphCost reference = estimateCost(rmsNormMatmul(shape));
  checkBreakdown(fused);
  checkBreakdown(reference);
  CHECK(fused.kernels.size() == 1);
  CHECK(fused.micros < reference.micros);
}

TEST_CASE("LoRA's concat-matmul form is estimated faster than three matmuls and an add", "[superopt][cost]") {
  MuGraphCost concat = estimateCost(loraConcat(kLora));
  MuGraphCost separate = estimateCost(lora(kLora));
  checkBreakdown(concat);
  checkBreakdown(separate);
  CHECK(concat.kernels.size() == 2);
  CHECK(separate.kernels.size() == 4);
  CHECK(concat.micros < separate.micros);
}

TEST_CASE("a grid of one block uses one SM, 128 blocks use the GPU", "[superopt][cost]") {
  const GpuPreset& preset = defaultGpuPreset();
  MuGraphCost one = estimateCost(rowwiseExp(128, 1), preset);
  MuGraphCost wide = estimateCost(rowwiseExp(128, 128), preset);
  checkBreakdown(one);
  checkBreakdown(wide);
  CHECK(one.kernels[0].deviceBytes == wide.kernels[0].deviceBytes);
  CHECK(one.kernels[0].deviceBytes == 2.0 * 128 * 512 * 2);
  // Beyond the launch, time scales with the rows each block takes in turn:
  // one block's 256 threads keep too few loads in flight to stream, so its
  // serial path bounds it, 128 times as long as a row's.
  double launch = preset.launchSeconds * 1e6;
  CHECK(one.micros - launch == Approx(128 * (wide.micros - launch)));
  CHECK(one.kernels[0].bound == std::string("serial"));
  CHECK(wide.kernels[0].bound == std::string("launch"));
}

TEST_CASE("Reshape is a free view, Repeat streams its output", "[superopt][cost]") {
  KernelGraph view("view");
  view.markOutput(view.reshape(view.input("x", {4, 1024}), {4096}));
  MuGraphCost free = estimateCost(view);
  CHECK(free.micros == 0);
  CHECK(free.kernels.empty());

  KernelGraph tiled("tiled");
  tiled.markOutput(tiled.repeat(tiled.input("x", {4, 1024}), {2, 1}));
  MuGraphCost copy = estimateCost(tiled);
  REQUIRE(copy.kernels.size() == 1);
  CHECK(copy.kernels[0].op == 1);
  CHECK(copy.kernels[0].deviceBytes == (4 + 8) * 1024 * 2);
  CHECK(copy.kernels[0].flops == 0);
  CHECK(copy.micros > 0);
}

TEST_CASE("a large matmul with a thread per output element is bound by its serial path, f16 as f32",
          "[superopt][cost]") {
  auto gemm = [](DType dtype) {
    KernelGraph k("gemm");
    k.markOutput(k.matmul(k.input("a", {4096, 4096}, dtype), k.input("b", {4096, 4096}, dtype)));
    return estimateCost(k);
  };
  MuGraphCost half = gemm(DType::F16), single = gemm(DType::F32);
  CHECK(half.kernels[0].flops == 2.0 * 4096 * 4096 * 4096);
  // The generated kernel has no tensor cores and no tiling: each thread runs
  // a dot product of 4,096 steps, and 16.8 M outputs take 63 waves of the
  // GPU's resident threads, far longer than the flops or the bytes.
  CHECK(half.kernels[0].bound == std::string("serial"));
  CHECK(single.kernels[0].bound == std::string("serial"));
  CHECK(half.micros == Approx(single.micros));
  const GpuPreset& p = defaultGpuPreset();
  double waves = std::ceil(4096.0 * 4096 / (p.smCount * p.maxThreadsPerSm));
  CHECK(waves == 63);
  CHECK(half.micros > waves * 4096 * 100 / p.smClockHz * 1e6);
  CHECK(half.micros < waves * 4096 * 200 / p.smClockHz * 1e6);
}

TEST_CASE("kernel launches: Reshape is a view, inputs and constants launch nothing", "[superopt][cost]") {
  testing::AttentionShape gqa{8, 2, 1, 64, 16};
  // MatMul, Exp, Sum, Div, MatMul and the two Repeats; the four Reshapes around the Repeats are views.
  CHECK(countKernels(testing::attention(gqa)).launches == 7);
  CHECK(countKernels(testing::attention(gqa)).graphDefined == 0);
  KernelCount fd = countKernels(testing::flashDecoding({2, 2, 1, 8, 4}, 2, 2));
  CHECK(fd.launches == 2);
  CHECK(fd.graphDefined == 2);
}

// Candidates the search found for samples/mha_decode.onnx, timed on an H100
// (data/mha_decode_h100/README.md). They move nearly the same bytes, so
// bandwidth alone cannot rank them; their threads' serial chains can.
TEST_CASE("the estimate ranks MHA candidates of equal bytes as an H100 timed them", "[superopt][cost]") {
  struct Timed {
    const char* name;
    double h100Micros;
  };
  const Timed timed[] = {{"split_keys_loop4", 131.08},
                         {"split_keys_no_loop", 167.17},
                         {"reference", 489.77},
                         {"row_sum_per_block", 504.76},
                         {"row_sum_per_block_loop512", 1180.21}};
  const std::string dir = std::string(TCX_SOURCE_DIR) + "/tests/superopt/data/mha_decode_h100/";
  std::vector<MuGraphCost> costs;
  std::vector<double> bytes;
  for (const Timed& t : timed) {
    INFO(t.name);
    costs.push_back(estimateCost(loadMuGraph(dir + t.name + ".json")));
    checkBreakdown(costs.back());
    double b = 0;
    for (const KernelCost& k : costs.back().kernels) b += k.deviceBytes;
    bytes.push_back(b);
    // Within a factor of 2 of the timing, either way.
    CHECK(costs.back().micros > t.h100Micros / 2);
    CHECK(costs.back().micros < t.h100Micros * 2);
  }
  for (size_t i = 1; i < costs.size(); ++i) {
    INFO(timed[i].name);
    CHECK(costs[i - 1].micros < costs[i].micros);
    CHECK(bytes[i] < bytes[0] * 1.1);
    CHECK(bytes[i] > bytes[0] / 1.1);
  }
  // Each block of the slow form sums a whole row of 4096 in one thread and
  // multiplies it by a one-column chunk of V, 16 times.
  const KernelCost& rowSum = costs[3].kernels[1];
  CHECK(rowSum.bound == std::string("serial"));
  CHECK(rowSum.what == "graph-defined 32x8 blocks x 16 iterations");
  // The reference's Sum has one thread per row, 4096 steps each.
  CHECK(costs[2].kernels[2].what == "Sum");
  CHECK(costs[2].kernels[2].bound == std::string("serial"));
}
