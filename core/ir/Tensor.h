#pragma once
// A dense, row-major tensor with its data on the host. Copies are shallow
// (they share storage, like a numpy view of the whole array); clone() makes a
// deep copy. Constants in a Graph are Tensors that nobody mutates.

#include "ir/TensorType.h"
#include "support/Error.h"

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace tcx {

class Tensor {
public:
  Tensor() = default;
  // A tensor of `type` with zero-initialised storage.
  explicit Tensor(TensorType type);
  Tensor(DType dtype, Shape shape) : Tensor(TensorType{dtype, std::move(shape)}) {}

  template <typename T> static Tensor fromVector(Shape shape, const std::vector<T>& values);
  template <typename T> static Tensor scalar(T value) { return fromVector<T>({}, {value}); }
  // A tensor of `dtype` and `shape` with every element `value` (converted).
  static Tensor filled(DType dtype, Shape shape, double value);

  bool defined() const { return storage_ != nullptr; }
  const TensorType& type() const { return type_; }
  DType dtype() const { return type_.dtype; }
  const Shape& shape() const { return type_.shape; }
  int64_t rank() const { return type_.rank(); }
  int64_t numElements() const { return type_.numElements(); }
  size_t byteSize() const { return type_.byteSize(); }

  std::byte* raw() { return storage_.get(); }
  const std::byte* raw() const { return storage_.get(); }

  // Typed views; T must be the storage type of dtype() (checked).
  template <typename T> std::span<T> data() {
    checkStorage<T>();
    return {reinterpret_cast<T*>(raw()), static_cast<size_t>(numElements())};
  }
  template <typename T> std::span<const T> data() const {
    checkStorage<T>();
    return {reinterpret_cast<const T*>(raw()), static_cast<size_t>(numElements())};
  }

  // Element i converted to double / int64 (any dtype): for shape operands,
  // attributes-as-inputs and printing, not for hot loops.
  double elementAsDouble(int64_t i) const;
  int64_t elementAsInt64(int64_t i) const;
  // All elements as int64 (any integer or bool dtype): shape and axes operands.
  std::vector<int64_t> toInt64Vector() const;

  // The same storage viewed with another shape of the same element count.
  Tensor reshaped(Shape shape) const;
  Tensor clone() const;
  // Bitwise equality of type and contents.
  bool identicalTo(const Tensor& other) const;

private:
  template <typename T> void checkStorage() const {
    TCX_CHECK(dtypeOf<std::remove_const_t<T>>() == dtype(), ErrorKind::Internal,
              "tensor of {} accessed as {}", dtypeName(dtype()),
              dtypeName(dtypeOf<std::remove_const_t<T>>()));
  }

  TensorType type_;
  std::shared_ptr<std::byte[]> storage_;
};

template <typename T> Tensor Tensor::fromVector(Shape shape, const std::vector<T>& values) {
  Tensor t(dtypeOf<T>(), std::move(shape));
  TCX_CHECK(static_cast<int64_t>(values.size()) == t.numElements(), ErrorKind::Internal,
            "{} values for a tensor of shape {}", values.size(), shapeToString(t.shape()));
  std::span<T> out = t.data<T>();
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  return t;
}

} // namespace tcx
