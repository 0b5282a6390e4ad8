#include "Helpers.h"
#include "support/RunOp.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

using Ints = std::vector<int64_t>;

// Transposed convolution with the loops written out for 2-D inputs: every
// input element scatters x * w into the output under each kernel tap.
Tensor naiveConvTranspose2d(const Tensor& x, const Tensor& w, int64_t group, Ints strides, Ints dilations,
                            Ints padsBegin, Shape outShape) {
  const int64_t N = x.shape()[0], C = x.shape()[1], H = x.shape()[2], W = x.shape()[3];
  const int64_t Mg = w.shape()[1], KH = w.shape()[2], KW = w.shape()[3], Cg = C / group;
  const int64_t M = outShape[1], OH = outShape[2], OW = outShape[3];
  std::vector<double> y(static_cast<size_t>(N * M * OH * OW), 0.0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t ih = 0; ih < H; ++ih)
        for (int64_t iw = 0; iw < W; ++iw)
          for (int64_t m = 0; m < Mg; ++m)
            for (int64_t kh = 0; kh < KH; ++kh)
              for (int64_t kw = 0; kw < KW; ++kw) {
                const int64_t oh = ih * strides[0] - padsBegin[0] + kh * dilations[0];
                const int64_t ow = iw * strides[1] - padsBegin[1] + kw * dilations[1];
                if (oh < 0 || oh >= OH || ow < 0 || ow >= OW) continue;
                const int64_t om = c / Cg * Mg + m;
                y[((n * M + om) * OH + oh) * OW + ow] += x.elementAsDouble(((n * C + c) * H + ih) * W + iw) *
                                                         w.elementAsDouble(((c * Mg + m) * KH + kh) * KW + kw);
              }
  Tensor out(DType::F32, std::move(outShape));
  for (size_t i = 0; i < y.size(); ++i) out.data<float>()[i] = static_cast<float>(y[i]);
  return out;
}

} // namespace

TEST_CASE("ConvTranspose hand-computed", "[ConvTranspose]") {
  // The example of the ONNX operator documentation.
  Tensor x = Tensor::fromVector<float>({1, 1, 3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  Tensor w(DType::F32, {1, 2, 3, 3});
  std::fill(w.data<float>().begin(), w.data<float>().end(), 1.0f);
  const std::vector<float> plane = {0,  1,  3, 3,  2,  3,  8,  15, 12, 7,  9,  21, 36,
                                    27, 15, 9, 20, 33, 24, 13, 6,  13, 21, 15, 8};
  std::vector<float> both = plane;
  both.insert(both.end(), plane.begin(), plane.end());
  REQUIRE_CLOSE(runOp1("ConvTranspose", {x, w}), Tensor::fromVector<float>({1, 2, 5, 5}, both), 0, 0);
  // The bias is added to every output element of its channel.
  for (size_t i = 0; i < both.size(); ++i) both[i] += i < plane.size() ? 1.0f : -1.0f;
  REQUIRE_CLOSE(runOp1("ConvTranspose", {x, w, Tensor::fromVector<float>({2}, {1, -1})}),
                Tensor::fromVector<float>({1, 2, 5, 5}, both), 0, 0);
}

TEST_CASE("ConvTranspose matches a direct loop", "[ConvTranspose]") {
  Tensor x = pattern({2, 4, 3, 4}, 1);
  SECTION("strides, pads and dilations") {
    Tensor w = pattern({4, 3, 3, 2}, 2);
    // H: 2*(3-1) + 2*(3-1)+1 - 1 - 0 = 8; W: 3*(4-1) + 1*(2-1)+1 - 0 - 2 = 9.
    AttrMap a = attrs({{"strides", Ints{2, 3}}, {"dilations", Ints{2, 1}}, {"pads", Ints{1, 0, 0, 2}}});
    REQUIRE_CLOSE(runOp1("ConvTranspose", {x, w}, a),
                  naiveConvTranspose2d(x, w, 1, {2, 3}, {2, 1}, {1, 0}, {2, 3, 8, 9}), 0, 0);
  }
  SECTION("groups and output_padding") {
    Tensor w = pattern({4, 2, 2, 3}, 3);
    AttrMap a = attrs({{"group", 2}, {"strides", Ints{2, 2}}, {"output_padding", Ints{1, 0}}});
    // H: 2*2 + 1 + 2 = 7; W: 2*3 + 0 + 3 = 9. Channels: 2 per group, 2 groups.
    REQUIRE_CLOSE(runOp1("ConvTranspose", {x, w}, a),
                  naiveConvTranspose2d(x, w, 2, {2, 2}, {1, 1}, {0, 0}, {2, 4, 7, 9}), 0, 0);
  }
  SECTION("output_shape and auto_pad") {
    Tensor w = pattern({4, 1, 3, 3}, 4);
    // Full size 2*2+3 = 7 and 2*3+3 = 9; asking for 6 and 8 pads one unit:
    // at the start by default, at the end with SAME_UPPER.
    AttrMap a = attrs({{"strides", Ints{2, 2}}, {"output_shape", Ints{6, 8}}});
    REQUIRE_CLOSE(runOp1("ConvTranspose", {x, w}, a),
                  naiveConvTranspose2d(x, w, 1, {2, 2}, {1, 1}, {1, 1}, {2, 1, 6, 8}), 0, 0);
    a.set("auto_pad", "SAME_UPPER");
    REQUIRE_CLOSE(runOp1("ConvTranspose", {x, w}, a),
                  naiveConvTranspose2d(x, w, 1, {2, 2}, {1, 1}, {0, 0}, {2, 1, 6, 8}), 0, 0);
    // SAME without output_shape: the input size times the stride.
    REQUIRE_CLOSE(runOp1("ConvTranspose", {x, w}, attrs({{"strides", Ints{2, 2}}, {"auto_pad", "SAME_LOWER"}})),
                  naiveConvTranspose2d(x, w, 1, {2, 2}, {1, 1}, {1, 1}, {2, 1, 6, 8}), 0, 0);
  }
}

TEST_CASE("ConvTranspose 1-D, 3-D and dtypes", "[ConvTranspose]") {
  // [1, 2, 3] with kernel [1, 1] at stride 2 interleaves: 1 1 2 2 3 3 (+ overlap none).
  Tensor x1 = Tensor::fromVector<float>({1, 1, 3}, {1, 2, 3}), w1 = Tensor::fromVector<float>({1, 1, 2}, {1, 10});
  REQUIRE_CLOSE(runOp1("ConvTranspose", {x1, w1}, attrs({{"strides", Ints{2}}})),
                Tensor::fromVector<float>({1, 1, 6}, {1, 10, 2, 20, 3, 30}), 0, 0);
  // A 3-D input of one element spreads the kernel, scaled.
  Tensor x3 = Tensor::fromVector<float>({1, 1, 1, 1, 1}, {2}), w3 = pattern({1, 1, 2, 2, 2}, 5);
  Tensor y3 = runOp1("ConvTranspose", {x3, w3});
  REQUIRE(y3.shape() == Shape{1, 1, 2, 2, 2});
  for (int64_t i = 0; i < 8; ++i) REQUIRE(y3.elementAsDouble(i) == 2 * w3.elementAsDouble(i));
  Tensor x = pattern({1, 2, 3, 3}, 6), w = pattern({2, 2, 2, 2}, 7);
  Tensor expected = runOp1("ConvTranspose", {x, w});
  for (DType t : {DType::F16, DType::BF16, DType::F64})
    REQUIRE_CLOSE(runOp1("ConvTranspose", {castTo(x, t), castTo(w, t)}), castTo(expected, t), 0, 0);
}

TEST_CASE("ConvTranspose rejects bad shapes", "[ConvTranspose]") {
  Tensor x = pattern({1, 3, 4, 4}, 1);
  CHECK(errorKindOf([&] { runOp1("ConvTranspose", {x, pattern({2, 1, 3, 3}, 2)}); }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([&] {
          runOp1("ConvTranspose", {x, pattern({3, 1, 3, 3}, 2)}, attrs({{"group", 2}}));
        }) == ErrorKind::ShapeInference);
  CHECK(errorKindOf([&] {
          runOp1("ConvTranspose", {x, pattern({3, 1, 3, 3}, 2), pattern({2}, 3)});
        }) == ErrorKind::ShapeInference);
}
