#include "onnx/ElemType.h"

#include "support/Error.h"

#include <onnx/onnx_pb.h>

#include <array>
#include <fmt/format.h>

namespace tcx {

namespace {

// Indexed by TensorProto::DataType. The codes past BFLOAT16 postdate the
// installed ONNX headers but appear in newer models, so they are spelled out.
constexpr std::array<const char*, 24> kElemTypeNames = {
    "UNDEFINED", "FLOAT",        "UINT8",          "INT8",       "UINT16",         "INT16",  "INT32",     "INT64",
    "STRING",    "BOOL",         "FLOAT16",        "DOUBLE",     "UINT32",         "UINT64", "COMPLEX64", "COMPLEX128",
    "BFLOAT16",  "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4",  "INT4",      "FLOAT4E2M1"};

std::string supportedList() {
  std::string list;
  for (DType t : kAllDTypes) list += (list.empty() ? "" : ", ") + std::string(dtypeName(t));
  return list;
}

} // namespace

std::string onnxElemTypeName(int32_t elemType) {
  if (elemType >= 0 && static_cast<size_t>(elemType) < kElemTypeNames.size()) return kElemTypeNames[elemType];
  return fmt::format("<code {}>", elemType);
}

DType dtypeOfElemType(int32_t elemType) {
  if (std::optional<DType> dtype = dtypeFromOnnx(elemType)) return *dtype;
  TCX_CHECK(elemType != onnx::TensorProto::UNDEFINED, ErrorKind::InvalidModel, "the element type is undefined");
  raise(ErrorKind::Unsupported, "ONNX element type {} is not supported (tcx supports {})", onnxElemTypeName(elemType),
        supportedList());
}

} // namespace tcx
