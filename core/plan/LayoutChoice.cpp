#include "plan/LayoutChoice.h"

#include "ops/OpDef.h"
#include "plan/StridedView.h"

#include <algorithm>

namespace tcx {

namespace {

// A tensor whose storage the plan decides: an intermediate (graph inputs and
// outputs are the caller's, constants are initialisers), 2-D images.
bool layoutIsFree(const Value* v) {
  return v->type().shape.size() == 4 && !v->isGraphInput() && !v->isGraphOutput() && !v->isConstant();
}

// Whether a convolution runs on cuDNN's channels-last tensor-core kernels
// (or the channels-last tf32 GEMM of 1x1s) once its tensors are stored so:
// a dense one reading wide pixels and writing at least 32 channels
// (ResNet's, ResNeXt's, DenseNet's 1x1s and its 3x3s to 32 growth
// channels), reading a strided view (not ShuffleNet's shuffled channels).
// Grouped and depthwise ones (MobileNet, EfficientNet, RegNet, ConvNeXt)
// and dense ones reading narrow pixels (SqueezeNet's expands) run on
// generated kernels, which are faster as stated. DenseNet-121's 3x3s once
// counted as narrow, which left it as exported at 32 images though
// channels-last measured 5599.3 us against 5967.8 (H100, docs/benchmarks.md).
// A window wider than 1x1 over a slice of a larger tensor's channels (the
// YOLOv11 C3K2 block's bottleneck reading half of cv1's output in place) is
// not favoured: cuDNN ran it channels-last only as IMPLICIT_GEMM (3105 us
// against 255 on a dense copy, H200) and the generated kernel, copying
// channels-last windows without its 16-byte copies, took 510 us against 332
// as exported (docs/benchmarks.md). A 1x1 reads such a slice as the tf32
// GEMM's k-contiguous operand (DenseNet's concatenation prefixes).
bool favoursChannelsLast(const FusedKernel& k, const Node& conv, const PointsToGraph& strategy) {
  constexpr int64_t kWideIn = 64, kWideOut = 32;
  const Shape &x = conv.input(0)->type().shape, &y = conv.output(0)->type().shape;
  const Shape& w = conv.input(1)->type().shape;
  if (conv.attrs().getInt("group", 1) != 1 || x.size() != 4 || y.size() != 4 || x[1] < kWideIn || y[1] < kWideOut)
    return false;
  if (std::find(k.inputs.begin(), k.inputs.end(), conv.input(0)) == k.inputs.end()) return true;
  const std::optional<StridedView> view = stridedView(strategy.resolve(conv.input(0)).mapping);
  const bool pointwise = w.size() == 4 && w[2] * w[3] == 1;
  return view && (pointwise || (view->offset == 0 && hasPackedStrides(*view, x)));
}

bool isDepthwise(const Node& conv) {
  const int64_t groups = conv.attrs().getInt("group", 1);
  return groups > 1 && groups == conv.input(0)->type().shape[1];
}

// LayoutPolicy::Auto: the whole model channels-last or none of it. A plan
// that stores only the tensors of favoured convolutions channels-last
// transposes wherever the two layouts meet, and on an H100 that cost more
// than either gained (ResNeXt-50 at 32 images: 6012.7 us mixed against
// 5140.1 as exported in one call, 4582.6 all channels-last in another;
// docs/benchmarks.md). So channels-last where nearly all the convolutions'
// work runs on cuDNN's channels-last kernels, no depthwise convolution
// would lose its generated kernel, and there is work enough to fill the
// GPU. The share is set from the nine CNNs of the real-model suite measured
// both ways at 32 images: ResNet-18 (93% favoured) and ResNeXt-50 (92%)
// gained 1.30x and 1.12x; RegNetY-400MF (71%) lost 1.32x; DenseNet-121
// gained 1.03x then, 1.07x once its 1x1s ran on the tf32 GEMM. The work: at batch 1
// (3.4 and 7.8 GFLOP favoured, against 109 and 248 at 32 images) the
// generated kernels were faster as exported (ResNet-18 304.8 against 321.9
// us channels-last, ResNeXt-50 723.9 against 1122.7).
bool modelFavoursChannelsLast(const KernelGraph& kernels, const PointsToGraph& strategy) {
  double favoured = 0, all = 0;
  for (const FusedKernel& k : kernels.kernels())
    for (const Node* n : k.nodes) {
      if (n->op().fusionRole != FusionRole::Convolution) continue;
      if (isDepthwise(*n)) return false;
      const double flops = n->op().flops ? n->op().flops(*n) : 0;
      all += flops;
      if (favoursChannelsLast(k, *n, strategy)) favoured += flops;
    }
  constexpr double kFavouredShare = 0.8, kMinFavouredFlops = 32e9;
  return all > 0 && favoured >= kFavouredShare * all && favoured >= kMinFavouredFlops;
}

} // namespace

std::unordered_map<const Value*, Layout> chooseLayouts(const KernelGraph& kernels, const PointsToGraph& strategy,
                                                       LayoutPolicy policy) {
  std::unordered_map<const Value*, Layout> layouts;
  switch (policy) {
  case LayoutPolicy::AsExported: return layouts;
  case LayoutPolicy::ChannelsLast: break;
  case LayoutPolicy::Auto:
    if (!modelFavoursChannelsLast(kernels, strategy)) return layouts;
    break;
  }
  for (const FusedKernel& k : kernels.kernels()) {
    if (!std::any_of(k.nodes.begin(), k.nodes.end(),
                     [](const Node* n) { return n->op().fusionRole == FusionRole::Convolution; }))
      continue;
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
