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
#include <vector>

namespace tcx {

// The layout each physical tensor is stored in under one strategy, asked
// tensor by tensor: a lowering of one kernel (the greedy's cost oracle
// lowers thousands) asks only about the tensors that kernel touches, where
// deciding every tensor of the model first took 27 % of DenseNet-121's
// greedy at 32 images.
class LayoutChoice {
public:
  LayoutChoice(const KernelGraph& kernels, const PointsToGraph& strategy, LayoutPolicy policy);
  // Whether the policy stores any convolution's tensors channels-last.
  bool channelsLast() const { return channelsLast_; }
  // The layout physical tensor `p` is stored in, before in-place sharing
  // (which keeps a shared tensor as stated): channels-last where a
  // convolution reads or writes it, directly or through a virtual tensor
  // stored in it (one of resolve(v).physical), and the plan is free to
  // choose it.
  Layout of(const Value* p);

private:
  bool convolutionStoredIn(const Value* p);
  bool convolutionTensor(const Value* v) const;

  const KernelGraph& kernels_;
  const PointsToGraph& strategy_;
  bool channelsLast_ = false;
  std::unordered_map<const Value*, std::vector<const Value*>> chosenInto_; // tensor -> the tensors whose chosen edges lead to it
  std::unordered_map<const Value*, bool> decided_;
  Layout channelsLastLayout_ = Layout::channelsLast(4);
};

// What `policy` stores the model's convolutions' tensors as: Auto decided
// (AsExported or ChannelsLast), the others as they are. Auto's decision
// holds for every strategy, so a caller that lowers under many strategies
// (the greedy's cost oracle) decides it once.
LayoutPolicy decideLayoutPolicy(const KernelGraph& kernels, const Vtog& vtog, LayoutPolicy policy);

} // namespace tcx
