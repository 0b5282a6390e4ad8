// The CUDA forms of the pools: each output element folds its window (or its
// whole plane, for the global pools), visiting taps in the CPU kernels'
// order so that ties and sums come out the same.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/nn/CudaForms.h"
#include "ops/nn/CudaWindow.h"
#include "ops/nn/Pooling.h"

#include <fmt/format.h>

namespace tcx::nn {

namespace {

// The window of a MaxPool or AveragePool node at this output element, and
// the index of X it reads at the current taps.
struct PoolWindow {
  PoolPlan plan;
  CudaWindow window;
  std::vector<std::string> xIndex;
};

PoolWindow poolWindow(const CudaElementContext& ctx) {
  PoolWindow p{planPool(ctx.node.input(0)->type().shape, ctx.node.attrs()), {}, {}};
  p.window =
      cudaWindow(p.plan, p.plan.padsEnd, {ctx.outIndex.begin() + 2, ctx.outIndex.end()}, WindowDirection::Forward);
  p.xIndex = {ctx.outIndex[0], ctx.outIndex[1]};
  p.xIndex.insert(p.xIndex.end(), p.window.input.begin(), p.window.input.end());
  return p;
}

// MaxPool: the largest input under the window, ignoring the padding; the
// first of equal ones, and the first tap when the rest are NaN, as on the
// CPU. Indices (output 1) is where it is: the offset into X, with the
// spatial part row-major or, for storage_order 1, column-major; -1 for a
// window that lies in the padding entirely.
std::string maxPoolElement(const CudaElementContext& ctx) {
  const PoolWindow p = poolWindow(ctx);
  const Dims3& in = p.plan.inputSize;
  std::vector<std::string> at(3 - p.window.input.size(), "0"); // the position in X's spatial Dims3
  at.insert(at.end(), p.window.input.begin(), p.window.input.end());
  const std::string offset = columnMajorIndices(ctx.node.attrs())
                                 ? fmt::format("{} + {}LL * ({} + {}LL * {})", at[0], in[0], at[1], in[1], at[2])
                                 : fmt::format("({} * {}LL + {}) * {}LL + {}", at[0], in[1], at[1], in[2], at[2]);
  const std::string result = ctx.output == 0
                                 ? "_best"
                                 : fmt::format("_at < 0 ? -1LL : ({} * {}LL + {}) * {}LL + _at", ctx.outIndex[0],
                                               p.plan.output[1], ctx.outIndex[1], volume(in));
  const std::string zeros = ctx.operandAt(0, std::vector<std::string>(p.xIndex.size(), "0"));
  return fmt::format("typedef decltype({zeros}) _X;\n_X _best = tcx::op::Limits<_X>::lowest();\nlong long _at = -1;\n"
                     "{loops}{{\n{positions}if ({inside}) {{\n  const _X _v = {x};\n"
                     "  if (_v > _best || _at < 0) {{\n    _best = _v;\n    _at = {offset};\n  }}\n}}\n}}\n"
                     "out = {result};\n",
                     fmt::arg("zeros", zeros), fmt::arg("loops", p.window.loops),
                     fmt::arg("positions", p.window.positions), fmt::arg("inside", p.window.inside),
                     fmt::arg("x", ctx.operandAt(0, p.xIndex)), fmt::arg("offset", offset), fmt::arg("result", result));
}

// AveragePool: the mean of the taps inside X; the divisor counts the taps
// in the padding too with count_include_pad (but never those past it). A
// window in the padding entirely averages nothing: NaN, as on the CPU.
std::string averagePoolElement(const CudaElementContext& ctx) {
  const PoolWindow p = poolWindow(ctx);
  const bool includePad = ctx.node.attrs().getInt("count_include_pad", 0) != 0;
  return fmt::format("{T} _sum = 0;\nlong long _n = 0;\n{loops}{{\n{positions}if ({inside}) _sum += {T}({x});\n"
                     "if ({counted}) ++_n;\n}}\nout = _sum / {T}(_n);\n",
                     fmt::arg("T", ctx.resultType), fmt::arg("loops", p.window.loops),
                     fmt::arg("positions", p.window.positions), fmt::arg("inside", p.window.inside),
                     fmt::arg("x", ctx.operandAt(0, p.xIndex)),
                     fmt::arg("counted", includePad ? p.window.insidePadded : p.window.inside));
}

// GlobalAveragePool and GlobalMaxPool: the mean or the maximum of the
// plane. The maximum is std::max's (a NaN after the first element is
// skipped), as on the CPU.
CudaElementFn globalPoolElement(bool max) {
  return [max](const CudaElementContext& ctx) {
    const Shape& x = ctx.node.input(0)->type().shape;
    std::string loops;
    std::vector<std::string> index{ctx.outIndex[0], ctx.outIndex[1]};
    int64_t count = 1;
    for (size_t d = 2; d < x.size(); ++d) {
      loops += fmt::format("for (Index _s{0} = 0; _s{0} < {1}; ++_s{0}) ", d, x[d]);
      index.push_back(fmt::format("_s{}", d));
      count *= x[d];
    }
    return fmt::format("{T} _r = {init};\n{loops}{{\n  const {T} _v = {x};\n  _r = {fold};\n}}\nout = {finish};\n",
                       fmt::arg("T", ctx.resultType),
                       fmt::arg("init", max ? fmt::format("tcx::op::Limits<{}>::lowest()", ctx.resultType) : "0"),
                       fmt::arg("loops", loops), fmt::arg("x", ctx.operandAt(0, index)),
                       fmt::arg("fold", max ? "_r < _v ? _v : _r" : "_r + _v"),
                       fmt::arg("finish", max ? "_r" : fmt::format("_r / {}({})", ctx.resultType, count)));
  };
}

} // namespace

void registerPoolingCudaForms(OpRegistry& registry) {
  registry.edit("MaxPool").cudaElement = maxPoolElement;
  registry.edit("AveragePool").cudaElement = averagePoolElement;
  registry.edit("GlobalAveragePool").cudaElement = globalPoolElement(false);
  registry.edit("GlobalMaxPool").cudaElement = globalPoolElement(true);
}

} // namespace tcx::nn
