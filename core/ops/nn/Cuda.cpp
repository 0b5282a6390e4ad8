// The CUDA form of this family's ops: one output element per thread (a dot
// product, a window, a row's statistics). The library GEMM, convolution and
// attention kernels (kernels/include/tcx) replace these for the fused
// kernels that matter; this form is what any plan can fall back on. Here
// the matrix products; the other concepts have files of their own
// (CudaForms.h).

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/nn/CudaForms.h"
#include "ops/nn/Ops.h"

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
  return fmt::format("typedef {T} _T;\n_T _acc = 0;\nfor (Index _k = 0; _k < {K}; ++_k) _acc += _T({A}) * _T({B});\n"
                     "out = _acc;\n",
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
      fmt::format("typedef {T} _T;\n_T _acc = 0;\nfor (Index _k = 0; _k < {K}; ++_k) _acc += _T({A}) * _T({B});\n"
                  "out = _T({alpha}) * _acc;\n",
                  fmt::arg("T", ctx.resultType), fmt::arg("K", k), fmt::arg("A", aAt), fmt::arg("B", bAt),
                  fmt::arg("alpha", static_cast<double>(attrs.getFloat("alpha", 1.0f))));
  if (ctx.node.numInputs() > 2 && ctx.node.input(2)) {
    const Shape& c = ctx.node.input(2)->type().shape;
    std::vector<std::string> cIndex;
    for (size_t d = 0; d < c.size(); ++d)
      cIndex.push_back(c[d] == 1 ? "0" : ctx.outIndex[2 - c.size() + d]);
    code += fmt::format("out += _T({}) * _T({});\n", static_cast<double>(attrs.getFloat("beta", 1.0f)),
                        ctx.operandAt(2, cIndex));
  }
  return code;
}

} // namespace

void registerCudaForms(OpRegistry& registry) {
  registry.edit("MatMul").cudaElement = matMulElement;
  registry.edit("Gemm").cudaElement = gemmElement;
  registerConvolutionCudaForms(registry);
  registerPoolingCudaForms(registry);
  registerNormalizationCudaForms(registry);
}

} // namespace tcx::nn
