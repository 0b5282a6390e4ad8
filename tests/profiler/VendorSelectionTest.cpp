// The cache of measured choices between generated code and a vendor call
// (profiler/VendorSelection.h): what a second run of a model reads instead
// of measuring again. No device needed.
#include "ScratchEnv.h"

#include "profiler/VendorSelection.h"

#include <catch2/catch.hpp>

#include <fstream>

using namespace tcx::gpu;
using namespace tcx::gpu::test;

TEST_CASE("a measured vendor choice reads back as stored, under its own key only", "[profiler][vendor]") {
  ScratchDir dir("vendor");
  ScopedEnv root("TCX_CACHE_DIR", dir.path.c_str());
  VendorChoiceCache cache;
  CHECK(!cache.find("conv a"));
  cache.store("conv a", {.vendor = true, .algorithm = {6, 1}, .generatedUs = 302.5, .vendorUs = 193.4});
  cache.store("gemm b", {.vendor = false, .generatedUs = 757.8, .vendorUs = 871.0});
  const std::optional<VendorChoice> a = VendorChoiceCache().find("conv a");
  REQUIRE(a);
  CHECK(a->vendor);
  CHECK(a->cached);
  CHECK((a->algorithm.algorithm == 6 && a->algorithm.mathType == 1));
  CHECK(a->generatedUs == Approx(302.5));
  CHECK(a->vendorUs == Approx(193.4));
  const std::optional<VendorChoice> b = cache.find("gemm b");
  REQUIRE(b);
  CHECK(!b->vendor);
  CHECK(!cache.find("conv a "));
}

TEST_CASE("a damaged vendor choice file is a miss, not a choice", "[profiler][vendor]") {
  ScratchDir dir("vendor_damaged");
  ScopedEnv root("TCX_CACHE_DIR", dir.path.c_str());
  VendorChoiceCache cache;
  cache.store("conv a", {.vendor = true, .algorithm = {1, 0}, .generatedUs = 2, .vendorUs = 1});
  REQUIRE(cache.find("conv a"));
  for (const auto& file : std::filesystem::recursive_directory_iterator(dir.path))
    if (file.is_regular_file()) std::ofstream(file.path()) << "maybe 1 0 2";
  CHECK(!cache.find("conv a"));
}

TEST_CASE("without a cache root vendor choices are not kept", "[profiler][vendor]") {
  ScopedEnv root("TCX_CACHE_DIR", nullptr);
  ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
  ScopedEnv home("HOME", nullptr);
  VendorChoiceCache cache;
  cache.store("conv a", {.vendor = true});
  CHECK(!cache.find("conv a"));
}

TEST_CASE("a choice's library form is reported by name", "[profiler][vendor]") {
  CHECK(describeAlgorithm({}) == "cuBLAS");
  CHECK(describeAlgorithm({5, 1}) == "cuDNN FFT_TILING");
  CHECK(describeAlgorithm({1, 0}) == "cuDNN IMPLICIT_PRECOMP_GEMM");
  CHECK(describeAlgorithm({VendorAlgorithm::kAsGemm}) == "cuBLAS (the 1x1 convolution as a GEMM)");
  CHECK(describeAlgorithm({42}) == "cuDNN algorithm 42");
}

TEST_CASE("a library call replaces generated code only when faster by more than the margin", "[profiler][vendor]") {
  CHECK(preferVendor(40.0, 122.0));  // serving ResNet-18's 3x3 256->256 on cuDNN
  CHECK(!preferVendor(170.0, 173.6)); // DenseNet-121's FFT, 2% faster alone
  CHECK(!preferVendor(100.0, 100.0 * (1 + kVendorMargin)));
  CHECK(preferVendor(100.0, 100.0 * (1 + kVendorMargin) + 0.1));
  CHECK(!preferVendor(182.0, 180.0));
}
