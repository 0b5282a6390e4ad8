#include "codegen/EpilogueCode.h"

#include "codegen/AccessCode.h"
#include "codegen/CudaTypes.h"
#include "codegen/ModuleBuilder.h"
#include "ops/OpDef.h"

#include <algorithm>
#include <fmt/format.h>

namespace tcx {

std::optional<std::string> chainCode(ValueCode& values, const Value* anchor, const std::string& acc,
                                     const std::vector<const Node*>& chain) {
  const Shape& shape = anchor->type().shape;
  const std::vector<std::string> index = indexNames(shape.size());
  for (const Node* node : chain)
    if (!node->op().cudaExpr || node->numOutputs() != 1 || node->output(0)->type().shape != shape) return std::nullopt;
  std::string code = fmt::format("    const float e0 = tcx::roundTo<{}>({});\n", cudaStorageType(anchor->type().dtype), acc);
  values.bindLocal(anchor, "e0");
  int next = 1;
  for (const Node* node : chain) {
    const Value* out = node->output(0);
    std::string name = fmt::format("e{}", next++);
    code += fmt::format("    const {} {} = tcx::roundTo<{}>({});\n", cudaComputeType(out->type().dtype), name,
                        cudaStorageType(out->type().dtype), values.elementwiseExpr(*node, index));
    values.bindLocal(out, name);
  }
  return code;
}

std::optional<std::string> storeCode(ValueCode& values, const Value* anchor, const std::vector<const Node*>& chain) {
  std::string code;
  for (const TensorAccess& out : values.kernel().outputs) {
    const bool inChain = out.value == anchor || std::any_of(chain.begin(), chain.end(), [&](const Node* n) {
                           return n->output(0) == out.value;
                         });
    if (!inChain) return std::nullopt;
    code += accessStore(out, values.plan(), values.call(out.value, {}));
  }
  return code;
}

} // namespace tcx
