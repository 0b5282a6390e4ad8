// The μGraph form of this family's ops: Mirage's Sum operator folds one
// axis, so a reduction over several axes is a chain of them, and Softmax
// over the last axis is exp(x) / Sum(exp(x)). An op missing here has no
// μGraph form.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/reduction/ReducePlan.h"
#include "ops/reduction/ReductionOps.h"

namespace tcx::reduction {

namespace {

using Handle = MuGraphBuilder::Handle;

// The axes operand of a Reduce* node, nullptr when omitted; the form
// requires it constant (reduceUnsupported).
const Tensor* axesOperand(const Node& n) {
  return n.numInputs() > 1 && n.input(1) ? &n.input(1)->constant() : nullptr;
}

// Sums over the folded axes with their dimensions kept, divides by the
// count for a mean, then drops the dimensions unless keepdims.
MuGraphForm reduceForm(bool mean) {
  MuGraphForm form;
  form.lower = [mean](const Node& n, MuGraphBuilder& b) {
    const Shape& in = n.input(0)->type().shape;
    const AxisMask mask = reduceAxesMask(axesOperand(n), n.attrs(), static_cast<int64_t>(in.size()));
    Handle t = b.value(n.input(0));
    int64_t count = 1;
    for (size_t d = 0; d < in.size(); ++d) {
      if (!mask[d]) continue;
      t = b.sum(t, static_cast<int>(d), in[d]);
      count *= in[d];
    }
    if (mean) t = b.div(t, b.constant(static_cast<double>(count)));
    const Shape& out = n.output(0)->type().shape;
    return reducedShape(in, mask, true) == out ? t : b.reshape(t, out);
  };
  form.unsupported = [](const Node& n) -> std::optional<std::string> {
    if (n.numInputs() < 2 || !n.input(1) || n.input(1)->isConstant()) return std::nullopt;
    return n.opType() + " with axes computed at run time has no μGraph operator";
  };
  return form;
}

MuGraphForm softmaxForm() {
  MuGraphForm form;
  form.lower = [](const Node& n, MuGraphBuilder& b) {
    const Shape& s = n.output(0)->type().shape;
    Handle e = b.exp(b.value(n.input(0)));
    return b.div(e, b.sum(e, static_cast<int>(s.size()) - 1, s.back()));
  };
  form.exps = 1;
  form.unsupported = [](const Node& n) -> std::optional<std::string> {
    const int64_t rank = static_cast<int64_t>(n.input(0)->type().shape.size());
    if (normalizeAxis(n.attrs().getInt("axis", -1), rank) == rank - 1) return std::nullopt;
    return "Softmax over an axis other than the last has no μGraph operator";
  };
  return form;
}

} // namespace

void registerMuGraphForms(OpRegistry& registry) {
  registry.edit("ReduceSum").muGraph = reduceForm(false);
  registry.edit("ReduceMean").muGraph = reduceForm(true);
  registry.edit("Softmax").muGraph = softmaxForm();
}

} // namespace tcx::reduction
