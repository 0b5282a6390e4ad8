// Gemm and MatMul on the library GEMMs: every transpose, alpha and beta, a
// bias broadcast from a row, a column or a scalar, fp32 rows few enough for
// gemm_small_m_f32 (both of its mappings of B) and too many (gemm_tiled's
// 3xTF32, K split), 16-bit types on gemm_small_m and gemm_tiled,
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
  // 33 and 200 rows take gemm_tiled with K split in two (one or two 128-row tiles, the second ragged).
  for (int64_t m : {1, 5, 16, 33, 200}) cases.push_back(gemmCase(DType::F32, m));
  for (DType dtype : {DType::F16, DType::BF16})
    for (int64_t m : {9, 100}) cases.push_back(gemmCase(dtype, m));
  return cases;
}

} // namespace tcx::test
