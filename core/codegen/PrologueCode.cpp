#include "codegen/PrologueCode.h"

#include "codegen/CudaTypes.h"
#include "fusion/FusionPass.h"
#include "ops/OpDef.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

namespace tcx {

namespace {

bool isChannelAffine(const Node& n) { return static_cast<bool>(n.op().cudaChannelAffine); }

} // namespace

std::optional<ChannelPrologue> channelPrologue(const ValueCode& values, const Value* operand) {
  const FusedKernel& fused = *values.kernel().fused;
  const std::unordered_set<const Node*> members(fused.nodes.begin(), fused.nodes.end());
  const Node* last = operand->producer();
  if (values.inputAccess(operand) || !last || !members.count(last)) return std::nullopt;
  const Shape& shape = operand->type().shape;
  // The kernel's nodes the operand depends on, found from it backwards.
  std::unordered_set<const Node*> upstream{last};
  std::vector<const Node*> pending{last};
  ChannelPrologue prologue;
  while (!pending.empty()) {
    const Node* n = pending.back();
    pending.pop_back();
    if (!(n->op().cudaExpr || isChannelAffine(*n)) || n->numOutputs() != 1 || n->output(0)->type().shape != shape)
      return std::nullopt;
    for (size_t i = 0; i < n->numInputs(); ++i) {
      const Value* in = n->input(i);
      if (!in) continue;
      if (in->producer() && members.count(in->producer())) {
        if (isChannelAffine(*n) && i > 0) return std::nullopt; // a coefficient the chain computes
        if (upstream.insert(in->producer()).second) pending.push_back(in->producer());
      } else if (!readAtChannel(*n, i, shape)) {
        if ((prologue.source && prologue.source != in) || in->type().shape != shape || !values.inputAccess(in))
          return std::nullopt;
        prologue.source = in;
      }
    }
  }
  if (!prologue.source) return std::nullopt;
  for (const Node* n : fused.nodes)
    if (upstream.count(n)) prologue.chain.push_back(n);
  return prologue;
}

std::string prologueSummary(const ChannelPrologue& prologue) {
  std::string ops;
  for (const Node* n : prologue.chain) ops += (ops.empty() ? "" : "+") + n->opType();
  return ops;
}

// channel(k) computes what the chain reads at the channel into the fields of
// Channel: each operand read there, and a channel-affine op's scale and
// shift (a square root and a division a channel instead of an element).
// operator() runs the chain on one element with those fields as locals.
std::string prologueFunctor(ValueCode& values, const ChannelPrologue& prologue) {
  const Shape& shape = prologue.source->type().shape;
  const std::vector<std::string> index = indexNames(shape.size());
  std::string channelIndex;
  for (size_t d = 0; d < shape.size(); ++d)
    channelIndex += fmt::format("    const Index x{} = {};\n", d, d == 1 ? "k" : "0");
  std::string fields, channelCode, fieldValues, elementCode;
  int next = 0;
  auto field = [&](const std::string& type, const std::string& value) {
    const std::string name = fmt::format("f{}", next++);
    fields += fmt::format(" {} {};", type, name);
    fieldValues += (fieldValues.empty() ? "" : ", ") + value;
    return "c." + name;
  };
  std::vector<const Value*> bound{prologue.source};
  values.bindLocal(prologue.source, "v");
  std::string last = "v";
  for (const Node* n : prologue.chain) {
    const Value* out = n->output(0);
    const std::string type = cudaComputeType(out->type().dtype);
    last = fmt::format("e{}", bound.size());
    std::string expr;
    if (isChannelAffine(*n)) {
      const CudaElementContext ctx{*n, 0, index,
                                   [&](size_t i, const std::vector<std::string>& at) {
                                     return values.call(n->input(i), at);
                                   },
                                   type};
      const std::string scaleName = fmt::format("_a{}", next);
      const CudaChannelAffine affine = n->op().cudaChannelAffine(ctx, scaleName);
      channelCode += fmt::format("    const {} {} = {};\n", type, scaleName, affine.scale);
      const std::string scale = field(type, scaleName), shift = field(type, affine.shift);
      expr = fmt::format("{} * {} + {}", values.call(n->input(0), {}), scale, shift);
    } else {
      for (size_t i = 0; i < n->numInputs(); ++i)
        if (n->input(i) && !std::ranges::count(bound, n->input(i)) && readAtChannel(*n, i, shape)) {
          const Value* in = n->input(i);
          const std::string read = values.call(in, broadcastIndex(in->type().shape, shape, index));
          values.bindLocal(in, field(cudaComputeType(in->type().dtype), read));
          bound.push_back(in);
        }
      expr = values.elementwiseExpr(*n, index);
    }
    elementCode += fmt::format("    const {} {} = tcx::roundTo<{}>({});\n", type, last,
                               cudaStorageType(out->type().dtype), expr);
    values.bindLocal(out, last);
    bound.push_back(out);
  }
  // The locals name the prologue's values inside its functor alone.
  for (const Value* v : bound) values.unbindLocal(v);
  return fmt::format("struct {p}Prologue {{\n  Buffers b;\n  struct Channel {{{fields} }};\n"
                     "  __device__ __forceinline__ Channel channel(int k) const {{\n{index}{channel}"
                     "    return {{{values}}};\n  }}\n"
                     "  __device__ __forceinline__ float operator()(const Channel& c, float v) const {{\n"
                     "{element}    return {last};\n  }}\n}};\n\n",
                     fmt::arg("p", values.prefix()), fmt::arg("fields", fields), fmt::arg("index", channelIndex),
                     fmt::arg("channel", channelCode), fmt::arg("values", fieldValues),
                     fmt::arg("element", elementCode), fmt::arg("last", last));
}

} // namespace tcx
