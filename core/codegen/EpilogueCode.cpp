#include "codegen/EpilogueCode.h"

#include "codegen/AccessCode.h"
#include "codegen/CudaTypes.h"
#include "codegen/ModuleBuilder.h"
#include "ops/OpDef.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unordered_set>

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

std::optional<std::string> epilogueFunctor(ValueCode& values, const std::string& outIndex, const std::string& acc) {
  const FusedKernel& fused = *values.kernel().fused;
  const Value* result = fused.anchor->output(0);
  // The nodes the anchor's operands come from (an attention's first product and softmax, staged before the
  // anchor) are no part of its epilogue; the rest of the kernel is.
  const std::unordered_set<const Node*> members(fused.nodes.begin(), fused.nodes.end());
  std::unordered_set<const Node*> upstream;
  std::vector<const Node*> pending{fused.anchor};
  while (!pending.empty()) {
    const Node* n = pending.back();
    pending.pop_back();
    for (const Value* in : n->inputs())
      if (in && in->producer() && members.count(in->producer()) && upstream.insert(in->producer()).second)
        pending.push_back(in->producer());
  }
  std::vector<const Node*> chain;
  for (const Node* node : fused.nodes)
    if (node != fused.anchor && !upstream.count(node)) chain.push_back(node);
  std::optional<std::string> chainStatements = chainCode(values, result, acc, chain);
  if (!chainStatements) return std::nullopt;
  std::optional<std::string> stores = storeCode(values, result, chain);
  if (!stores) return std::nullopt;
  // compute returns the values the outputs store, store binds them to the
  // same names again: kernels holding many results run compute for several
  // before they store any (tcx/epilogue.cuh).
  std::vector<std::string> stored;
  std::string fields, bind;
  for (const TensorAccess& out : values.kernel().outputs) {
    const std::string name = values.call(out.value, {});
    if (std::ranges::find(stored, name) != stored.end()) continue;
    const std::string type = out.value == result ? "float" : cudaComputeType(out.value->type().dtype);
    fields += fmt::format(" {} v{};", type, stored.size());
    bind += fmt::format("    const {} {} = out.v{};\n", type, name, stored.size());
    stored.push_back(name);
  }
  return fmt::format("struct {p}Epilogue {{\n  Buffers b;\n  struct Out {{{f} }};\n"
                     "  __device__ __forceinline__ Out compute(int batch, int m, int n, float acc) const {{\n{d}{c}"
                     "    return {{{v}}};\n  }}\n"
                     "  __device__ __forceinline__ void store(int batch, int m, int n, const Out& out) const {{\n"
                     "{d}{bind}{s}  }}\n"
                     "  __device__ __forceinline__ void operator()(int batch, int m, int n, float acc) const {{\n"
                     "    store(batch, m, n, compute(batch, m, n, acc));\n  }}\n}};\n\n",
                     fmt::arg("p", values.prefix()), fmt::arg("f", fields), fmt::arg("d", outIndex),
                     fmt::arg("c", *chainStatements), fmt::arg("v", fmt::join(stored, ", ")), fmt::arg("bind", bind),
                     fmt::arg("s", *stores));
}

} // namespace tcx
