// Gemm and MatMul on the library GEMMs: every transpose, alpha and beta, a
// bias broadcast from a row, a column or a scalar, fp32 rows few enough for
// gemm_small_m in 3xTF32 (both of its mappings of B) and too many (gemm_tiled's
// small tiles in 3xTF32, K split; products enough for gemm_wgmma_f32 on Hopper,
// B n- and k-contiguous), 16-bit types on gemm_small_m and gemm_tiled,
// operands read through a virtual (transposed) view, and a shared weight
// under batches that do not fold into rows.

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

// A linear layer over a sequence-first view of a batch-first tensor, as
// PyTorch's multi-head attention reads its input: once VTC folds the
// Transpose into the MatMul's operand, the rows fold in memory order ([7, 4,
// 64] as one GEMM of 28 rows, [7, 40, 64] of 280, the epilogue putting each
// row back); with the sequence sliced out of a longer one they fold in
// neither order, and the GEMM runs once per batch with the weight shared
// (B's batch stride 0).
OpCase sequenceFirstCase(DType dtype) {
  return {caseName("MatMul sequence-first", dtype), [=] {
            GraphBuilder b("sequence_first");
            for (int64_t batch : {4, 40}) {
              const std::string n = std::to_string(batch);
              Value* x = b.input("x" + n, dtype, {batch, 7, 64});
              Value* seqFirst = b.op("Transpose", {x}, attrs({{"perm", Ints{1, 0, 2}}}));
              Value* y = b.op("MatMul", {seqFirst, b.input("w" + n, dtype, {64, 48})});
              b.output(b.op("Add", {y, b.input("bias" + n, dtype, {48})}));
            }
            Value* longer = b.input("long", dtype, {4, 10, 64});
            Value* sliced = b.op("Slice", {longer, b.ints("starts", {0}), b.ints("ends", {7}), b.ints("axes", {1})});
            Value* seqFirst = b.op("Transpose", {sliced}, attrs({{"perm", Ints{1, 0, 2}}}));
            b.output(b.op("MatMul", {seqFirst, b.input("w_long", dtype, {64, 48})}));
            return b.finish();
          }};
}

// Float linear layers for Hopper's gemm_wgmma_f32 (A with k and B with n or
// k contiguous, K at least kWgmmaMinK), each with products enough that
// planGemm does not take gemm_tiled's small tiles (tiledRowsFor), at every
// edge of its tiles: 8 x 1000 rows (a ragged eighth tile of 128) by 76
// columns by 300 (a ragged last stage of 32), a bias in the epilogue; the
// same rows as a transB Gemm (B k-contiguous); 130 x 130 x 8320 over a
// weight sliced from 136 columns (rows 16-byte aligned), so that the last
// float4 of B's rows is partly outside, with K split to fill the
// multiprocessors.
OpCase wgmmaCase() {
  return {caseName("MatMul on wgmma", DType::F32), [] {
            GraphBuilder b("wgmma");
            Value* h = b.op("MatMul", {b.input("h", DType::F32, {8, 1000, 300}), b.input("w", DType::F32, {300, 76})});
            b.output(b.op("Add", {h, b.input("bias", DType::F32, {76})}));
            b.output(b.op("Gemm", {b.input("g", DType::F32, {8000, 300}), b.input("wt", DType::F32, {76, 300}),
                                   b.input("gbias", DType::F32, {76})},
                          attrs({{"transB", int64_t{1}}})));
            Value* wide = b.input("w2", DType::F32, {8320, 136});
            Value* w2 = b.op("Slice", {wide, b.ints("starts", {0}), b.ints("ends", {130}), b.ints("axes", {1})});
            b.output(b.op("MatMul", {b.input("x", DType::F32, {130, 8320}), w2}));
            return b.finish();
          }};
}

// Results enough to fill an H100's or H200's threads four times over
// (elementsPerThread in codegen/KernelText.h): relu(x w + r) with 2048 x 640
// results, whose epilogue loads the residual for a group of results before
// it stores any (the generated GEMM's, and cuBLAS's epilogue kernel at four
// a thread), and relu(u) + v over 2^21 elements, a store kernel at four a
// thread.
OpCase manyResultsCase() {
  return {caseName("many results, loads before stores", DType::F32), [] {
            GraphBuilder b("many_results");
            Value* y = b.op("MatMul", {b.input("x", DType::F32, {2048, 64}), b.input("w", DType::F32, {64, 640})});
            b.output(b.op("Relu", {b.op("Add", {y, b.input("r", DType::F32, {2048, 640})})}));
            const int64_t n = int64_t{1} << 21;
            b.output(b.op("Add", {b.op("Relu", {b.input("u", DType::F32, {n})}), b.input("v", DType::F32, {n})}));
            return b.finish();
          }};
}

} // namespace

std::vector<OpCase> gemmCases() {
  std::vector<OpCase> cases;
  // 33 and 200 rows take gemm_tiled's small tiles (one or four of 64 rows, the last ragged), K split in five.
  for (int64_t m : {1, 5, 16, 33, 200}) cases.push_back(gemmCase(DType::F32, m));
  for (DType dtype : {DType::F16, DType::BF16})
    for (int64_t m : {9, 100}) cases.push_back(gemmCase(dtype, m));
  for (DType dtype : {DType::F32, DType::BF16}) cases.push_back(sequenceFirstCase(dtype));
  cases.push_back(wgmmaCase());
  cases.push_back(manyResultsCase());
  return cases;
}

} // namespace tcx::test
