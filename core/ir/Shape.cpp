#include "ir/Shape.h"

#include "support/Error.h"

#include <fmt/ranges.h>

namespace tcx {

int64_t numElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::vector<int64_t> contiguousStrides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

std::string shapeToString(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ",")); }

int64_t normalizeAxis(int64_t axis, int64_t rank) {
  TCX_CHECK(axis >= -rank && axis < std::max<int64_t>(rank, 1), ErrorKind::ShapeInference,
            "axis {} is out of range for rank {}", axis, rank);
  return axis < 0 ? axis + rank : axis;
}

Shape broadcastShapes(const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    TCX_CHECK(da == db || da == 1 || db == 1, ErrorKind::ShapeInference,
              "shapes {} and {} cannot be broadcast", shapeToString(a), shapeToString(b));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

} // namespace tcx
