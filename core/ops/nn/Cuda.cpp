// The CUDA form of this family's ops: one output element per thread (a dot
// product, a window). The library GEMM and attention kernels
// (kernels/include/tcx) replace these for the fused kernels that matter;
// this form is what any plan can fall back on.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/nn/Ops.h"
#include "ops/nn/Window.h"

#include <fmt/format.h>

namespace tcx::nn {

namespace {

// MatMul with NumPy's rules: 1-D operands gain a dimension that the result
// drops, batch dimensions broadcast.
std::string matMulElement(const CudaElementContext& ctx) {
  const Shape& a = ctx.node.input(0)->type().shape;
  const Shape& b = ctx.node.input(1)->type().shape;
  const size_t outRank = ctx.outIndex.size();
  const bool aVector = a.size() == 1, bVector = b.size() == 1;
  // The output's m and n index names ("0" for a dropped dimension).
  std::string n = bVector ? "0" : ctx.outIndex[outRank - 1];
  std::string m = aVector ? "0" : ctx.outIndex[outRank - (bVector ? 1 : 2)];
  const size_t batchRank = outRank - (aVector ? 0 : 1) - (bVector ? 0 : 1);
  auto operandIndex = [&](const Shape& s, bool vector, const std::string& row, const std::string& col) {
    std::vector<std::string> index;
    if (vector) return std::vector<std::string>{"_k"};
    const size_t batch = s.size() - 2;
    for (size_t d = 0; d < batch; ++d)
      index.push_back(s[d] == 1 ? "0" : ctx.outIndex[batchRank - batch + d]);
    index.push_back(row);
    index.push_back(col);
    return index;
  };
  return fmt::format("{T} _acc = 0;\nfor (Index _k = 0; _k < {K}; ++_k) _acc += {T}({A}) * {T}({B});\nout = _acc;\n",
                     fmt::arg("T", ctx.resultType), fmt::arg("K", a.back()),
                     fmt::arg("A", ctx.operandAt(0, operandIndex(a, aVector, m, "_k"))),
                     fmt::arg("B", ctx.operandAt(1, operandIndex(b, bVector, "_k", n))));
}

// Gemm: alpha * A' B' + beta * C, A' and B' optionally transposed, C
// broadcast to [M, N].
std::string gemmElement(const CudaElementContext& ctx) {
  const AttrMap& attrs = ctx.node.attrs();
  const bool transA = attrs.getInt("transA", 0) != 0, transB = attrs.getInt("transB", 0) != 0;
  const Shape& a = ctx.node.input(0)->type().shape;
  const int64_t k = transA ? a[0] : a[1];
  const std::string& m = ctx.outIndex[0];
  const std::string& n = ctx.outIndex[1];
  std::string aAt = transA ? ctx.operandAt(0, {"_k", m}) : ctx.operandAt(0, {m, "_k"});
  std::string bAt = transB ? ctx.operandAt(1, {n, "_k"}) : ctx.operandAt(1, {"_k", n});
  std::string code =
      fmt::format("{T} _acc = 0;\nfor (Index _k = 0; _k < {K}; ++_k) _acc += {T}({A}) * {T}({B});\n"
                  "out = {T}({alpha}) * _acc;\n",
                  fmt::arg("T", ctx.resultType), fmt::arg("K", k), fmt::arg("A", aAt), fmt::arg("B", bAt),
                  fmt::arg("alpha", static_cast<double>(attrs.getFloat("alpha", 1.0f))));
  if (ctx.node.numInputs() > 2 && ctx.node.input(2)) {
    const Shape& c = ctx.node.input(2)->type().shape;
    std::vector<std::string> cIndex;
    for (size_t d = 0; d < c.size(); ++d)
      cIndex.push_back(c[d] == 1 ? "0" : ctx.outIndex[2 - c.size() + d]);
    code += fmt::format("out += {}({}) * {}({});\n", ctx.resultType, static_cast<double>(attrs.getFloat("beta", 1.0f)),
                        ctx.resultType, ctx.operandAt(2, cIndex));
  }
  return code;
}

// Conv over N spatial dimensions: sum over the group's channels and the
// window's taps inside the input (padding reads zero).
std::string convElement(const CudaElementContext& ctx) {
  const Shape& x = ctx.node.input(0)->type().shape;
  const Shape& w = ctx.node.input(1)->type().shape;
  const size_t spatial = x.size() - 2;
  const WindowAttrs window =
      readWindowAttrs(ctx.node.attrs(), static_cast<int64_t>(spatial), std::vector<int64_t>(w.begin() + 2, w.end()));
  const WindowPlacement place = placeWindow(window, std::vector<int64_t>(x.begin() + 2, x.end()));
  const int64_t group = ctx.node.attrs().getInt("group", 1);
  const int64_t groupChannels = w[1], groupFilters = w[0] / group;
  std::string loops = fmt::format("for (Index _c = 0; _c < {}; ++_c) ", groupChannels);
  std::string inBounds = "true";
  std::vector<std::string> xIndex{ctx.outIndex[0], fmt::format("{} / {} * {} + _c", ctx.outIndex[1], groupFilters,
                                                               groupChannels)};
  std::vector<std::string> wIndex{ctx.outIndex[1], "_c"};
  std::string coords;
  for (size_t d = 0; d < spatial; ++d) {
    std::string tap = fmt::format("_t{}", d), pos = fmt::format("_p{}", d);
    loops += fmt::format("for (Index {0} = 0; {0} < {1}; ++{0}) ", tap, window.kernel[d]);
    coords += fmt::format("const Index {} = {} * {} - {} + {} * {};\n", pos, ctx.outIndex[2 + d], window.strides[d],
                          place.padsBegin[d], tap, window.dilations[d]);
    inBounds += fmt::format(" && {0} >= 0 && {0} < {1}", pos, x[2 + d]);
    xIndex.push_back(pos);
    wIndex.push_back(tap);
  }
  std::string body = fmt::format("{}if ({}) _acc += {}({}) * {}({});\n", coords, inBounds, ctx.resultType,
                                 ctx.operandAt(0, xIndex), ctx.resultType, ctx.operandAt(1, wIndex));
  std::string bias = ctx.node.numInputs() > 2 && ctx.node.input(2) ? ctx.operandAt(2, {ctx.outIndex[1]}) : "0";
  return fmt::format("{T} _acc = 0;\n{loops}{{\n{body}}}\nout = _acc + {T}({bias});\n", fmt::arg("T", ctx.resultType),
                     fmt::arg("loops", loops), fmt::arg("body", body), fmt::arg("bias", bias));
}

// BatchNormalization at inference: per channel (dimension 1) statistics.
std::string batchNormElement(const CudaElementContext& ctx) {
  std::vector<std::string> c{ctx.outIndex.size() > 1 ? ctx.outIndex[1] : "0"};
  double epsilon = ctx.node.attrs().getFloat("epsilon", 1e-5f);
  return fmt::format("out = ({T}({x}) - {T}({mean})) / tcx::op::Sqrt({T}({var}) + {T}({eps})) * {T}({scale}) + "
                     "{T}({bias});\n",
                     fmt::arg("T", ctx.resultType), fmt::arg("x", ctx.operandAt(0, ctx.outIndex)),
                     fmt::arg("mean", ctx.operandAt(3, c)), fmt::arg("var", ctx.operandAt(4, c)),
                     fmt::arg("eps", epsilon), fmt::arg("scale", ctx.operandAt(1, c)),
                     fmt::arg("bias", ctx.operandAt(2, c)));
}

// GlobalAveragePool: the mean over every spatial position.
std::string globalAveragePoolElement(const CudaElementContext& ctx) {
  const Shape& x = ctx.node.input(0)->type().shape;
  std::string loops;
  std::vector<std::string> index{ctx.outIndex[0], ctx.outIndex[1]};
  int64_t count = 1;
  for (size_t d = 2; d < x.size(); ++d) {
    loops += fmt::format("for (Index _s{0} = 0; _s{0} < {1}; ++_s{0}) ", d, x[d]);
    index.push_back(fmt::format("_s{}", d));
    count *= x[d];
  }
  return fmt::format("{T} _acc = 0;\n{loops}_acc += {T}({x});\nout = _acc / {T}({count});\n",
                     fmt::arg("T", ctx.resultType), fmt::arg("loops", loops), fmt::arg("x", ctx.operandAt(0, index)),
                     fmt::arg("count", count));
}

} // namespace

void registerCudaForms(OpRegistry& registry) {
  registry.edit("MatMul").cudaElement = matMulElement;
  registry.edit("Gemm").cudaElement = gemmElement;
  registry.edit("Conv").cudaElement = convElement;
  registry.edit("BatchNormalization").cudaElement = batchNormElement;
  registry.edit("GlobalAveragePool").cudaElement = globalAveragePoolElement;
}

} // namespace tcx::nn
