#include "ir/Tensor.h"

#include "ir/Dispatch.h"

#include <cstring>

namespace tcx {

namespace {
// 64-byte aligned storage so that kernels can use wide vector loads.
std::shared_ptr<std::byte[]> allocate(size_t bytes) {
  size_t rounded = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
  auto* p = static_cast<std::byte*>(::operator new[](rounded, std::align_val_t(64)));
  std::memset(p, 0, rounded);
  return std::shared_ptr<std::byte[]>(p, [](std::byte* q) { ::operator delete[](q, std::align_val_t(64)); });
}
} // namespace

Tensor::Tensor(TensorType type) : type_(std::move(type)) {
  for (int64_t d : type_.shape)
    TCX_CHECK(d >= 0, ErrorKind::ShapeInference, "negative dimension in shape {}", shapeToString(type_.shape));
  storage_ = allocate(type_.byteSize());
}

Tensor Tensor::filled(DType dtype, Shape shape, double value) {
  Tensor t(dtype, std::move(shape));
  dispatchDType(dtype, [&]<typename T>() {
    T v = static_cast<T>(static_cast<ComputeType<T>>(value));
    for (T& x : t.data<T>()) x = v;
  });
  return t;
}

double Tensor::elementAsDouble(int64_t i) const {
  return dispatchDType(dtype(), [&]<typename T>() -> double {
    return static_cast<double>(static_cast<ComputeType<T>>(data<T>()[i]));
  });
}

int64_t Tensor::elementAsInt64(int64_t i) const {
  return dispatchDType(dtype(), [&]<typename T>() -> int64_t {
    return static_cast<int64_t>(static_cast<ComputeType<T>>(data<T>()[i]));
  });
}

std::vector<int64_t> Tensor::toInt64Vector() const {
  TCX_CHECK(isInteger(dtype()) || dtype() == DType::Bool, ErrorKind::InvalidModel,
            "expected an integer tensor, got {}", type_.toString());
  std::vector<int64_t> out(numElements());
  for (int64_t i = 0; i < numElements(); ++i) out[i] = elementAsInt64(i);
  return out;
}

Tensor Tensor::reshaped(Shape shape) const {
  TCX_CHECK(tcx::numElements(shape) == numElements(), ErrorKind::Internal,
            "cannot view {} as shape {}", type_.toString(), shapeToString(shape));
  Tensor t = *this;
  t.type_.shape = std::move(shape);
  return t;
}

Tensor Tensor::clone() const {
  Tensor t(type_);
  if (byteSize() != 0) std::memcpy(t.raw(), raw(), byteSize());
  return t;
}

bool Tensor::identicalTo(const Tensor& other) const {
  return type_ == other.type_ && (byteSize() == 0 || std::memcmp(raw(), other.raw(), byteSize()) == 0);
}

} // namespace tcx
