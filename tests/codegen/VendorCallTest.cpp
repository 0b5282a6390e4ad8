// Vendor library alternatives (codegen/VendorCall.h): which GEMM and
// convolution kernels get one, how the call reads its operands, and the
// epilogue kernel that follows it. Checked without a GPU; tests/gpu runs the
// calls against the reference executor.
#include "CodegenTestUtil.h"

#include "codegen/CudaCodegen.h"
#include "codegen/KernelText.h"
#include "ops/GraphBuilder.h"
#include "pipeline/VtcSession.h"
#include "target/GpuPreset.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <random>
#include <set>

using namespace tcx;
using namespace tcx::test;

namespace {

GeneratedPlan baselineCode(Graph graph) {
  VtcSession s(std::move(graph), defaultGpuPreset());
  return generateCuda(s.baselinePlan());
}

// The optimised plan: movement ops become virtual, the library reads through them.
GeneratedPlan optimizedCode(Graph graph) {
  VtcSession s(std::move(graph), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  return generateCuda(s.optimizedPlan());
}

// A strided, dilated convolution of x's channels 8 to 19 with ONNX `pads`.
Graph slicedConv(std::vector<int64_t> pads) {
  GraphBuilder b("conv");
  Value* x = b.input("x", DType::F32, {3, 20, 23, 19});
  Value* w = b.input("w", DType::F32, {70, 12, 3, 2});
  Value* slice = b.op("Slice", {x, b.ints("starts", {8}), b.ints("ends", {20}), b.ints("axes", {1})});
  b.output(b.op("Relu", {b.op("Conv", {slice, w},
                                      attrs({{"kernel_shape", std::vector<int64_t>{3, 2}},
                                             {"strides", std::vector<int64_t>{2, 1}},
                                             {"dilations", std::vector<int64_t>{2, 1}},
                                             {"pads", std::move(pads)}}))}));
  return b.finish();
}

// The alternative's epilogue is defined in the source, bound like the kernel's own launches.
void checkEpilogue(const GeneratedPlan& code, const VendorAlternative& a) {
  INFO(a.epilogue.entry);
  CHECK(code.source.find(" " + a.epilogue.entry + "(Buffers b)") != std::string::npos);
  const auto own = std::ranges::find(code.launches, a.planKernel, &GeneratedLaunch::planKernel);
  REQUIRE(own != code.launches.end());
  CHECK(own->buffers == a.epilogue.buffers);
  CHECK(std::ranges::count(a.epilogue.buffers, BufferBinding{a.staging, 0}) == 1);
  CHECK(a.stagingBytes <= code.scratchBytes.at(a.staging - code.numPlanBuffers));
  // elementsPerThread a thread, each through the split functor's compute, then its store: the grid
  // covers the staged result once.
  const int64_t elements = a.stagingBytes / elemBytes(vendorCallType(a.call));
  const unsigned perThread = elementsPerThread(elements, CodegenTarget{}.smCount, CodegenTarget{}.threadsPerSm);
  const int64_t perBlock = int64_t{kKernelThreads} * perThread;
  CHECK(a.epilogue.grid[0] == (elements + perBlock - 1) / perBlock);
  CHECK(code.source.find("Out compute(int batch, int m, int n, float acc) const") != std::string::npos);
  CHECK(code.source.find(fmt::format("tcx::runEpilogue<{0}, {0}>(epilogue, ", perThread)) != std::string::npos);
}

// staged[batch][m][n] of `g` (VendorCall.h), its operands read by their
// strides from host copies of module buffers 0 (x) and 1 (the filters).
std::vector<double> evaluate(const VendorGemm& g, const std::vector<std::vector<float>>& buffers) {
  const std::vector<float>&a = buffers.at(g.a.buffer), &b = buffers.at(g.b.buffer);
  const int64_t a0 = g.a.byteOffset / 4, b0 = g.b.byteOffset / 4;
  std::vector<double> staged;
  for (int64_t i = 0; i < g.batch; ++i)
    for (int64_t m = 0; m < g.m; ++m)
      for (int64_t n = 0; n < g.n; ++n) {
        double sum = 0;
        for (int64_t k = 0; k < g.k; ++k)
          sum += double(a.at(a0 + i * g.aStrides[0] + m * g.aStrides[1] + k * g.aStrides[2])) *
                 b.at(b0 + i * g.bStrides[0] + k * g.bStrides[1] + n * g.bStrides[2]);
        staged.push_back(sum);
      }
  return staged;
}

// The 1x1 convolution's staged result as VendorConv defines it: (batch,
// cout, pixel), or (batch, pixel, cout) with channelsLastResult.
std::vector<double> convolve(const VendorConv& c, const std::vector<std::vector<float>>& buffers) {
  const std::vector<float>&x = buffers.at(c.x.buffer), &w = buffers.at(c.weight.buffer);
  const int64_t pixels = int64_t(c.h) * c.w;
  std::vector<double> staged(size_t(c.batch) * c.cout * pixels);
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t o = 0; o < c.cout; ++o)
      for (int64_t p = 0; p < pixels; ++p) {
        double sum = 0;
        for (int64_t i = 0; i < c.cin; ++i)
          sum += double(x.at(c.x.byteOffset / 4 + n * c.xStrides[0] + i * c.xStrides[1] + (p / c.w) * c.xStrides[2] +
                             (p % c.w) * c.xStrides[3])) *
                 w.at(o * c.cin + i);
        staged[c.channelsLastResult ? (n * pixels + p) * c.cout + o : (n * c.cout + o) * pixels + p] = sum;
      }
  return staged;
}

} // namespace

TEST_CASE("BLAS reads a row-major matrix as stored or transposed, by which stride is unit", "[codegen][vendor]") {
  auto read = [](int64_t rows, int64_t cols, int64_t rowStride, int64_t colStride) {
    std::optional<BlasOperand> op = blasOperand(rows, cols, rowStride, colStride);
    return op ? std::pair{op->transposed ? 'T' : 'N', op->ld} : std::pair{'-', int64_t{0}};
  };
  CHECK(read(3, 4, 4, 1) == std::pair{'N', int64_t{4}}); // row-major: its transpose is column-major
  CHECK(read(3, 4, 8, 1) == std::pair{'N', int64_t{8}}); // rows of a wider matrix
  CHECK(read(3, 4, 1, 3) == std::pair{'T', int64_t{3}}); // stored column-major
  CHECK(read(3, 4, 2, 2) == std::pair{'-', int64_t{0}}); // neither stride unit
  CHECK(read(3, 4, 2, 1) == std::pair{'-', int64_t{0}}); // rows overlap
  CHECK(read(1, 4, 0, 1) == std::pair{'N', int64_t{4}}); // one row: its stride never used
  CHECK(read(5, 1, 1, 0) == std::pair{'N', int64_t{1}}); // one column: a 1 x 5 row, ld 1
}

TEST_CASE("a MatMul kernel offers cuBLAS with its operands as strided matrices", "[codegen][vendor]") {
  GraphBuilder b("mm");
  Value* x = b.input("x", DType::F32, {2, 8, 16});
  Value* w = b.input("w", DType::F32, {32, 16});
  Value* wt = b.op("Transpose", {w}, attrs({{"perm", std::vector<int64_t>{1, 0}}}));
  b.output(b.op("Relu", {b.op("MatMul", {x, wt})}));
  const GeneratedPlan code = optimizedCode(b.finish());
  REQUIRE(code.vendorAlternatives.size() == 1);
  const VendorAlternative& a = code.vendorAlternatives[0];
  const auto& g = std::get<VendorGemm>(a.call);
  // The batches fold into rows of one GEMM; B is w read through the transpose.
  CHECK((g.batch == 1 && g.m == 16 && g.n == 32 && g.k == 16));
  CHECK(g.aStrides[1] == 16);
  CHECK(g.aStrides[2] == 1);
  CHECK(g.bStrides[1] == 1);
  CHECK(g.bStrides[2] == 16);
  CHECK(blasOperand(g.k, g.n, g.bStrides[1], g.bStrides[2])->transposed);
  CHECK(a.stagingBytes == 16 * 32 * 4);
  CHECK(describeVendorCall(a.call) == "cuBLAS gemm 16x32x16 (batch 1, float)");
  checkEpilogue(code, a);
}

TEST_CASE("a convolution offers cuDNN, reading its input's channel slice in place", "[codegen][vendor]") {
  // ONNX pads one more row at the end than at the start: the same 11 rows as 1 at both ends.
  const GeneratedPlan code = optimizedCode(slicedConv({1, 0, 2, 0}));
  REQUIRE(code.vendorAlternatives.size() == 1);
  const VendorAlternative& a = code.vendorAlternatives[0];
  const auto& c = std::get<VendorConv>(a.call);
  CHECK((c.batch == 3 && c.cin == 12 && c.h == 23 && c.w == 19 && c.cout == 70));
  CHECK((c.kh == 3 && c.kw == 2 && c.strideH == 2 && c.dilationH == 2 && c.padH == 1 && c.padW == 0));
  CHECK((c.oh == 11 && c.ow == 18));
  // The slice is virtual: the call reads x from channel 8 on, with x's strides.
  CHECK(c.x.byteOffset == 8 * 23 * 19 * 4);
  CHECK(c.xStrides == std::array<int64_t, 4>{20 * 23 * 19, 23 * 19, 19, 1});
  CHECK(a.stagingBytes == int64_t{3} * 70 * 11 * 18 * 4);
  checkEpilogue(code, a);
  // A column padded at the end only is one more output column: cuDNN's
  // symmetric padding cannot give it, so that convolution keeps its code.
  CHECK(optimizedCode(slicedConv({1, 0, 2, 1})).vendorAlternatives.empty());
}

TEST_CASE("depthwise and grouped convolutions offer cuDNN with their groups", "[codegen][vendor]") {
  GraphBuilder b("dw");
  Value* x = b.input("x", DType::F32, {2, 32, 14, 14});
  Value* dw = b.op("Conv", {x, b.input("dw", DType::F32, {32, 1, 7, 7})},
                   attrs({{"group", int64_t{32}}, {"pads", std::vector<int64_t>{3, 3, 3, 3}}}));
  b.output(b.op("Conv", {dw, b.input("g", DType::F32, {64, 8, 3, 3})},
                attrs({{"group", int64_t{4}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}})));
  const GeneratedPlan code = baselineCode(b.finish());
  REQUIRE(code.vendorAlternatives.size() == 2);
  CHECK(std::get<VendorConv>(code.vendorAlternatives[0].call).groups == 32);
  CHECK(std::get<VendorConv>(code.vendorAlternatives[1].call).groups == 4);
  for (const VendorAlternative& a : code.vendorAlternatives) checkEpilogue(code, a);
  // One staging buffer serves both, sized for the larger result.
  CHECK(code.vendorAlternatives[0].staging == code.vendorAlternatives[1].staging);
  CHECK(code.scratchBytes.at(code.vendorAlternatives[0].staging - code.numPlanBuffers) == 2 * 64 * 14 * 14 * 4);
}

TEST_CASE("kernels that share code share their alternative's epilogue", "[codegen][vendor]") {
  GraphBuilder b("layers");
  Value* x = b.input("x", DType::F32, {8, 64});
  for (int i = 0; i < 3; ++i) x = b.op("MatMul", {x, b.input("w" + std::to_string(i), DType::F32, {64, 64})});
  b.output(x);
  const GeneratedPlan code = baselineCode(b.finish());
  REQUIRE(code.vendorAlternatives.size() == 3);
  std::set<int> weights;
  for (const VendorAlternative& a : code.vendorAlternatives) {
    CHECK(a.epilogue.entry == "k0_vendor_epilogue");
    weights.insert(std::get<VendorGemm>(a.call).b.buffer);
    checkEpilogue(code, a);
  }
  CHECK(weights.size() == 3); // each call reads its own layer's weight
  CHECK(countOccurrences(code.source, "vendor_epilogue(Buffers b)") == 1);
}

TEST_CASE("an epilogue returns what it stores from compute, and store stores it", "[codegen][vendor]") {
  // relu(x w + r): compute loads r and returns the relu; store binds it to the same name and stores it,
  // so a kernel can run compute for several elements before it stores any (tcx/epilogue.cuh).
  GraphBuilder b("residual");
  Value* mm = b.op("MatMul", {b.input("x", DType::F32, {64, 128}), b.input("w", DType::F32, {128, 96})});
  b.output(b.op("Relu", {b.op("Add", {mm, b.input("r", DType::F32, {64, 96})})}));
  const GeneratedPlan code = optimizedCode(b.finish());
  REQUIRE(code.vendorAlternatives.size() == 1);
  CHECK(countOccurrences(code.source, "  struct Out { float v0; };") == 1);
  CHECK(countOccurrences(code.source, "    return {e2};") == 1);
  CHECK(countOccurrences(code.source, "    const float e2 = out.v0;") == 1);
  CHECK(countOccurrences(code.source, "store(batch, m, n, compute(batch, m, n, acc));") == 1);
  // The residual is loaded in compute only.
  const size_t compute = code.source.find("Out compute("), store = code.source.find("void store(");
  REQUIRE(compute < store);
  CHECK(code.source.find("tcx::op::Add(", compute) < store);
  CHECK(code.source.find("tcx::op::Add(", store) == std::string::npos);
}

TEST_CASE("a result that fills the GPU four times over gets four elements a thread in its epilogue kernel",
          "[codegen][vendor]") {
  // relu(x w + r) with 2048 x 640 results (over 4 x 132 x 2048): cuBLAS's epilogue kernel takes four a thread,
  // 1280 blocks of 1024; the same with 64 rows, 40960 results, takes one, 160 blocks of 256.
  auto generate = [](int64_t rows) {
    GraphBuilder b("residual");
    Value* mm = b.op("MatMul", {b.input("x", DType::F32, {rows, 64}), b.input("w", DType::F32, {64, 640})});
    b.output(b.op("Relu", {b.op("Add", {mm, b.input("r", DType::F32, {rows, 640})})}));
    return optimizedCode(b.finish());
  };
  const GeneratedPlan big = generate(2048), small = generate(64);
  REQUIRE(big.vendorAlternatives.size() == 1);
  REQUIRE(small.vendorAlternatives.size() == 1);
  CHECK(big.vendorAlternatives[0].epilogue.grid[0] == 1280);
  CHECK(countOccurrences(big.source, "tcx::runEpilogue<4, 4>(epilogue, ") == 1);
  CHECK(small.vendorAlternatives[0].epilogue.grid[0] == 160);
  CHECK(countOccurrences(small.source, "tcx::runEpilogue<1, 1>(epilogue, ") == 1);
}

TEST_CASE("a GEMM whose operand no BLAS layout reads offers no alternative", "[codegen][vendor]") {
  // B is every other column of w: both of its strides (64, 2) are non-unit.
  GraphBuilder b("strided");
  Value* x = b.input("x", DType::F32, {8, 16});
  Value* w = b.input("w", DType::F32, {16, 64});
  Value* cols = b.op("Slice", {w, b.ints("starts", {0}), b.ints("ends", {64}), b.ints("axes", {1}),
                               b.ints("steps", {2})});
  b.output(b.op("MatMul", {x, cols}));
  const GeneratedPlan code = optimizedCode(b.finish());
  // The GEMM reads the slice in place (one launch, no copy), and offers nothing.
  REQUIRE(code.launches.size() == 1);
  CHECK(code.vendorAlternatives.empty());
  CHECK(!blasOperand(16, 32, 64, 2));
}

TEST_CASE("a 1x1 convolution is also a GEMM over its input's pixels", "[codegen][vendor]") {
  // ResNeXt-50's 1x1 64->256 at 32 images of 56x56, x channels-last and the
  // result too: one GEMM over every image's pixels, x as stored and W^T.
  VendorConv c{.batch = 32, .cin = 64, .h = 56, .w = 56, .cout = 256, .kh = 1, .kw = 1, .oh = 56, .ow = 56,
               .x = {3, 0}, .weight = {4, 0}};
  c.xStrides = {56 * 56 * 64, 1, 56 * 64, 64};
  c.channelsLastResult = true;
  std::optional<VendorGemm> g = convolutionAsGemm(c);
  REQUIRE(g);
  CHECK((g->batch == 1 && g->m == 32 * 56 * 56 && g->n == 256 && g->k == 64 && g->tf32));
  CHECK((g->a == BufferBinding{3, 0} && g->b == BufferBinding{4, 0}));
  CHECK(g->aStrides == std::array<int64_t, 3>{0, 64, 1});
  CHECK(g->bStrides == std::array<int64_t, 3>{0, 1, 64});
  CHECK(describeVendorCall(*g) == "cuBLAS gemm 100352x256x64 (batch 1, float, tf32)");
  VendorGemm fp32 = *g;
  fp32.tf32 = false;
  CHECK(vendorCallKey(*g) != vendorCallKey(fp32));

  // DenseNet's: the first 128 channels of a 256-channel concatenation, read
  // in place. The pixels still run on across images, 256 apart.
  VendorConv slice = c;
  slice.cin = 128;
  slice.xStrides = {56 * 56 * 256, 1, 56 * 256, 256};
  g = convolutionAsGemm(slice);
  REQUIRE(g);
  CHECK((g->batch == 1 && g->aStrides == std::array<int64_t, 3>{0, 256, 1}));

  // Images further apart than their pixels run: a batch of GEMMs.
  VendorConv apart = c;
  apart.xStrides[0] += 64;
  g = convolutionAsGemm(apart);
  REQUIRE(g);
  CHECK((g->batch == 32 && g->m == 56 * 56 && g->aStrides == std::array<int64_t, 3>{56 * 56 * 64 + 64, 64, 1}));

  // NCHW in and out: each image's W (cout x cin) times its cin x pixels.
  VendorConv nchw{.batch = 2, .cin = 8, .h = 5, .w = 7, .cout = 3, .kh = 1, .kw = 1, .oh = 5, .ow = 7,
                  .x = {3, 0}, .weight = {4, 0}};
  nchw.xStrides = {8 * 35, 35, 7, 1};
  g = convolutionAsGemm(nchw);
  REQUIRE(g);
  CHECK((g->batch == 2 && g->m == 3 && g->n == 35 && g->k == 8));
  CHECK((g->a == BufferBinding{4, 0} && g->b == BufferBinding{3, 0}));
  CHECK(g->aStrides == std::array<int64_t, 3>{0, 8, 1});
  CHECK(g->bStrides == std::array<int64_t, 3>{8 * 35, 35, 1});

  // Not one GEMM: rows that do not run on from their columns (a column
  // slice), a 3x3 window, a stride, groups.
  VendorConv columns = nchw;
  columns.xStrides = {8 * 5 * 9, 5 * 9, 9, 1};
  CHECK(!convolutionAsGemm(columns));
  VendorConv window = nchw, strided = nchw, grouped = nchw;
  window.kh = window.kw = 3;
  window.padH = window.padW = 1;
  strided.strideH = strided.strideW = 2;
  strided.oh = 3;
  strided.ow = 4;
  grouped.groups = 2;
  CHECK(!convolutionAsGemm(window));
  CHECK(!convolutionAsGemm(strided));
  CHECK(!convolutionAsGemm(grouped));
}

TEST_CASE("a 1x1 convolution's GEMM computes the convolution, for each layout in and out", "[codegen][vendor]") {
  // Three images of 4x6 pixels, 5 of x's 9 channels from channel 2, into 7
  // channels; x stored channels-last or NCHW, images packed or further apart.
  constexpr int kChannels = 9, kImage = 9 * 4 * 6;
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<std::vector<float>> buffers(2);
  buffers[0].resize(3 * (kImage + 16));
  buffers[1].resize(7 * 5);
  for (std::vector<float>& buffer : buffers)
    for (float& v : buffer) v = dist(gen);
  struct Layout {
    const char* name;
    std::array<int64_t, 4> strides;
    int64_t firstChannel;
  };
  for (const Layout& x : {Layout{"channels-last", {kImage, 1, 6 * kChannels, kChannels}, 2},
                          Layout{"channels-last, images apart", {kImage + 16, 1, 6 * kChannels, kChannels}, 2},
                          Layout{"NCHW", {kImage, 24, 6, 1}, 2 * 24}}) {
    for (bool channelsLastResult : {true, false}) {
      DYNAMIC_SECTION(x.name << (channelsLastResult ? ", channels-last result" : ", NCHW result")) {
        VendorConv c{.batch = 3, .cin = 5, .h = 4, .w = 6, .cout = 7, .kh = 1, .kw = 1, .oh = 4, .ow = 6,
                     .x = {0, x.firstChannel * 4}, .weight = {1, 0}};
        c.xStrides = x.strides;
        c.channelsLastResult = channelsLastResult;
        const std::optional<VendorGemm> g = convolutionAsGemm(c);
        REQUIRE(g);
        const std::vector<double> byGemm = evaluate(*g, buffers), byDefinition = convolve(c, buffers);
        REQUIRE(byGemm.size() == byDefinition.size());
        for (size_t i = 0; i < byGemm.size(); ++i) REQUIRE(byGemm[i] == Approx(byDefinition[i]).margin(1e-9));
      }
    }
  }
}
