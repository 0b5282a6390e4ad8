#include "codegen/CudaTypes.h"

#include "ir/Dispatch.h"

#include <cmath>
#include <fmt/format.h>

namespace tcx {

const char* cudaStorageType(DType t) {
  switch (t) {
  case DType::F32: return "float";
  case DType::F16: return "__half";
  case DType::BF16: return "__nv_bfloat16";
  case DType::F64: return "double";
  case DType::I64: return "long long";
  case DType::I32: return "int";
  case DType::I8: return "signed char";
  case DType::U8: return "unsigned char";
  case DType::Bool: return "bool";
  }
  return "void";
}

const char* cudaComputeType(DType t) {
  return t == DType::F16 || t == DType::BF16 ? "float" : cudaStorageType(t);
}

int cudaComputeBytes(DType t) {
  return dispatchDType(t, []<typename T>() { return static_cast<int>(sizeof(ComputeType<T>)); });
}

std::string cudaLiteral(double value, DType t) {
  if (!isFloatingPoint(t)) {
    if (t == DType::Bool) return value != 0 ? "true" : "false";
    // A cast, not a functional one: "long long(5)" does not parse.
    return fmt::format("static_cast<{}>({}LL)", cudaComputeType(t), static_cast<long long>(value));
  }
  const bool isDouble = t == DType::F64;
  // NVRTC knows no __builtin_nan or __builtin_inf; a constant division is a
  // constant expression, so it may initialise a __device__ array (a -inf
  // attention mask, a Cast of NaN).
  if (std::isnan(value)) return isDouble ? "(0.0 / 0.0)" : "(0.0f / 0.0f)";
  if (std::isinf(value)) {
    if (isDouble) return value < 0 ? "(-1.0 / 0.0)" : "(1.0 / 0.0)";
    return value < 0 ? "(-1.0f / 0.0f)" : "(1.0f / 0.0f)";
  }
  return isDouble ? fmt::format("{:a}", value) : fmt::format("{:a}f", static_cast<float>(value));
}

} // namespace tcx
