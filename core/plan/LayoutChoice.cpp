#include "plan/LayoutChoice.h"

#include "ops/OpDef.h"

#include <algorithm>
#include <unordered_set>

namespace tcx {

namespace {

// A tensor whose storage the plan decides: an intermediate (graph inputs and
// outputs are the caller's, constants are initialisers), 2-D images.
bool layoutIsFree(const Value* v) {
  return v->type().shape.size() == 4 && !v->isGraphInput() && !v->isGraphOutput() && !v->isConstant();
}

bool isDepthwise(const Node& conv) {
  const int64_t groups = conv.attrs().getInt("group", 1);
  return groups > 1 && groups == conv.input(0)->type().shape[1];
}

// Whether a convolution would lose its fast kernel if the model were stored
// channels-last. A depthwise one: the generated depthwise kernels as
// exported were faster in every model that has them (MobileNetV3-small,
// EfficientNet-B0, ShuffleNetV2 and ConvNeXt-T, at one image and at 32; the
// table below). A window wider than 1x1 over a tensor the VTOG may make a
// view into part of another (the YOLOv11 C3K2 block's bottleneck, which
// reads half of cv1's output in place): cuDNN ran that channels-last only as
// IMPLICIT_GEMM (3105 us against 255 on a dense copy, H200) and the
// generated kernel, copying channels-last windows without its 16-byte
// copies, took 510 us against 332 as exported (docs/benchmarks.md); the
// block took 864.2 us channels-last against 663.4 as exported. This holds
// for every strategy the greedy may choose, so the decision does not depend
// on the edges chosen so far.
bool losesChannelsLast(const Node& conv, const Vtog& vtog) {
  if (isDepthwise(conv)) return true;
  const Shape& w = conv.input(1)->type().shape;
  const bool window = w.size() == 4 && w[2] * w[3] > 1;
  return window && !vtog.outgoing(conv.input(0)).empty();
}

// LayoutPolicy::Auto: the whole model channels-last or none of it. A plan
// that stores only some convolutions' tensors channels-last transposes
// wherever the two layouts meet, and that cost more than either gained
// (ResNeXt-50 at 32 images on an H100: 6012.7 us mixed against 5140.1 as
// exported and 4582.6 all channels-last; docs/benchmarks.md). So
// channels-last where no convolution loses its kernel and there is
// convolution work enough for cuDNN's channels-last kernels and the tf32
// GEMM of 1x1s to pay off. The threshold is set from the nine CNNs of the
// real-model suite measured both ways on an H200 (2026-11-29, tcx profile
// --layout, wall us as exported / channels-last; convolution GFLOP as
// counted here):
//   ResNet-18       1 image 277.1 / 300.8 (3.6),   32 images 1205.5 / 982.3
//   ResNeXt-50      1 image 544.8 / 534.5, 543.6 / 542.7 (8.5),   32: 4005.0 / 3166.8
//   DenseNet-121    1 image 1453.5 / 1527.6 (5.7),  32: 5067.9 / 4174.7
//   SqueezeNet 1.0  1 image 221.2 / 225.4 (1.6),   32: 1242.4 / 1078.6 (52)
//   RegNetY-400MF   1 image 591.7 / 615.1 (0.8),   32: 1659.1 / 1578.0 (26)
// and with depthwise convolutions, as exported faster at both batches:
// MobileNetV3-small 281.8 / 338.8 and 537.1 / 763.2, EfficientNet-B0 569.3 /
// 584.0 and 1963.6 / 3162.6, ShuffleNetV2 325.7 / 344.8 and 721.7 / 1031.6,
// ConvNeXt-T 932.1 / 940.8 and 8749.0 / 10021.3. Channels-last wins from
// ResNeXt-50's 8.5 GFLOP at one image up; DenseNet-121's 5.7 and ResNet-18's
// 3.6 lose. An earlier rule (80 % of the work on favoured dense, wide
// convolutions and 32 GFLOP of it) left SqueezeNet and RegNetY as exported at
// 32 images, 1.15x and 1.05x slower (computed from the table).
bool modelFavoursChannelsLast(const KernelGraph& kernels, const Vtog& vtog) {
  constexpr double kMinConvFlops = 8e9;
  double flops = 0;
  for (const FusedKernel& k : kernels.kernels())
    for (const Node* n : k.nodes) {
      if (n->op().fusionRole != FusionRole::Convolution) continue;
      if (losesChannelsLast(*n, vtog)) return false;
      // Only 2-D convolutions (4-D tensors) are stored channels-last.
      if (n->input(0)->type().shape.size() == 4) flops += n->op().flops ? n->op().flops(*n) : 0;
    }
  return flops >= kMinConvFlops;
}

} // namespace

LayoutPolicy decideLayoutPolicy(const KernelGraph& kernels, const Vtog& vtog, LayoutPolicy policy) {
  switch (policy) {
  case LayoutPolicy::AsExported:
  case LayoutPolicy::ChannelsLast: return policy;
  case LayoutPolicy::Auto:
    return modelFavoursChannelsLast(kernels, vtog) ? LayoutPolicy::ChannelsLast : LayoutPolicy::AsExported;
  }
  return policy;
}

LayoutChoice::LayoutChoice(const KernelGraph& kernels, const PointsToGraph& strategy, LayoutPolicy policy)
    : kernels_(kernels), strategy_(strategy),
      channelsLast_(decideLayoutPolicy(kernels, strategy.vtog(), policy) == LayoutPolicy::ChannelsLast) {
  if (!channelsLast_) return;
  for (int e : strategy.selected()) {
    const VtogEdge& edge = strategy.vtog().edge(e);
    chosenInto_[edge.to].push_back(edge.from);
  }
}

Layout LayoutChoice::of(const Value* p) {
  if (!channelsLast_ || !layoutIsFree(p) || !strategy_.edgesOf(p).empty()) return {};
  auto [known, first] = decided_.try_emplace(p, false);
  if (first) known->second = convolutionStoredIn(p);
  return known->second ? channelsLastLayout_ : Layout{};
}

// Whether a kernel with a convolution reads or writes 4-D tensor `v`.
bool LayoutChoice::convolutionTensor(const Value* v) const {
  if (v->type().shape.size() != 4) return false;
  // Kernel `k` has a convolution and `list`, its inputs or its outputs, holds v.
  const auto touches = [&](const FusedKernel& k, const std::vector<Value*>& list) {
    return std::find(list.begin(), list.end(), v) != list.end() &&
           std::any_of(k.nodes.begin(), k.nodes.end(),
                       [](const Node* n) { return n->op().fusionRole == FusionRole::Convolution; });
  };
  if (const Node* producer = v->producer())
    if (const FusedKernel* k = kernels_.findKernelOf(producer); k && touches(*k, k->outputs)) return true;
  for (const Use& use : v->uses())
    if (const FusedKernel* k = kernels_.findKernelOf(use.user); k && touches(*k, k->inputs)) return true;
  return false;
}

// Whether a convolution's tensor is `p` or a virtual tensor stored in it:
// the tensors a chosen path leads from to `p`, walked backwards.
bool LayoutChoice::convolutionStoredIn(const Value* p) {
  std::vector<const Value*> stack{p};
  std::unordered_set<const Value*> seen{p};
  while (!stack.empty()) {
    const Value* v = stack.back();
    stack.pop_back();
    if (convolutionTensor(v)) return true;
    if (auto in = chosenInto_.find(v); in != chosenInto_.end())
      for (const Value* from : in->second)
        if (seen.insert(from).second) stack.push_back(from);
  }
  return false;
}

} // namespace tcx
