#include "ops/movement/Indexing.h"

#include "ops/movement/Operands.h"

#include <algorithm>

namespace tcx {

void checkIndexType(const TensorType& indices) {
  TCX_CHECK(indices.dtype == DType::I64 || indices.dtype == DType::I32, ErrorKind::InvalidModel,
            "indices must be i32 or i64, got {}", indices.toString());
}

void raiseIndexOutOfRange(int64_t index, int64_t size) {
  raise(ErrorKind::InvalidModel, "index {} is out of range for an axis of size {}", index, size);
}

AxisAddressing::AxisAddressing(const Shape& data, const Shape& indices, int64_t axis)
    : indicesShape_(indices), dataStrides_(contiguousStrides(data)), indexStrides_(contiguousStrides(indices)) {
  const int64_t rank = static_cast<int64_t>(data.size());
  axis = dimensionAxis(axis, rank);
  bool fits = indices.size() == data.size();
  for (int64_t d = 0; fits && d < rank; ++d) fits = d == axis || indices[d] <= data[d];
  TCX_CHECK(fits, ErrorKind::ShapeInference, "indices of shape {} do not fit data of shape {} outside axis {}",
            shapeToString(indices), shapeToString(data), axis);
  axisSize_ = data[axis];
  axisStride_ = dataStrides_[axis];
  dataStrides_[axis] = 0;
}

TupleAddressing::TupleAddressing(const Shape& data, const Shape& indices, int64_t batchDims) {
  const int64_t r = static_cast<int64_t>(data.size());
  const int64_t q = static_cast<int64_t>(indices.size());
  const int64_t b = batchDims;
  TCX_CHECK(b >= 0 && b < std::min(q, r), ErrorKind::ShapeInference,
            "batch_dims {} must be less than the ranks of data {} and indices {}", b, shapeToString(data),
            shapeToString(indices));
  TCX_CHECK(std::equal(data.begin(), data.begin() + b, indices.begin()), ErrorKind::ShapeInference,
            "data {} and indices {} differ in the first {} (batch) dimensions", shapeToString(data),
            shapeToString(indices), b);
  const int64_t k = indices.back();
  TCX_CHECK(k >= 1 && k <= r - b, ErrorKind::ShapeInference,
            "index tuples of {} values cannot address data of shape {} with {} batch dimensions", k,
            shapeToString(data), b);
  auto product = [](auto first, auto last) { return numElements(Shape(first, last)); };
  blocksShape_.assign(indices.begin(), indices.end() - 1);
  blocksShape_.insert(blocksShape_.end(), data.begin() + b + k, data.end());
  tuplesPerBatch_ = product(indices.begin() + b, indices.end() - 1);
  numTuples_ = product(data.begin(), data.begin() + b) * tuplesPerBatch_;
  batchElements_ = product(data.begin() + b, data.end());
  blockSize_ = product(data.begin() + b + k, data.end());
  std::vector<int64_t> dataStrides = contiguousStrides(data);
  dims_.assign(data.begin() + b, data.begin() + b + k);
  strides_.assign(dataStrides.begin() + b, dataStrides.begin() + b + k);
}

} // namespace tcx
