#pragma once
// FNV-1a, 64-bit: stable across runs and platforms, for checksums, seeds
// and content hashes (not for security).

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tcx {

inline uint64_t fnv1a(const void* data, size_t size, uint64_t hash = 0xcbf29ce484222325ull) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ull;
  return hash;
}

inline uint64_t fnv1a(std::string_view s) { return fnv1a(s.data(), s.size()); }

} // namespace tcx
