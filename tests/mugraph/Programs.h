#pragma once
// Hand-written μGraphs for the tests: reference programs (Mirage Figure 4a
// attention, LoRA) and the optimised forms Mirage discovers (Figure 4b
// FlashDecoding, 4c, FlashAttention), each with knobs that plant the mutations
// the verifier must reject.

#include "mugraph/MuGraph.h"

namespace tcx::mugraph::testing {

struct AttentionShape {
  int64_t heads = 2, kvHeads = 2, queryLen = 1, kvLen = 8, headDim = 4;
};

// Figure 4a: MatMul, Exp, Sum, Div, MatMul over Q [h, s, d], K^T [kv, d, n],
// V [kv, n, d], with K and V repeated to the query heads when kv < h.
KernelGraph attention(const AttentionShape& s);

// Planted bugs. flashDecoding takes WrongImap (V's imap swaps x and y: needs
// heads == chunks to keep shapes), SwappedOperands (kernel 2 divides the sums
// the wrong way round) and MisalignedPartition (V's key chunks taken
// loop-major while K's are grid-major: chunk (y, i) of K meets chunk (i, y) of
// V, one chunk off for 2 x 2); loraConcat takes DroppedTerm (X W only).
enum class Mutation { None, WrongImap, DroppedTerm, SwappedOperands, MisalignedPartition };

// Figure 4b: kernel 1 splits the keys over grid dim y (`chunks`) and a
// for-loop (`iterations`), accumulating exp(QK) V and the partial sums;
// kernel 2 concludes the Sum and divides.
KernelGraph flashDecoding(const AttentionShape& s, int64_t chunks, int64_t iterations, Mutation m = Mutation::None);
// Figure 4c (GQA): no Repeat; each block takes one KV head with its query
// heads, reshaped [g, 1, d] -> [1, g, d] so the block does a GEMM.
KernelGraph mirageGqa(const AttentionShape& s, int64_t chunks, int64_t iterations);
// FlashAttention for prefill: query tiles over grid dim y, keys over a
// for-loop, exp computed by a thread graph, the division at kernel level.
KernelGraph flashAttention(const AttentionShape& s, int64_t queryTiles, int64_t iterations);
// GQA without Repeat or Reshape: a block per KV head multiplies its query
// heads by the one key head through Matmul's batch broadcast; keys over a
// for-loop, the division at kernel level. With as many KV heads as heads,
// FlashAttention in the form the search builds (no thread graph).
KernelGraph gqaFlashAttention(const AttentionShape& s, int64_t iterations);

struct LoraShape {
  int64_t tokens = 4, in = 8, out = 8, rank = 2;
};
KernelGraph lora(const LoraShape& s);                                    // X W + (X A) B
KernelGraph loraConcat(const LoraShape& s, Mutation m = Mutation::None); // (X || XA) x (W || B)

struct RmsNormShape {
  int64_t tokens = 4, in = 16, out = 8;
  double epsilon = 1e-6;
};
// (RMSNorm(X) * gamma) W, RMSNorm the pre-defined kernel operator.
KernelGraph rmsNormMatmul(const RmsNormShape& s);
// Mirage's RMSNorm fusion, one kernel: W's columns over `columnBlocks`
// blocks, X's hidden dim over `iterations`; the loop accumulates
// (X * gamma) W and X's mean square, and the division follows it.
KernelGraph rmsNormFused(const RmsNormShape& s, int64_t columnBlocks, int64_t iterations);

// The largest |a - b| over all outputs of the float interpreter, on one
// shared random input drawn with `seed`.
double maxDifference(const KernelGraph& a, const KernelGraph& b, uint64_t seed = 1);

} // namespace tcx::mugraph::testing
