#ifndef TCX_GEMM_CUH
#define TCX_GEMM_CUH
// Batched GEMM C[b][m][n] = sum_k A[b][m][k] * B[b][k][n] with fp32 accumulation, A and B read
// through strides (GemmParams), every result handed to codegen's epilogue functor:
//
//   struct Epilogue { __device__ void operator()(int batch, int m, int n, float acc) const; };
//
// It is called exactly once per (batch, m, n) with m < M and n < N, from any thread, in no
// particular order; it applies the fused element-wise ops and stores through its own mapping.
//
// gemm_small_m_body:     M <= 64 (16-bit) or 16 (float, 3xTF32), bound by streaming B (decode projections,
//                        a batch-1 classifier).
// gemm_wgmma_f32_body:   float on Hopper (sm_90a), A with k and B with n or k contiguous, K >= kWgmmaMinK (any K in tf32).
// gemm_tiled_body:       anything else.
// planGemm (launch.h) picks one and gives its template arguments and launch configuration.

#include "tcx/gemm_small_m.cuh"
#include "tcx/gemm_tiled.cuh"
#include "tcx/gemm_wgmma_f32.cuh"

#endif // TCX_GEMM_CUH
