#include "MovementTest.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

// The textbook definition, one index vector per element: out[i] = in[i
// permuted back].
template <typename T> Tensor referenceTranspose(const Tensor& in, const std::vector<int64_t>& perm) {
  Shape outShape;
  for (int64_t p : perm) outShape.push_back(in.shape()[p]);
  Tensor out(in.dtype(), outShape);
  std::vector<int64_t> inStrides = contiguousStrides(in.shape());
  std::vector<int64_t> index(perm.size(), 0);
  for (int64_t i = 0; i < out.numElements(); ++i) {
    int64_t offset = 0;
    for (size_t d = 0; d < perm.size(); ++d) offset += index[d] * inStrides[perm[d]];
    out.data<T>()[i] = in.data<T>()[offset];
    for (size_t d = perm.size(); d-- > 0;) {
      if (++index[d] < outShape[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

} // namespace

TEST_CASE("Transpose reverses the dimensions by default", "[movement][transpose]") {
  Tensor x = iota<float>({2, 3});
  REQUIRE_SAME(runOp1("Transpose", {x}), Tensor::fromVector<float>({3, 2}, {0, 3, 1, 4, 2, 5}));
  REQUIRE_SAME(runOp1("Transpose", {Tensor::scalar<float>(4)}), Tensor::scalar<float>(4));
}

TEST_CASE("Transpose follows perm", "[movement][transpose]") {
  Tensor x = iota<int64_t>({2, 3, 4});
  // out[i][j][k] = x[k][i][j] = 12k + 4i + j.
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t k = 0; k < 2; ++k) expected.push_back(12 * k + 4 * i + j);
  REQUIRE_SAME(runOp1("Transpose", {x}, attrs({{"perm", std::vector<int64_t>{1, 2, 0}}})),
               Tensor::fromVector<int64_t>({3, 4, 2}, expected));
  REQUIRE_SAME(runOp1("Transpose", {x}, attrs({{"perm", std::vector<int64_t>{0, 1, 2}}})), x);
}

TEST_CASE("Transpose moves 1-, 2- and 8-byte elements of every kind", "[movement][transpose]") {
  Tensor b = Tensor::fromVector<bool>({2, 2}, {true, false, true, true});
  REQUIRE_SAME(runOp1("Transpose", {b}), Tensor::fromVector<bool>({2, 2}, {true, true, false, true}));
  Tensor h = halves({1, 3}, {1.5f, -2.0f, 0.25f});
  REQUIRE_SAME(runOp1("Transpose", {h}), halves({3, 1}, {1.5f, -2.0f, 0.25f}));
  Tensor d = Tensor::fromVector<double>({2, 1, 2}, {1e300, -1, 3, 4});
  REQUIRE_SAME(runOp1("Transpose", {d}, attrs({{"perm", std::vector<int64_t>{2, 0, 1}}})),
               Tensor::fromVector<double>({2, 2, 1}, {1e300, 3, -1, 4}));
}

TEST_CASE("Transpose of large, uneven shapes matches the definition", "[movement][transpose]") {
  // Sizes that are not multiples of the copy tile exercise its edges.
  Tensor x = iota<Half>({67, 129});
  REQUIRE_SAME(runOp1("Transpose", {x}), referenceTranspose<Half>(x, {1, 0}));
  Tensor y = iota<int32_t>({5, 33, 70});
  for (const std::vector<int64_t>& perm :
       std::vector<std::vector<int64_t>>{{2, 0, 1}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}, {1, 2, 0}}) {
    INFO(shapeToString(perm));
    REQUIRE_SAME(runOp1("Transpose", {y}, attrs({{"perm", perm}})), referenceTranspose<int32_t>(y, perm));
  }
  Tensor empty = iota<float>({3, 0, 2});
  REQUIRE_SAME(runOp1("Transpose", {empty}), iota<float>({2, 0, 3}));
}

TEST_CASE("Transpose rejects a bad perm", "[movement][transpose]") {
  Tensor x = iota<float>({2, 3});
  for (const std::vector<int64_t>& perm : std::vector<std::vector<int64_t>>{{0, 0}, {0}, {0, 1, 2}, {-1, 0}}) {
    INFO(shapeToString(perm));
    CHECK(thrownKind([&] { runOp1("Transpose", {x}, attrs({{"perm", perm}})); }) == ErrorKind::ShapeInference);
  }
}

namespace {

// The input of the ONNX DepthToSpace examples: x[c][h][w] = 9c + 3h + w.
Tensor depthToSpaceInput() {
  std::vector<float> values;
  for (int c = 0; c < 8; ++c)
    for (int h = 0; h < 2; ++h)
      for (int w = 0; w < 3; ++w) values.push_back(static_cast<float>(9 * c + 3 * h + w));
  return Tensor::fromVector<float>({1, 8, 2, 3}, values);
}

} // namespace

TEST_CASE("DepthToSpace in DCR and CRD mode", "[movement][depthtospace]") {
  Tensor x = depthToSpaceInput();
  Tensor dcr = Tensor::fromVector<float>({1, 2, 4, 6}, {0,  18, 1,  19, 2,  20, 36, 54, 37, 55, 38, 56,
                                                        3,  21, 4,  22, 5,  23, 39, 57, 40, 58, 41, 59,
                                                        9,  27, 10, 28, 11, 29, 45, 63, 46, 64, 47, 65,
                                                        12, 30, 13, 31, 14, 32, 48, 66, 49, 67, 50, 68});
  REQUIRE_SAME(runOp1("DepthToSpace", {x}, attrs({{"blocksize", 2}})), dcr);
  REQUIRE_SAME(runOp1("DepthToSpace", {x}, attrs({{"blocksize", 2}, {"mode", "DCR"}})), dcr);
  Tensor crd = Tensor::fromVector<float>({1, 2, 4, 6}, {0,  9,  1,  10, 2,  11, 18, 27, 19, 28, 20, 29,
                                                        3,  12, 4,  13, 5,  14, 21, 30, 22, 31, 23, 32,
                                                        36, 45, 37, 46, 38, 47, 54, 63, 55, 64, 56, 65,
                                                        39, 48, 40, 49, 41, 50, 57, 66, 58, 67, 59, 68});
  REQUIRE_SAME(runOp1("DepthToSpace", {x}, attrs({{"blocksize", 2}, {"mode", "CRD"}})), crd);
}

TEST_CASE("SpaceToDepth gathers blocks into channels and undoes DepthToSpace", "[movement][spacetodepth]") {
  // out channel (y*2 + x)*2 + c at (h', w') is x[c][2h' + y][2w' + x] = 8c + 4y + 2w' + x.
  Tensor x = iota<float>({1, 2, 2, 4});
  REQUIRE_SAME(runOp1("SpaceToDepth", {x}, attrs({{"blocksize", 2}})),
               Tensor::fromVector<float>({1, 8, 1, 2}, {0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15}));
  Tensor image = iota<BFloat16>({2, 12, 3, 5});
  Tensor space = runOp1("DepthToSpace", {image}, attrs({{"blocksize", 2}}));
  REQUIRE(space.shape() == Shape{2, 3, 6, 10});
  REQUIRE_SAME(runOp1("SpaceToDepth", {space}, attrs({{"blocksize", 2}})), image);
}

TEST_CASE("DepthToSpace and SpaceToDepth reject bad shapes and attributes", "[movement][depthtospace]") {
  auto d2s = [](const Tensor& x, AttrMap a) { return [=] { runOp1("DepthToSpace", {x}, a); }; };
  auto s2d = [](const Tensor& x, AttrMap a) { return [=] { runOp1("SpaceToDepth", {x}, a); }; };
  CHECK(thrownKind(d2s(iota<float>({8, 2, 3}), attrs({{"blocksize", 2}}))) == ErrorKind::ShapeInference);
  CHECK(thrownKind(d2s(iota<float>({1, 6, 2, 3}), attrs({{"blocksize", 2}}))) == ErrorKind::ShapeInference);
  CHECK(thrownKind(d2s(iota<float>({1, 8, 2, 3}), attrs({{"blocksize", 0}}))) == ErrorKind::InvalidModel);
  CHECK(thrownKind(d2s(iota<float>({1, 8, 2, 3}), attrs({{"blocksize", 2}, {"mode", "XYZ"}}))) ==
        ErrorKind::InvalidModel);
  CHECK(thrownKind(d2s(iota<float>({1, 8, 2, 3}), {})) == ErrorKind::InvalidModel);
  CHECK(thrownKind(s2d(iota<float>({1, 1, 3, 4}), attrs({{"blocksize", 2}}))) == ErrorKind::ShapeInference);
}
