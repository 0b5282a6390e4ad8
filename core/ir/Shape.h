#pragma once
// Static tensor shapes and the index arithmetic on them.

#include <cstdint>
#include <string>
#include <vector>

namespace tcx {

using Shape = std::vector<int64_t>;

int64_t numElements(const Shape& shape);
// Row-major strides in elements: the stride vector S of VTC section 2.1.
std::vector<int64_t> contiguousStrides(const Shape& shape);
std::string shapeToString(const Shape& shape); // "[16,4096]"
// Maps an ONNX axis in [-rank, rank) to [0, rank); throws ShapeInference otherwise.
int64_t normalizeAxis(int64_t axis, int64_t rank);
// Numpy-style (ONNX multidirectional) broadcast of two shapes; throws if incompatible.
Shape broadcastShapes(const Shape& a, const Shape& b);

} // namespace tcx
