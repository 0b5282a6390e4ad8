// The broadcasting loop against a direct evaluation of the numpy rule, over
// shapes that exercise its fast path, merged dimensions and broadcast rows.

#include "Helpers.h"

#include <numeric>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor iota(const Shape& shape, double start) {
  std::vector<double> values(numElements(shape));
  std::iota(values.begin(), values.end(), start);
  return tensor(DType::F64, shape, values);
}

// The element of `in` that output index `index` reads under broadcasting.
double broadcastElement(const Tensor& in, const std::vector<int64_t>& index) {
  int64_t offset = 0;
  const size_t skip = index.size() - in.shape().size();
  for (size_t d = 0; d < in.shape().size(); ++d)
    offset = offset * in.shape()[d] + (in.shape()[d] == 1 ? 0 : index[skip + d]);
  return in.elementAsDouble(offset);
}

std::vector<int64_t> unravel(int64_t flat, const Shape& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

} // namespace

TEST_CASE("broadcasting binary ops match the numpy rule", "[elementwise][broadcast]") {
  const std::vector<std::pair<Shape, Shape>> cases = {{{2, 3, 4}, {2, 3, 4}},
                                                      {{2, 3, 4}, {4}},
                                                      {{2, 3, 4}, {3, 1}},
                                                      {{1, 3, 1}, {2, 1, 4}},
                                                      {{5, 1, 2}, {5, 4, 1}},
                                                      {{}, {3}},
                                                      {{3}, {}},
                                                      {{1}, {1, 1}},
                                                      {{0, 3}, {3}},
                                                      {{2, 1, 3, 1}, {4, 1, 1}},
                                                      {{4, 1, 1}, {1, 2, 3}},
                                                      {{2, 2, 1, 3}, {2, 1, 2, 3}}};
  for (const auto& [shapeA, shapeB] : cases) {
    INFO(shapeToString(shapeA) << " + " << shapeToString(shapeB));
    Tensor a = iota(shapeA, 1), b = iota(shapeB, 1000);
    Tensor diff = runOp1("Sub", {a, b});
    REQUIRE(diff.shape() == broadcastShapes(shapeA, shapeB));
    for (int64_t i = 0; i < diff.numElements(); ++i) {
      std::vector<int64_t> index = unravel(i, diff.shape());
      REQUIRE(diff.elementAsDouble(i) == broadcastElement(a, index) - broadcastElement(b, index));
    }
  }
}

TEST_CASE("Where broadcasts three ways", "[elementwise][broadcast]") {
  Tensor condition = tensor(DType::Bool, {2, 1, 3}, {1, 0, 1, 0, 1, 0});
  Tensor x = iota({4, 1}, 1), y = iota({3}, 100);
  Tensor out = runOp1("Where", {condition, x, y});
  REQUIRE(out.shape() == Shape{2, 4, 3});
  for (int64_t i = 0; i < out.numElements(); ++i) {
    std::vector<int64_t> index = unravel(i, out.shape());
    double expected = broadcastElement(condition, index) != 0 ? broadcastElement(x, index) : broadcastElement(y, index);
    REQUIRE(out.elementAsDouble(i) == expected);
  }
}
