// Gemm and MatMul on the library GEMMs: every transpose, alpha and beta, a
// bias broadcast from a row, a column or a scalar, fp32 rows few enough for
// gemm_small_m_f32 (both of its mappings of B) and too many, 16-bit types,
// and operands read through a virtual (transposed) view.

#include "CaseSupport.h"

namespace tcx::test {

namespace {

OpCase gemmCase(DType dtype, int64_t m) {
  return {caseName("Gemm_m" + std::to_string(m), dtype), [=] {
            GraphBuilder b("gemm");
            const int64_t k = 300, n = 70;
            // transB, a bias per column: a classifier (B k-contiguous).
            b.output(b.op("Gemm", {b.input("x", dtype, {m, k}), b.input("w", dtype, {n, k}), b.input("bias", dtype, {n})},
                          attrs({{"transB", int64_t{1}}})));
            // transA, scaled, a bias per row (B n-contiguous).
            b.output(b.op("Gemm", {b.input("xt", dtype, {k, m}), b.input("w2", dtype, {k, n}),
                                   b.input("c", dtype, {m, 1})},
                          attrs({{"transA", int64_t{1}}, {"alpha", 0.5f}, {"beta", -2.0f}})));
            // A scalar bias, no transposes, A through a transposed view.
            b.output(b.op("Gemm", {feed(b, "v", dtype, {m, k}, Feed::Transposed), b.input("w3", dtype, {k, n}),
                                   b.input("s", dtype, {})}));
            // NumPy-batched MatMul over a shared weight.
            b.output(b.op("MatMul", {b.input("h", dtype, {2, m, k}), b.input("w4", dtype, {k, n})}));
            return b.finish();
          }};
}

} // namespace

std::vector<OpCase> gemmCases() {
  std::vector<OpCase> cases;
  for (int64_t m : {1, 5, 16, 33}) cases.push_back(gemmCase(DType::F32, m));
  for (DType dtype : {DType::F16, DType::BF16}) cases.push_back(gemmCase(dtype, 9));
  return cases;
}

} // namespace tcx::test
