#include "Helpers.h"
#include "support/RunOp.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

struct Spatial {
  std::vector<int64_t> strides, dilations, padsBegin;
};

// Direct convolution with the loops written out, for up to three spatial
// dimensions (missing leading ones are 1). `outShape` is the expected shape.
Tensor naiveConv(const Tensor& x, const Tensor& w, const Tensor* b, int64_t group, const Spatial& s,
                 const Shape& outShape) {
  const size_t rank = x.shape().size() - 2;
  auto dim3 = [&](const Shape& shape, size_t i) { return i + rank >= 3 ? shape[2 + i + rank - 3] : 1; };
  auto attr3 = [&](const std::vector<int64_t>& v, size_t i, int64_t fill) {
    return i + rank >= 3 ? v[i + rank - 3] : fill;
  };
  const int64_t N = x.shape()[0], C = x.shape()[1], M = w.shape()[0], Cg = C / group, Mg = M / group;
  int64_t in[3], k[3], out[3], st[3], dl[3], pd[3];
  for (size_t i = 0; i < 3; ++i) {
    in[i] = dim3(x.shape(), i);
    k[i] = dim3(w.shape(), i);
    out[i] = dim3(outShape, i);
    st[i] = attr3(s.strides, i, 1);
    dl[i] = attr3(s.dilations, i, 1);
    pd[i] = attr3(s.padsBegin, i, 0);
  }
  Tensor y(DType::F32, outShape);
  std::span<const float> xd = x.data<float>(), wd = w.data<float>();
  std::span<float> yd = y.data<float>();
  int64_t o = 0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t od = 0; od < out[0]; ++od)
        for (int64_t oh = 0; oh < out[1]; ++oh)
          for (int64_t ow = 0; ow < out[2]; ++ow) {
            double sum = b ? b->data<float>()[m] : 0.0;
            const int64_t g = m / Mg;
            for (int64_t c = 0; c < Cg; ++c)
              for (int64_t kd = 0; kd < k[0]; ++kd)
                for (int64_t kh = 0; kh < k[1]; ++kh)
                  for (int64_t kw = 0; kw < k[2]; ++kw) {
                    const int64_t id = od * st[0] - pd[0] + kd * dl[0];
                    const int64_t ih = oh * st[1] - pd[1] + kh * dl[1];
                    const int64_t iw = ow * st[2] - pd[2] + kw * dl[2];
                    if (id < 0 || id >= in[0] || ih < 0 || ih >= in[1] || iw < 0 || iw >= in[2]) continue;
                    const int64_t xi = (((n * C + g * Cg + c) * in[0] + id) * in[1] + ih) * in[2] + iw;
                    const int64_t wi = (((m * Cg + c) * k[0] + kd) * k[1] + kh) * k[2] + kw;
                    sum += static_cast<double>(xd[xi]) * wd[wi];
                  }
            yd[o++] = static_cast<float>(sum);
          }
  return y;
}

} // namespace

TEST_CASE("Conv 2-D hand-computed", "[Conv]") {
  // A 3x3 image, a 2x2 kernel of ones: each output is the sum of a window.
  Tensor x = Tensor::fromVector<float>({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor w = Tensor::fromVector<float>({1, 1, 2, 2}, {1, 1, 1, 1});
  REQUIRE_CLOSE(runOp1("Conv", {x, w}), Tensor::fromVector<float>({1, 1, 2, 2}, {12, 16, 24, 28}), 1e-6, 0);
  Tensor b = Tensor::fromVector<float>({1}, {0.5f});
  REQUIRE_CLOSE(runOp1("Conv", {x, w, b}, attrs({{"pads", std::vector<int64_t>{1, 1, 0, 0}}})),
                Tensor::fromVector<float>({1, 1, 3, 3}, {1.5, 3.5, 5.5, 5.5, 12.5, 16.5, 11.5, 24.5, 28.5}), 1e-6, 0);
}

TEST_CASE("Conv matches a direct loop", "[Conv]") {
  struct Case {
    const char* name;
    Shape x, w;
    int64_t group;
    Spatial s;
    Shape out;
  };
  const Case cases[] = {
      {"1-D", {2, 3, 10}, {4, 3, 3}, 1, {{1}, {1}, {0}}, {2, 4, 8}},
      {"1-D strided dilated padded", {1, 2, 11}, {3, 2, 3}, 1, {{2}, {2}, {2}}, {1, 3, 6}},
      {"2-D", {2, 3, 7, 6}, {5, 3, 3, 3}, 1, {{1, 1}, {1, 1}, {0, 0}}, {2, 5, 5, 4}},
      {"2-D groups", {1, 4, 6, 6}, {6, 2, 3, 3}, 2, {{1, 1}, {1, 1}, {1, 1}}, {1, 6, 6, 6}},
      {"2-D depthwise", {2, 3, 5, 5}, {3, 1, 3, 3}, 3, {{1, 1}, {1, 1}, {1, 1}}, {2, 3, 5, 5}},
      {"2-D stride 2 dilation 2", {1, 2, 9, 8}, {3, 2, 2, 3}, 1, {{2, 2}, {2, 2}, {1, 2}}, {1, 3, 5, 4}},
      {"2-D 1x1", {2, 8, 4, 5}, {7, 8, 1, 1}, 1, {{1, 1}, {1, 1}, {0, 0}}, {2, 7, 4, 5}},
      {"2-D wide (many column tiles)", {1, 3, 5, 40}, {20, 3, 3, 3}, 1, {{1, 1}, {1, 1}, {1, 1}}, {1, 20, 5, 40}},
      {"3-D", {1, 2, 4, 5, 6}, {3, 2, 2, 3, 2}, 1, {{1, 2, 1}, {1, 1, 2}, {1, 0, 1}}, {1, 3, 5, 2, 6}},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      const size_t rank = c.x.size() - 2;
      // Explicit pads are symmetric here; asymmetric ones are covered by auto_pad below.
      std::vector<int64_t> pads = c.s.padsBegin;
      pads.insert(pads.end(), c.s.padsBegin.begin(), c.s.padsBegin.end());
      REQUIRE(pads.size() == 2 * rank);
      Tensor x = pattern(c.x, 1), w = pattern(c.w, 2), b = pattern({c.w[0]}, 3);
      AttrMap a = attrs({{"group", c.group}, {"strides", c.s.strides}, {"dilations", c.s.dilations}, {"pads", pads}});
      REQUIRE_CLOSE(runOp1("Conv", {x, w, b}, a), naiveConv(x, w, &b, c.group, c.s, c.out), 1e-5, 1e-5);
      REQUIRE_CLOSE(runOp1("Conv", {x, w}, a), naiveConv(x, w, nullptr, c.group, c.s, c.out), 1e-5, 1e-5);
    }
  }
}

TEST_CASE("Conv auto_pad", "[Conv]") {
  Tensor x = pattern({1, 2, 7, 6}, 4), w = pattern({3, 2, 3, 2}, 5);
  // Input 7x6, stride 2: output ceil(7/2) x ceil(6/2) = 4x3. Total padding is
  // 3*2+3-7 = 2 on H and 2*2+2-6 = 0 on W.
  Spatial same{{2, 2}, {1, 1}, {1, 0}};
  REQUIRE_CLOSE(runOp1("Conv", {x, w}, attrs({{"auto_pad", "SAME_UPPER"}, {"strides", std::vector<int64_t>{2, 2}}})),
                naiveConv(x, w, nullptr, 1, same, {1, 3, 4, 3}), 1e-5, 1e-5);
  // Odd total padding (stride 1, kernel 2 on W: 1): SAME_UPPER puts it at the end, SAME_LOWER at the start.
  Spatial upper{{1, 1}, {1, 1}, {1, 0}}, lower{{1, 1}, {1, 1}, {1, 1}};
  REQUIRE_CLOSE(runOp1("Conv", {x, w}, attrs({{"auto_pad", "SAME_UPPER"}})),
                naiveConv(x, w, nullptr, 1, upper, {1, 3, 7, 6}), 1e-5, 1e-5);
  REQUIRE_CLOSE(runOp1("Conv", {x, w}, attrs({{"auto_pad", "SAME_LOWER"}})),
                naiveConv(x, w, nullptr, 1, lower, {1, 3, 7, 6}), 1e-5, 1e-5);
  Spatial valid{{1, 2}, {1, 1}, {0, 0}};
  REQUIRE_CLOSE(runOp1("Conv", {x, w}, attrs({{"auto_pad", "VALID"}, {"strides", std::vector<int64_t>{1, 2}}})),
                naiveConv(x, w, nullptr, 1, valid, {1, 3, 5, 3}), 1e-5, 1e-5);
}

TEST_CASE("Conv dtypes", "[Conv]") {
  Tensor x = pattern({1, 3, 6, 6}, 6), w = pattern({4, 3, 3, 3}, 7);
  Tensor expected = naiveConv(x, w, nullptr, 1, {{1, 1}, {1, 1}, {0, 0}}, {1, 4, 4, 4});
  for (DType t : {DType::F16, DType::BF16, DType::F64}) {
    // The patterns are multiples of 1/4 with small sums: exact in every type.
    Tensor y = runOp1("Conv", {castTo(x, t), castTo(w, t)});
    REQUIRE(y.dtype() == t);
    for (int64_t i = 0; i < y.numElements(); ++i) REQUIRE(y.elementAsDouble(i) == expected.elementAsDouble(i));
  }
}

TEST_CASE("Conv rejects bad shapes", "[Conv]") {
  Tensor x = pattern({1, 3, 5, 5}, 1);
  // 3 channels cannot be split into 2 groups.
  CHECK(errorKindOf([&] {
          runOp1("Conv", {x, pattern({2, 1, 3, 3}, 2)}, attrs({{"group", 2}}));
        }) == ErrorKind::ShapeInference);
  // W expects 2 input channels.
  CHECK(errorKindOf([&] { runOp1("Conv", {x, pattern({2, 2, 3, 3}, 2)}); }) == ErrorKind::ShapeInference);
  // A kernel larger than the input.
  CHECK(errorKindOf([&] { runOp1("Conv", {x, pattern({2, 3, 6, 6}, 2)}); }) == ErrorKind::ShapeInference);
  // A wrong bias length.
  CHECK(errorKindOf([&] {
          runOp1("Conv", {x, pattern({2, 3, 3, 3}, 2), pattern({3}, 3)});
        }) == ErrorKind::ShapeInference);
  // kernel_shape contradicting W.
  CHECK(errorKindOf([&] {
          runOp1("Conv", {x, pattern({2, 3, 3, 3}, 2)}, attrs({{"kernel_shape", std::vector<int64_t>{2, 2}}}));
        }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([&] {
          runOp1("Conv", {x, pattern({2, 3, 3, 3}, 2)}, attrs({{"auto_pad", "SAME"}}));
        }) == ErrorKind::InvalidModel);
}
