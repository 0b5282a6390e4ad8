#pragma once
// Element indices of the Gather and Scatter ops: reading them without
// conversion, wrapping negative ones, checking the range before any access,
// and the two ways the ops pair index elements with data elements.

#include "ir/Tensor.h"
#include "ops/StridedLoop.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace tcx {

// Raises InvalidModel unless `indices` is i32 or i64, the index types ONNX
// allows.
void checkIndexType(const TensorType& indices);

// Calls f with the values of an index operand as a span of its own type, so
// that hot loops read indices without conversion.
template <typename F> decltype(auto) withIndices(const Tensor& indices, F&& f) {
  checkIndexType(indices.type());
  if (indices.dtype() == DType::I32) return f(indices.data<int32_t>());
  return f(indices.data<int64_t>());
}

[[noreturn]] void raiseIndexOutOfRange(int64_t index, int64_t size);

// An index into an axis of `size` elements, in [-size, size): negative
// indices count from the end.
inline int64_t wrapIndex(int64_t index, int64_t size) {
  const int64_t wrapped = index < 0 ? index + size : index;
  if (wrapped < 0 || wrapped >= size) [[unlikely]]
    raiseIndexOutOfRange(index, size);
  return wrapped;
}

// GatherElements and ScatterElements: element i of `indices` (same rank as
// data) pairs with the data element at i with its `axis` coordinate
// replaced by the index value.
class AxisAddressing {
public:
  // Raises ShapeInference unless indices fit in data outside `axis`.
  AxisAddressing(const Shape& data, const Shape& indices, int64_t axis);

  // Calls f(dataOffset, indexOffset) for every element of `indices`.
  template <typename I, typename F> void forEach(std::span<const I> indices, F&& f) const {
    stridedLoop<2>(indicesShape_, {dataStrides_.data(), indexStrides_.data()},
                   [&](const std::array<int64_t, 2>& o) {
                     f(o[0] + wrapIndex(indices[o[1]], axisSize_) * axisStride_, o[1]);
                   });
  }

private:
  Shape indicesShape_;
  std::vector<int64_t> dataStrides_; // 0 along the axis, which the index supplies
  std::vector<int64_t> indexStrides_;
  int64_t axisSize_;
  int64_t axisStride_;
};

// GatherND and ScatterND: data is [batch..., indexed..., block...] and
// indices [batch..., tuple..., k]. Each index tuple (k values for the k
// indexed dimensions) selects one block of data within its batch; tuple t,
// counted row-major over all batches, has its gathered block, or its block
// of updates, at element t * blockSize.
class TupleAddressing {
public:
  // Raises ShapeInference on inconsistent shapes.
  TupleAddressing(const Shape& data, const Shape& indices, int64_t batchDims);

  // indices.shape[:-1] + data.shape[batchDims + k:]: GatherND's output and
  // ScatterND's updates.
  const Shape& blocksShape() const { return blocksShape_; }
  int64_t numTuples() const { return numTuples_; }
  int64_t blockSize() const { return blockSize_; }

  // The data offset of the block that tuple t selects.
  template <typename I> int64_t dataOffset(std::span<const I> indices, int64_t t) const {
    const I* tuple = indices.data() + t * static_cast<int64_t>(dims_.size());
    int64_t offset = t / tuplesPerBatch_ * batchElements_;
    for (size_t j = 0; j < dims_.size(); ++j) offset += wrapIndex(tuple[j], dims_[j]) * strides_[j];
    return offset;
  }

private:
  Shape blocksShape_;
  int64_t numTuples_;
  int64_t tuplesPerBatch_;
  int64_t batchElements_;
  int64_t blockSize_;
  std::vector<int64_t> dims_; // the indexed dimensions of data
  std::vector<int64_t> strides_;
};

} // namespace tcx
