#pragma once
// The copy engine of the data-movement ops. Moving an element needs no
// arithmetic, so these routines copy elements as opaque words of the
// dtype's size: one instantiation serves every dtype of that size.

#include "ir/Tensor.h"

#include <cstdint>
#include <span>

namespace tcx {

// Runs f.template operator()<U>() with U the unsigned integer type of `size`
// bytes; data-movement kernels copy elements through U.
template <typename F> decltype(auto) dispatchElementSize(size_t size, F&& f) {
  switch (size) {
  case 1: return f.template operator()<uint8_t>();
  case 2: return f.template operator()<uint16_t>();
  case 4: return f.template operator()<uint32_t>();
  case 8: return f.template operator()<uint64_t>();
  }
  raise(ErrorKind::Internal, "no element type has {} bytes", size);
}

// An affine index map from an output to the elements of an input: the
// output element at row-major index (i_0, ..., i_n-1) of `shape` is input
// element `offset + sum_d i_d * strides[d]`. `shape` has the output's
// element count and row-major order but may split output dimensions (Tile
// splits each into repeat and source index), so that maps that are affine
// only per part of a dimension are still strided views. Strides may be 0
// (broadcast) or negative (reversed slices).
struct StridedView {
  Shape shape;
  std::vector<int64_t> strides;
  int64_t offset = 0;
};

// The identity map of a row-major input of `shape`.
StridedView contiguousView(const Shape& shape);

// output[i] = input[view(i)] for every element i of `output`.
void copyView(const StridedView& view, const Tensor& input, Tensor& output);

// Copies the elements of `shape` from `src` to `dst`, both addressed by
// element strides. Dimensions are merged where both sides are contiguous so
// that rows go through memcpy, and transposed rows are copied in tiles.
void copyStrided(const Shape& shape, std::byte* dst, std::span<const int64_t> dstStrides, const std::byte* src,
                 std::span<const int64_t> srcStrides, size_t elementSize);

// All bytes of `input` into `output` (same element count and dtype): the
// kernel of the ops that only relabel the shape.
void copyAllElements(const Tensor& input, Tensor& output);

} // namespace tcx
