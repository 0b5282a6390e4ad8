#pragma once
// 16-bit floating-point storage types. Tensors keep f16 and bf16 data as
// such; kernels convert to float to compute (round to nearest even on the way
// back), which is what GPUs do for these types too.

#include <bit>
#include <cstdint>
#include <cstring>

namespace tcx {

struct BFloat16 {
  uint16_t bits = 0;

  BFloat16() = default;
  explicit BFloat16(float f) : bits(fromFloat(f)) {}
  operator float() const { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

  static uint16_t fromFloat(float f) {
    uint32_t u = std::bit_cast<uint32_t>(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) // NaN: keep it quiet and a NaN
      return static_cast<uint16_t>((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u); // round to nearest even
    return static_cast<uint16_t>(u >> 16);
  }
};

struct Half {
  uint16_t bits = 0;

  Half() = default;
  explicit Half(float f) : bits(fromFloat(f)) {}
  operator float() const { return toFloat(bits); }

  static float toFloat(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    uint32_t u;
    if (exp == 0) {
      if (mant == 0) {
        u = sign;
      } else { // subnormal: normalise
        int e = -1;
        do {
          ++e;
          mant <<= 1;
        } while ((mant & 0x400u) == 0);
        u = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (mant & 0x3ffu) << 13;
      }
    } else if (exp == 0x1f) {
      u = sign | 0x7f800000u | mant << 13;
    } else {
      u = sign | (exp + 127 - 15) << 23 | mant << 13;
    }
    return std::bit_cast<float>(u);
  }

  static uint16_t fromFloat(float f) {
    uint32_t u = std::bit_cast<uint32_t>(f);
    uint32_t sign = (u >> 16) & 0x8000u;
    uint32_t absu = u & 0x7fffffffu;
    if (absu > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u); // NaN
    if (absu >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u); // overflow to inf
    if (absu < 0x38800000u) { // a subnormal half (or zero): value / 2^-24, rounded
      if (absu < 0x33000000u) return static_cast<uint16_t>(sign);
      uint32_t e = absu >> 23;
      uint32_t m = (absu & 0x7fffffu) | 0x800000u;
      uint32_t shift = 126 - e; // 14..24
      uint32_t result = m >> shift;
      uint32_t rem = m & ((1u << shift) - 1u);
      uint32_t halfway = 1u << (shift - 1);
      if (rem > halfway || (rem == halfway && (result & 1u))) ++result;
      return static_cast<uint16_t>(sign | result);
    }
    uint32_t result = ((absu - 0x38000000u) >> 13); // rebias exponent 127 -> 15
    uint32_t rem = absu & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (result & 1u))) ++result;
    return static_cast<uint16_t>(sign | result);
  }
};

} // namespace tcx
