#include "onnx/ImportedNode.h"

namespace tcx {

std::string NameTable::fresh(const std::string& base) {
  if (insert(base)) return base;
  for (size_t i = 1;; ++i) {
    std::string name = base + "_" + std::to_string(i);
    if (insert(name)) return name;
  }
}

} // namespace tcx
