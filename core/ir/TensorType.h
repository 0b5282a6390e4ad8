#pragma once
// The static type of a tensor value: element type and shape.

#include "ir/DType.h"
#include "ir/Shape.h"

#include <string>

namespace tcx {

struct TensorType {
  DType dtype = DType::F32;
  Shape shape;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t numElements() const { return tcx::numElements(shape); }
  size_t byteSize() const { return static_cast<size_t>(numElements()) * dtypeSize(dtype); }
  std::string toString() const; // "bf16[16,4096]"

  bool operator==(const TensorType&) const = default;
};

} // namespace tcx
