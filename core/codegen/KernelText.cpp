#include "codegen/KernelText.h"

#include <climits>
#include <fmt/format.h>

namespace tcx {

std::string kernelOpening(std::string_view bounds, std::string_view name) {
  return fmt::format("extern \"C\" __global__ void __launch_bounds__({}) {}(Buffers b) {{\n"
                     "  tcx::awaitPredecessors();\n",
                     bounds, name);
}

std::string decomposeIndex(const Shape& shape, const std::vector<std::string>& names) {
  const int64_t count = numElements(shape);
  // 32-bit division by constants is several times cheaper than 64-bit, and
  // most tensors have fewer than 2^31 elements.
  const bool narrow = count <= INT32_MAX;
  const char* linear = narrow ? "u" : "i";
  std::string decompose = narrow ? "    const unsigned u = static_cast<unsigned>(i);\n" : "";
  int64_t inner = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    std::string quotient = inner == 1 ? linear : fmt::format("({} / {}u)", linear, inner);
    // A tensor with no elements runs no iteration; its index is never
    // formed, but must not divide by its zero extent.
    if (count == 0)
      decompose += fmt::format("    const Index {} = 0;\n", names[d]);
    else
      decompose += d == 0 ? fmt::format("    const Index {} = {};\n", names[d], quotient)
                          : fmt::format("    const Index {} = {} % {}u;\n", names[d], quotient, shape[d]);
    inner *= shape[d];
  }
  return decompose;
}

} // namespace tcx
