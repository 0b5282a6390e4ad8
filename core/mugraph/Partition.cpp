#include "mugraph/Partition.h"

#include "support/Error.h"

#include <fmt/ranges.h>

namespace tcx::mugraph {

Shape splitShape(const Shape& shape, const Shape& dims, const DimMap& map, bool allowReplica, const char* what) {
  TCX_CHECK(map.size() == dims.size(), ErrorKind::ShapeInference, "{}: {} entries for {} dimensions", what, map.size(),
            dims.size());
  Shape chunk = shape;
  for (size_t i = 0; i < map.size(); ++i) {
    int d = map[i];
    if (d == kReplica) {
      TCX_CHECK(allowReplica, ErrorKind::ShapeInference, "{}: dimension {} maps to φ, but only data dims are allowed",
                what, i);
      continue;
    }
    TCX_CHECK(d >= 0 && static_cast<size_t>(d) < shape.size(), ErrorKind::ShapeInference,
              "{}: dimension {} maps to data dim {} of a rank-{} tensor", what, i, d, shape.size());
    TCX_CHECK(dims[i] > 0 && chunk[d] % dims[i] == 0, ErrorKind::ShapeInference,
              "{}: data dim {} (size {} of {}) does not split evenly into {} parts", what, d, chunk[d],
              fmt::join(shape, "x"), dims[i]);
    chunk[d] /= dims[i];
  }
  return chunk;
}

Shape joinShape(const Shape& chunk, const Shape& dims, const DimMap& map) {
  Shape shape = chunk;
  for (size_t i = 0; i < map.size(); ++i)
    if (map[i] != kReplica) shape[map[i]] *= dims[i];
  return shape;
}

Shape chunkOffset(const Shape& chunk, const Shape& dims, const DimMap& map, const Shape& index) {
  Shape chunkIndex(chunk.size(), 0);
  for (size_t i = 0; i < map.size(); ++i)
    if (map[i] != kReplica) chunkIndex[map[i]] = chunkIndex[map[i]] * dims[i] + index[i];
  for (size_t d = 0; d < chunk.size(); ++d) chunkIndex[d] *= chunk[d];
  return chunkIndex;
}

} // namespace tcx::mugraph
