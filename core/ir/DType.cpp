#include "ir/DType.h"

namespace tcx {

size_t dtypeSize(DType t) {
  switch (t) {
  case DType::F32: return 4;
  case DType::F16: return 2;
  case DType::BF16: return 2;
  case DType::F64: return 8;
  case DType::I64: return 8;
  case DType::I32: return 4;
  case DType::I8: return 1;
  case DType::U8: return 1;
  case DType::Bool: return 1;
  }
  return 0;
}

std::string_view dtypeName(DType t) {
  switch (t) {
  case DType::F32: return "f32";
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::F64: return "f64";
  case DType::I64: return "i64";
  case DType::I32: return "i32";
  case DType::I8: return "i8";
  case DType::U8: return "u8";
  case DType::Bool: return "bool";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType t : kAllDTypes)
    if (dtypeName(t) == name) return t;
  return std::nullopt;
}

bool isFloatingPoint(DType t) {
  return t == DType::F32 || t == DType::F16 || t == DType::BF16 || t == DType::F64;
}

// The codes are fixed by onnx.proto (TensorProto.DataType); core does not
// depend on the generated protobuf code for them.
int32_t dtypeToOnnx(DType t) {
  switch (t) {
  case DType::F32: return 1;
  case DType::U8: return 2;
  case DType::I8: return 3;
  case DType::I32: return 6;
  case DType::I64: return 7;
  case DType::Bool: return 9;
  case DType::F16: return 10;
  case DType::F64: return 11;
  case DType::BF16: return 16;
  }
  return 0;
}

std::optional<DType> dtypeFromOnnx(int32_t code) {
  for (DType t : kAllDTypes)
    if (dtypeToOnnx(t) == code) return t;
  return std::nullopt;
}

bool isInteger(DType t) {
  return t == DType::I64 || t == DType::I32 || t == DType::I8 || t == DType::U8;
}

} // namespace tcx
