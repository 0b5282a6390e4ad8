#pragma once
// Runs a generic lambda for the storage type of a run-time dtype:
//   dispatchDType(t, [&]<typename T>() { ... });
// Kernels use the narrower dispatchers to state which types they accept.

#include "ir/DType.h"
#include "support/Error.h"

namespace tcx {

template <typename F> decltype(auto) dispatchDType(DType t, F&& f) {
  switch (t) {
  case DType::F32: return f.template operator()<float>();
  case DType::F16: return f.template operator()<Half>();
  case DType::BF16: return f.template operator()<BFloat16>();
  case DType::F64: return f.template operator()<double>();
  case DType::I64: return f.template operator()<int64_t>();
  case DType::I32: return f.template operator()<int32_t>();
  case DType::I8: return f.template operator()<int8_t>();
  case DType::U8: return f.template operator()<uint8_t>();
  case DType::Bool: return f.template operator()<bool>();
  }
  raise(ErrorKind::Internal, "bad dtype");
}

// Floating-point types only.
template <typename F> decltype(auto) dispatchFloat(DType t, F&& f) {
  switch (t) {
  case DType::F32: return f.template operator()<float>();
  case DType::F16: return f.template operator()<Half>();
  case DType::BF16: return f.template operator()<BFloat16>();
  case DType::F64: return f.template operator()<double>();
  default: raise(ErrorKind::Unsupported, "dtype {} is not a floating-point type", dtypeName(t));
  }
}

// Numbers: floating-point and integer types, not bool.
template <typename F> decltype(auto) dispatchNumeric(DType t, F&& f) {
  TCX_CHECK(t != DType::Bool, ErrorKind::Unsupported, "dtype bool is not numeric");
  return dispatchDType(t, std::forward<F>(f));
}

} // namespace tcx
