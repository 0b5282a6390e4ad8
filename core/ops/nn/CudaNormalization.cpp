// The CUDA forms of the normalizations. LayerNormalization,
// InstanceNormalization and LpNormalization are row forms (ops/CudaLowering.h
// CudaRowForm). The first two compute their moments as the CPU kernels do
// (Normalization.h: sums in double, the variance about the mean in a second
// pass), so results differ from the CPU's only in the order of the sums and
// where the GPU contracts a multiply-add; LpNormalization sums in the compute
// type, as the CPU does.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/nn/CudaForms.h"
#include "ops/nn/Normalization.h"

#include <fmt/format.h>

namespace tcx::nn {

namespace {

double epsilonOf(const Node& node) { return node.attrs().getFloat("epsilon", 1e-5f); }

// Normalization.h's moments() as row statistics: the mean, then the inverse
// standard deviation from the squares about it, in double.
std::vector<CudaRowStatistic> moments(double epsilon) {
  return {{"double", "_mean", "0.0", "_v", "_acc + _m", "_count > 0 ? _acc / double(_count) : 0.0"},
          {"double", "_invStdDev", "0.0", "(_v - _mean) * (_v - _mean)", "_acc + _m",
           fmt::format("1.0 / tcx::op::Sqrt((_count > 0 ? _acc / double(_count) : 0.0) + {})", epsilon)}};
}

// The moments over the dimensions [from, rank) of operand 0, elements read
// as double; `element` computes `out` from them.
CudaRowForm momentsRow(const CudaElementContext& ctx, size_t from, std::string element) {
  const Node& node = ctx.node;
  CudaRowForm form;
  form.types = "typedef double _T;\n";
  form.shape = node.input(0)->type().shape;
  for (size_t d = from; d < form.shape.size(); ++d) form.rowDims.push_back(d);
  form.valueAt = [at = ctx.operandAt](const std::vector<std::string>& index) { return at(0, index); };
  form.statistics = moments(epsilonOf(node));
  form.element = std::move(element);
  form.rowWise = ctx.output == 0;
  return form;
}

// The index of an operand that broadcasts to the output from the right
// (LayerNormalization's Scale and B): size-1 dimensions read element 0.
std::vector<std::string> trailingIndex(const CudaElementContext& ctx, const Shape& operand) {
  std::vector<std::string> index;
  const size_t offset = ctx.outIndex.size() - operand.size();
  for (size_t d = 0; d < operand.size(); ++d) index.push_back(operand[d] == 1 ? "0" : ctx.outIndex[offset + d]);
  return index;
}

// LayerNormalization: the statistics rounded to float, the stash type, and
// Y computed in float whatever X's type, as on the CPU. Output 1 is Mean and
// output 2 InvStdDev.
CudaRowForm layerNormRow(const CudaElementContext& ctx) {
  const Node& node = ctx.node;
  const LayerNormDims dims = layerNormDims(node.input(0)->type().shape, node.attrs());
  std::string element = "const float _mu = float(_mean), _inv = float(_invStdDev);\n";
  if (ctx.output == 1) {
    element += "out = _mu;\n";
  } else if (ctx.output == 2) {
    element += "out = _inv;\n";
  } else {
    auto param = [&](size_t i) {
      return fmt::format("float({})", ctx.operandAt(i, trailingIndex(ctx, node.input(i)->type().shape)));
    };
    const bool hasBias = node.numInputs() > 2 && node.input(2);
    element += fmt::format("out = {}((float({}) - _mu) * _inv * {} + {});\n", ctx.resultType,
                           ctx.operandAt(0, ctx.outIndex), param(1), hasBias ? param(2) : "0.0f");
  }
  return momentsRow(ctx, static_cast<size_t>(dims.axis), std::move(element));
}

// InstanceNormalization: per (image, channel) plane, folded into one
// multiply-add of the compute type as on the CPU.
CudaRowForm instanceNormRow(const CudaElementContext& ctx) {
  const std::vector<std::string> c{ctx.outIndex[1]};
  return momentsRow(ctx, 2,
                    fmt::format("const {T} _a = {T}(double({scale}) * _invStdDev);\n"
                                "const {T} _b = {T}(double({bias}) - _mean * double(_a));\nout = {T}({x}) * _a + _b;\n",
                                fmt::arg("T", ctx.resultType), fmt::arg("scale", ctx.operandAt(1, c)),
                                fmt::arg("bias", ctx.operandAt(2, c)), fmt::arg("x", ctx.operandAt(0, ctx.outIndex))));
}

// LpNormalization: this element over the L1 or L2 norm of its line along
// the axis, summed in the compute type.
CudaRowForm lpNormRow(const CudaElementContext& ctx) {
  const Node& node = ctx.node;
  const bool l1 = normOrder(node.attrs()) == 1;
  CudaRowForm form;
  form.types = fmt::format("typedef {} _T;\n", ctx.resultType);
  form.shape = node.input(0)->type().shape;
  form.rowDims = {static_cast<size_t>(axisView(form.shape, node.attrs()).axis)};
  form.valueAt = [at = ctx.operandAt](const std::vector<std::string>& index) { return at(0, index); };
  form.statistics = {{"_T", "_norm", "_T(0)", l1 ? "tcx::op::Abs(_v)" : "_v * _v", "_acc + _m",
                      l1 ? "_acc" : "tcx::op::Sqrt(_acc)"}};
  form.element = fmt::format("out = _T({}) / _norm;\n", ctx.operandAt(0, ctx.outIndex));
  return form;
}

// BatchNormalization at inference: per channel (dimension 1) statistics.
std::string batchNormElement(const CudaElementContext& ctx) {
  std::vector<std::string> c{ctx.outIndex.size() > 1 ? ctx.outIndex[1] : "0"};
  return fmt::format("out = ({T}({x}) - {T}({mean})) / tcx::op::Sqrt({T}({var}) + {T}({eps})) * {T}({scale}) + "
                     "{T}({bias});\n",
                     fmt::arg("T", ctx.resultType), fmt::arg("x", ctx.operandAt(0, ctx.outIndex)),
                     fmt::arg("mean", ctx.operandAt(3, c)), fmt::arg("var", ctx.operandAt(4, c)),
                     fmt::arg("eps", epsilonOf(ctx.node)), fmt::arg("scale", ctx.operandAt(1, c)),
                     fmt::arg("bias", ctx.operandAt(2, c)));
}

// The same map as scale / sqrt(var + epsilon) and bias - mean * that.
CudaChannelAffine batchNormChannelAffine(const CudaElementContext& ctx, const std::string& scaleName) {
  const std::vector<std::string> c{ctx.outIndex.at(1)};
  return {fmt::format("{T}({scale}) / tcx::op::Sqrt({T}({var}) + {T}({eps}))", fmt::arg("T", ctx.resultType),
                      fmt::arg("scale", ctx.operandAt(1, c)), fmt::arg("var", ctx.operandAt(4, c)),
                      fmt::arg("eps", epsilonOf(ctx.node))),
          fmt::format("{T}({bias}) - {T}({mean}) * {a}", fmt::arg("T", ctx.resultType),
                      fmt::arg("bias", ctx.operandAt(2, c)), fmt::arg("mean", ctx.operandAt(3, c)),
                      fmt::arg("a", scaleName))};
}

} // namespace

void registerNormalizationCudaForms(OpRegistry& registry) {
  registry.edit("BatchNormalization").cudaElement = batchNormElement;
  registry.edit("BatchNormalization").cudaElementPointwise = true;
  registry.edit("BatchNormalization").cudaChannelAffine = batchNormChannelAffine;
  setCudaRowForm(registry.edit("LayerNormalization"), layerNormRow);
  setCudaRowForm(registry.edit("InstanceNormalization"), instanceNormRow);
  setCudaRowForm(registry.edit("LpNormalization"), lpNormRow);
}

} // namespace tcx::nn
