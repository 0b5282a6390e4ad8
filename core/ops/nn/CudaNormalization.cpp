// The CUDA forms of the normalizations. The row-wise ones recompute their
// row's statistics for every element: the fallback form favours being
// obviously right, and library kernels are where speed belongs. They compute
// the statistics as the CPU kernels do (Normalization.h: sums in double, the
// variance about the mean in a second pass), in the same order, so results
// differ from the CPU's only where the GPU contracts a multiply-add.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/nn/CudaForms.h"
#include "ops/nn/Normalization.h"

#include <fmt/format.h>

namespace tcx::nn {

namespace {

// A loop nest over the dimensions [from, rank) of `shape` and the index it
// visits: the output's index before `from`, the loop variables after.
struct RowLoops {
  std::string loops; // for-headers, to put before one statement
  std::vector<std::string> index;
  int64_t count = 1;
};

RowLoops rowLoops(const CudaElementContext& ctx, const Shape& shape, size_t from) {
  RowLoops r;
  r.index.assign(ctx.outIndex.begin(), ctx.outIndex.begin() + static_cast<std::ptrdiff_t>(from));
  for (size_t d = from; d < shape.size(); ++d) {
    const std::string var = fmt::format("_n{}", d);
    r.loops += fmt::format("for (Index {0} = 0; {0} < {1}; ++{0}) ", var, shape[d]);
    r.index.push_back(var);
    r.count *= shape[d];
  }
  return r;
}

// `_mean` and `_invStdDev` (doubles) of the elements of operand 0 the loops
// visit: moments() of Normalization.h.
std::string momentsCode(const CudaElementContext& ctx, const RowLoops& row, double epsilon) {
  const std::string x = ctx.operandAt(0, row.index);
  const double n = static_cast<double>(row.count);
  return fmt::format("double _sum = 0;\n{loops}_sum += double({x});\nconst double _mean = {n} > 0 ? _sum / {n} : 0.0;\n"
                     "double _squares = 0;\n{loops}{{\n  const double _d = double({x}) - _mean;\n"
                     "  _squares += _d * _d;\n}}\nconst double _variance = {n} > 0 ? _squares / {n} : 0.0;\n"
                     "const double _invStdDev = 1.0 / tcx::op::Sqrt(_variance + {eps});\n",
                     fmt::arg("loops", row.loops), fmt::arg("x", x), fmt::arg("n", n), fmt::arg("eps", epsilon));
}

double epsilonOf(const Node& node) { return node.attrs().getFloat("epsilon", 1e-5f); }

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
std::string layerNormElement(const CudaElementContext& ctx) {
  const Node& node = ctx.node;
  const Shape& x = node.input(0)->type().shape;
  const LayerNormDims dims = layerNormDims(x, node.attrs());
  std::string code = momentsCode(ctx, rowLoops(ctx, x, static_cast<size_t>(dims.axis)), epsilonOf(node)) +
                     "const float _mu = float(_mean), _inv = float(_invStdDev);\n";
  if (ctx.output == 1) return code + "out = _mu;\n";
  if (ctx.output == 2) return code + "out = _inv;\n";
  auto param = [&](size_t i) {
    return fmt::format("float({})", ctx.operandAt(i, trailingIndex(ctx, node.input(i)->type().shape)));
  };
  const bool hasBias = node.numInputs() > 2 && node.input(2);
  return code + fmt::format("out = {}((float({}) - _mu) * _inv * {} + {});\n", ctx.resultType,
                            ctx.operandAt(0, ctx.outIndex), param(1), hasBias ? param(2) : "0.0f");
}

// InstanceNormalization: per (image, channel) plane, folded into one
// multiply-add of the compute type as on the CPU.
std::string instanceNormElement(const CudaElementContext& ctx) {
  const std::vector<std::string> c{ctx.outIndex[1]};
  return momentsCode(ctx, rowLoops(ctx, ctx.node.input(0)->type().shape, 2), epsilonOf(ctx.node)) +
         fmt::format("const {T} _a = {T}(double({scale}) * _invStdDev);\n"
                     "const {T} _b = {T}(double({bias}) - _mean * double(_a));\nout = {T}({x}) * _a + _b;\n",
                     fmt::arg("T", ctx.resultType), fmt::arg("scale", ctx.operandAt(1, c)),
                     fmt::arg("bias", ctx.operandAt(2, c)), fmt::arg("x", ctx.operandAt(0, ctx.outIndex)));
}

// LpNormalization: this element over the L1 or L2 norm of its line along
// the axis, summed in the compute type.
std::string lpNormElement(const CudaElementContext& ctx) {
  const AttrMap& attrs = ctx.node.attrs();
  const AxisView v = axisView(ctx.node.input(0)->type().shape, attrs);
  const bool l1 = normOrder(attrs) == 1;
  std::vector<std::string> line = ctx.outIndex;
  line[v.axis] = "_k";
  return fmt::format("{T} _norm = 0;\nfor (Index _k = 0; _k < {n}; ++_k) {{\n  const {T} _e = {x};\n"
                     "  _norm += {term};\n}}\nout = {self} / {finish};\n",
                     fmt::arg("T", ctx.resultType), fmt::arg("n", v.n), fmt::arg("x", ctx.operandAt(0, line)),
                     fmt::arg("term", l1 ? "tcx::op::Abs(_e)" : "_e * _e"),
                     fmt::arg("self", ctx.operandAt(0, ctx.outIndex)),
                     fmt::arg("finish", l1 ? "_norm" : "tcx::op::Sqrt(_norm)"));
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

} // namespace

void registerNormalizationCudaForms(OpRegistry& registry) {
  registry.edit("BatchNormalization").cudaElement = batchNormElement;
  registry.edit("LayerNormalization").cudaElement = layerNormElement;
  registry.edit("InstanceNormalization").cudaElement = instanceNormElement;
  registry.edit("LpNormalization").cudaElement = lpNormElement;
}

} // namespace tcx::nn
