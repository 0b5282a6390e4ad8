#include "codegen/CudaTypes.h"

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

std::string cudaLiteral(double value, DType t) {
  if (!isFloatingPoint(t)) {
    if (t == DType::Bool) return value != 0 ? "true" : "false";
    return fmt::format("{}({}LL)", cudaComputeType(t), static_cast<long long>(value));
  }
  const bool isDouble = t == DType::F64;
  if (std::isnan(value)) return isDouble ? "__builtin_nan(\"\")" : "__builtin_nanf(\"\")";
  if (std::isinf(value)) {
    std::string inf = isDouble ? "__builtin_inf()" : "__builtin_inff()";
    return value < 0 ? "(-" + inf + ")" : inf;
  }
  return isDouble ? fmt::format("{:a}", value) : fmt::format("{:a}f", static_cast<float>(value));
}

} // namespace tcx
