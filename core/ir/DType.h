#pragma once
// Element types of tcx tensors. The set is what DNN exports use; ONNX types
// outside it (strings, float8, 4-bit, complex, 16/32/64-bit unsigned) are
// reported as unsupported at import.

#include "support/Half.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tcx {

enum class DType : uint8_t { F32, F16, BF16, F64, I64, I32, I8, U8, Bool };

inline constexpr DType kAllDTypes[] = {DType::F32, DType::F16, DType::BF16, DType::F64, DType::I64,
                                       DType::I32, DType::I8,  DType::U8,   DType::Bool};

size_t dtypeSize(DType t);
std::string_view dtypeName(DType t); // "f32", "bf16", ...
std::optional<DType> parseDType(std::string_view name);
bool isFloatingPoint(DType t);
// ONNX TensorProto.DataType codes (Cast's `to`, ConstantOfShape, .pb files).
int32_t dtypeToOnnx(DType t);
std::optional<DType> dtypeFromOnnx(int32_t code); // nullopt: not a tcx dtype
bool isInteger(DType t); // signed or unsigned integers, not bool

// The C++ storage type of each dtype.
template <DType T> struct StorageOf;
template <> struct StorageOf<DType::F32> { using type = float; };
template <> struct StorageOf<DType::F16> { using type = Half; };
template <> struct StorageOf<DType::BF16> { using type = BFloat16; };
template <> struct StorageOf<DType::F64> { using type = double; };
template <> struct StorageOf<DType::I64> { using type = int64_t; };
template <> struct StorageOf<DType::I32> { using type = int32_t; };
template <> struct StorageOf<DType::I8> { using type = int8_t; };
template <> struct StorageOf<DType::U8> { using type = uint8_t; };
template <> struct StorageOf<DType::Bool> { using type = bool; };

template <typename T> constexpr DType dtypeOf();
template <> constexpr DType dtypeOf<float>() { return DType::F32; }
template <> constexpr DType dtypeOf<Half>() { return DType::F16; }
template <> constexpr DType dtypeOf<BFloat16>() { return DType::BF16; }
template <> constexpr DType dtypeOf<double>() { return DType::F64; }
template <> constexpr DType dtypeOf<int64_t>() { return DType::I64; }
template <> constexpr DType dtypeOf<int32_t>() { return DType::I32; }
template <> constexpr DType dtypeOf<int8_t>() { return DType::I8; }
template <> constexpr DType dtypeOf<uint8_t>() { return DType::U8; }
template <> constexpr DType dtypeOf<bool>() { return DType::Bool; }

// The type arithmetic is done in: f16 and bf16 compute in float (as on GPUs).
template <typename T> struct ComputeOf { using type = T; };
template <> struct ComputeOf<Half> { using type = float; };
template <> struct ComputeOf<BFloat16> { using type = float; };
template <typename T> using ComputeType = typename ComputeOf<T>::type;

template <typename T> constexpr bool kIsFloatStorage =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, Half> ||
    std::is_same_v<T, BFloat16>;

} // namespace tcx
