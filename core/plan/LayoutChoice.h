#pragma once
// Which physical tensors a plan stores in another layout than the model
// states: VTensor's layout resolution (its DLR and element-wise
// optimisation) for plans whose accesses are mapping functions. A library
// routine states the layout it requires (VTensor's required_layout):
// convolutions run channels-last, the layout cuDNN's and Inductor's fast
// float convolutions use. Every other kernel takes whatever layout its
// tensors are stored in, since lowering composes the layout into each of its
// accesses; so a requirement needs no propagation and no transform node, and
// nothing is left for VTensor's ILP to minimise.
//
// Graph inputs, outputs and constants stay as stated: callers and the
// weights' initialisers see them.

#include "fusion/KernelGraph.h"
#include "plan/Layout.h"
#include "vt/PointsToGraph.h"

#include <unordered_map>

namespace tcx {

// The physical tensors stored in a layout other than as stated, and that layout.
std::unordered_map<const Value*, Layout> chooseLayouts(const KernelGraph& kernels, const PointsToGraph& strategy,
                                                       LayoutPolicy policy);

// What `policy` stores the model's convolutions' tensors as: Auto decided
// (AsExported or ChannelsLast), the others as they are. Auto's decision
// holds for every strategy, so a caller that lowers under many strategies
// (the greedy's cost oracle) decides it once.
LayoutPolicy decideLayoutPolicy(const KernelGraph& kernels, const Vtog& vtog, LayoutPolicy policy);

} // namespace tcx
