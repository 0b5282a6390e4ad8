#include "plan/LayoutChoice.h"

#include "ops/OpDef.h"

#include <algorithm>

namespace tcx {

namespace {

bool runsConvolution(const FusedKernel& k) {
  return std::any_of(k.nodes.begin(), k.nodes.end(),
                     [](const Node* n) { return n->op().fusionRole == FusionRole::Convolution; });
}

// A tensor whose storage the plan decides: an intermediate (graph inputs and
// outputs are the caller's, constants are initialisers), 2-D images.
bool layoutIsFree(const Value* v) {
  return v->type().shape.size() == 4 && !v->isGraphInput() && !v->isGraphOutput() && !v->isConstant();
}

} // namespace

std::unordered_map<const Value*, Layout> chooseLayouts(const KernelGraph& kernels, const PointsToGraph& strategy,
                                                       LayoutPolicy policy) {
  std::unordered_map<const Value*, Layout> layouts;
  switch (policy) {
  case LayoutPolicy::AsExported: return layouts;
  case LayoutPolicy::ChannelsLast: break;
  }
  for (const FusedKernel& k : kernels.kernels()) {
    if (!runsConvolution(k)) continue;
    auto require = [&](const Value* v) {
      if (v->type().shape.size() != 4) return;
      // What the kernel reads or writes as v is stored in these tensors.
      for (const Value* p : strategy.resolve(v).physical)
        if (layoutIsFree(p)) layouts[p] = Layout::channelsLast(4);
    };
    for (const Value* v : k.inputs) require(v);
    for (const Value* v : k.outputs) require(v);
  }
  return layouts;
}

} // namespace tcx
