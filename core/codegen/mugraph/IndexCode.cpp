#include "codegen/mugraph/IndexCode.h"

#include <fmt/format.h>

namespace tcx::mugraphcuda {

std::string sumOf(const std::vector<std::string>& terms) {
  std::string out;
  for (const std::string& t : terms) {
    if (t == "0") continue;
    out += out.empty() ? t : " + " + t;
  }
  return out.empty() ? "0" : out;
}

std::string stridedOffset(const std::string& i, const Shape& shape, const std::vector<int64_t>& strides) {
  std::vector<int64_t> own = contiguousStrides(shape);
  std::vector<std::string> terms;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1 || strides[d] == 0) continue;
    std::string index = own[d] == 1 ? i : fmt::format("{} / {}", i, own[d]);
    // The outermost dim needs no modulo: i is below the element count.
    if (d > 0) index = fmt::format("({}) % {}", index, shape[d]);
    terms.push_back(strides[d] == 1 ? index : fmt::format("({}) * {}", index, strides[d]));
  }
  return sumOf(terms);
}

std::string boxOffset(const std::string& i, const Shape& box, const Shape& container) {
  if (box == container) return i;
  return stridedOffset(i, box, contiguousStrides(container));
}

std::string chunkOffsetExpr(const Shape& chunk, const Shape& dims, const mugraph::DimMap& map,
                            const std::vector<std::string>& names, const std::vector<int64_t>& strides) {
  std::vector<std::string> chunkIndex(chunk.size());
  for (size_t i = 0; i < map.size(); ++i) {
    int d = map[i];
    if (d == mugraph::kReplica) continue;
    // Horner over the dims mapped to d, the first listed outermost.
    chunkIndex[d] = chunkIndex[d].empty() ? names[i] : fmt::format("({}) * {} + {}", chunkIndex[d], dims[i], names[i]);
  }
  std::vector<std::string> terms;
  for (size_t d = 0; d < chunk.size(); ++d)
    if (!chunkIndex[d].empty()) terms.push_back(fmt::format("({}) * {}", chunkIndex[d], chunk[d] * strides[d]));
  return sumOf(terms);
}

} // namespace tcx::mugraphcuda
