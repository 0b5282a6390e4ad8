// A 1x1 convolution run as a cuBLAS GEMM (convolutionAsGemm) against cuDNN
// on the same buffers: the two forms the vendor choice times for it must
// stage the same result, in either result layout.
#include "profiler/DeviceBuffer.h"
#include "profiler/VendorCalls.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace tcx;
using namespace tcx::gpu;

namespace {

std::vector<float> randomValues(size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& v : values) v = dist(gen);
  return values;
}

// The staged result of `conv` (x in buffer 0, filters in buffer 1) on cuDNN's
// fastest algorithm and as the GEMM; returns the largest difference over the
// largest magnitude.
double gemmAgainstCudnn(const VendorConv& conv, size_t xElements) {
  const size_t wElements = size_t(conv.cout) * conv.cin, yElements = size_t(conv.batch) * conv.cout * conv.oh * conv.ow;
  DeviceBuffer x(xElements * 4), w(wElements * 4), staged(yElements * 4), workspace(64 << 20);
  x.upload(randomValues(xElements, 1).data(), xElements * 4);
  w.upload(randomValues(wElements, 2).data(), wElements * 4);
  const std::vector<void*> addresses{x.data(), w.data()};
  const VendorWorkspace space{workspace.data(), workspace.size()};
  PreparedVendorCall call(conv, addresses, staged.data(), space);
  const std::vector<VendorAlgorithm> candidates = call.candidates(3);
  REQUIRE(candidates.back().algorithm == VendorAlgorithm::kAsGemm);
  REQUIRE(call.algorithm().algorithm != VendorAlgorithm::kAsGemm);
  std::vector<float> byCudnn(yElements), byGemm(yElements);
  call.enqueue(nullptr, space);
  staged.download(byCudnn.data(), yElements * 4);
  staged.memset(0);
  call.use(candidates.back());
  call.enqueue(nullptr, space);
  staged.download(byGemm.data(), yElements * 4);
  double worst = 0, scale = 0;
  for (size_t i = 0; i < yElements; ++i) {
    worst = std::max(worst, double(std::fabs(byCudnn[i] - byGemm[i])));
    scale = std::max(scale, double(std::fabs(byCudnn[i])));
  }
  REQUIRE(scale > 1);
  return worst / scale;
}

} // namespace

TEST_CASE("a 1x1 convolution as a cuBLAS GEMM stages what cuDNN stages", "[vendor]") {
  // tf32 in both: products rounded to 10-bit mantissas, summed in fp32.
  constexpr double kTolerance = 4e-3;
  SECTION("channels-last in and out, one GEMM over every image's pixels") {
    VendorConv c{.batch = 4, .cin = 96, .h = 14, .w = 14, .cout = 80, .kh = 1, .kw = 1, .oh = 14, .ow = 14,
                 .x = {0, 0}, .weight = {1, 0}};
    c.xStrides = {14 * 14 * 96, 1, 14 * 96, 96};
    c.channelsLastResult = true;
    CHECK(gemmAgainstCudnn(c, size_t(4) * 14 * 14 * 96) < kTolerance);
  }
  SECTION("NCHW in and out, a GEMM per image") {
    VendorConv c{.batch = 3, .cin = 40, .h = 9, .w = 11, .cout = 24, .kh = 1, .kw = 1, .oh = 9, .ow = 11,
                 .x = {0, 0}, .weight = {1, 0}};
    c.xStrides = {40 * 99, 99, 11, 1};
    CHECK(gemmAgainstCudnn(c, size_t(3) * 40 * 99) < kTolerance);
  }
}
