#include "Programs.h"

#include "mugraph/FloatDomain.h"
#include "mugraph/Interpreter.h"

#include <cmath>
#include <random>

namespace tcx::mugraph::testing {

namespace {

constexpr int P = kReplica;

// Kernel 2 of Figures 4b/4c: per head group, sum the chunk partials A
// [., g, c*d] and B [., g, c], then divide.
TensorRef combine(KernelGraph& k, TensorRef a, TensorRef b, int64_t groups, int64_t g, int64_t c, int64_t d,
                  bool swapped) {
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(a), k.desc(b)}, Shape{groups}, Shape{});
  TensorRef ab = block->inputIterator(0, {0}, {});
  TensorRef bb = block->inputIterator(1, {0}, {});
  TensorRef asum = block->reshape(block->sum(block->reshape(ab, {1, g, c, d}), 2, c), {1, g, d});
  TensorRef bsum = block->sum(bb, 2, c);
  TensorRef o = swapped ? block->div(bsum, asum) : block->div(asum, bsum);
  block->outputAccumulator(o, {0}, {});
  return k.graphDefined(block, {a, b})[0];
}

} // namespace

KernelGraph attention(const AttentionShape& s) {
  KernelGraph k("attention");
  TensorRef q = k.input("q", {s.heads, s.queryLen, s.headDim});
  TensorRef kt = k.input("k_t", {s.kvHeads, s.headDim, s.kvLen});
  TensorRef v = k.input("v", {s.kvHeads, s.kvLen, s.headDim});
  int64_t rep = s.heads / s.kvHeads;
  if (rep > 1) {
    auto repeat = [&](TensorRef t) {
      Shape sh = k.desc(t).shape;
      TensorRef r = k.repeat(k.reshape(t, {sh[0], 1, sh[1], sh[2]}), {1, rep, 1, 1});
      return k.reshape(r, {sh[0] * rep, sh[1], sh[2]});
    };
    kt = repeat(kt);
    v = repeat(v);
  }
  TensorRef e = k.exp(k.matmul(q, kt));
  TensorRef p = k.div(e, k.sum(e, 2, s.kvLen));
  k.markOutput(k.matmul(p, v));
  return k;
}

KernelGraph flashDecoding(const AttentionShape& s, int64_t chunks, int64_t iterations, Mutation m) {
  KernelGraph k("flash_decoding");
  TensorRef q = k.input("q", {s.heads, s.queryLen, s.headDim});
  TensorRef kt = k.input("k_t", {s.kvHeads, s.headDim, s.kvLen});
  TensorRef v = k.input("v", {s.kvHeads, s.kvLen, s.headDim});
  int64_t tile = s.kvLen / (chunks * iterations);
  // MisalignedPartition: V's chunks are taken loop-major, (i, y), while K's
  // are grid-major, (y, i): with 2 x 2 chunks the middle two pair up off by one.
  TensorRef vIn =
      m == Mutation::MisalignedPartition ? k.reshape(v, {s.kvHeads, iterations, chunks, tile, s.headDim}) : v;
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(q), k.desc(kt), k.desc(vIn)},
                                            Shape{s.heads, chunks}, Shape{iterations});
  TensorRef qb = block->inputIterator(0, {0, P}, {P});
  TensorRef kb = block->inputIterator(1, {0, 2}, {2});
  TensorRef vb;
  if (m == Mutation::MisalignedPartition)
    vb = block->reshape(block->inputIterator(2, {0, 2}, {1}), {1, tile, s.headDim});
  else if (m == Mutation::WrongImap) // V's chunk follows the head (x) and its head the chunk (y)
    vb = block->inputIterator(2, {1, 0}, {1});
  else
    vb = block->inputIterator(2, {0, 1}, {1});
  TensorRef e = block->exp(block->matmul(qb, kb));
  block->outputAccumulator(block->matmul(e, vb), {0, 2}, {P});
  block->outputAccumulator(block->sum(e, 2, tile), {0, 2}, {P});
  std::vector<TensorRef> partial = k.graphDefined(block, {q, kt, vIn});
  k.markOutput(
      combine(k, partial[0], partial[1], s.heads, s.queryLen, chunks, s.headDim, m == Mutation::SwappedOperands));
  return k;
}

KernelGraph mirageGqa(const AttentionShape& s, int64_t chunks, int64_t iterations) {
  KernelGraph k("mirage_gqa");
  TensorRef q = k.input("q", {s.heads, s.queryLen, s.headDim});
  TensorRef kt = k.input("k_t", {s.kvHeads, s.headDim, s.kvLen});
  TensorRef v = k.input("v", {s.kvHeads, s.kvLen, s.headDim});
  int64_t g = s.heads / s.kvHeads * s.queryLen, tile = s.kvLen / (chunks * iterations);
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(q), k.desc(kt), k.desc(v)},
                                            Shape{s.kvHeads, chunks}, Shape{iterations});
  TensorRef qb = block->reshape(block->inputIterator(0, {0, P}, {P}), {1, g, s.headDim});
  TensorRef kb = block->inputIterator(1, {0, 2}, {2});
  TensorRef vb = block->inputIterator(2, {0, 1}, {1});
  TensorRef e = block->exp(block->matmul(qb, kb));
  block->outputAccumulator(block->matmul(e, vb), {0, 2}, {P});
  block->outputAccumulator(block->sum(e, 2, tile), {0, 2}, {P});
  std::vector<TensorRef> partial = k.graphDefined(block, {q, kt, v});
  TensorRef o = combine(k, partial[0], partial[1], s.kvHeads, g, chunks, s.headDim, false);
  k.markOutput(k.reshape(o, {s.heads, s.queryLen, s.headDim}));
  return k;
}

KernelGraph flashAttention(const AttentionShape& s, int64_t queryTiles, int64_t iterations) {
  KernelGraph k("flash_attention");
  TensorRef q = k.input("q", {s.heads, s.queryLen, s.headDim});
  TensorRef kt = k.input("k_t", {s.kvHeads, s.headDim, s.kvLen});
  TensorRef v = k.input("v", {s.kvHeads, s.kvLen, s.headDim});
  int64_t tile = s.kvLen / iterations;
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(q), k.desc(kt), k.desc(v)},
                                            Shape{s.heads, queryTiles}, Shape{iterations});
  TensorRef qb = block->inputIterator(0, {0, 1}, {P});
  TensorRef kb = block->inputIterator(1, {0, P}, {2});
  TensorRef vb = block->inputIterator(2, {0, P}, {1});
  TensorRef scores = block->matmul(qb, kb);
  // exp runs in registers: one thread per key of the tile.
  auto thread = std::make_shared<ThreadGraph>(std::vector<TensorDesc>{block->desc(scores)}, Shape{tile}, Shape{});
  thread->outputAccumulator(thread->exp(thread->inputIterator(0, {2}, {})), {2}, {});
  TensorRef e = block->graphDefined(thread, {scores})[0];
  block->outputAccumulator(block->matmul(e, vb), {0, 1}, {P});
  block->outputAccumulator(block->sum(e, 2, tile), {0, 1}, {P});
  std::vector<TensorRef> partial = k.graphDefined(block, {q, kt, v});
  k.markOutput(k.div(partial[0], partial[1]));
  return k;
}

KernelGraph gqaFlashAttention(const AttentionShape& s, int64_t iterations) {
  KernelGraph k("gqa_flash_attention");
  TensorRef q = k.input("q", {s.heads, s.queryLen, s.headDim});
  TensorRef kt = k.input("k_t", {s.kvHeads, s.headDim, s.kvLen});
  TensorRef v = k.input("v", {s.kvHeads, s.kvLen, s.headDim});
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(q), k.desc(kt), k.desc(v)},
                                            Shape{s.kvHeads}, Shape{iterations});
  TensorRef qb = block->inputIterator(0, {0}, {P}); // [heads / kvHeads, s, d]
  TensorRef kb = block->inputIterator(1, {0}, {2}); // [1, d, tile]
  TensorRef vb = block->inputIterator(2, {0}, {1}); // [1, tile, d]
  TensorRef e = block->exp(block->matmul(qb, kb));
  block->outputAccumulator(block->matmul(e, vb), {0}, {P});
  block->outputAccumulator(block->sum(e, 2, s.kvLen / iterations), {0}, {P});
  std::vector<TensorRef> partial = k.graphDefined(block, {q, kt, v});
  k.markOutput(k.div(partial[0], partial[1]));
  return k;
}

KernelGraph lora(const LoraShape& s) {
  KernelGraph k("lora");
  TensorRef x = k.input("x", {s.tokens, s.in});
  TensorRef w = k.input("w", {s.in, s.out});
  TensorRef a = k.input("lora_a", {s.in, s.rank});
  TensorRef b = k.input("lora_b", {s.rank, s.out});
  k.markOutput(k.add(k.matmul(x, w), k.matmul(k.matmul(x, a), b)));
  return k;
}

KernelGraph loraConcat(const LoraShape& s, Mutation m) {
  KernelGraph k("lora_concat");
  TensorRef x = k.input("x", {s.tokens, s.in});
  TensorRef w = k.input("w", {s.in, s.out});
  TensorRef a = k.input("lora_a", {s.in, s.rank});
  TensorRef b = k.input("lora_b", {s.rank, s.out});
  if (m == Mutation::DroppedTerm)
    k.markOutput(k.matmul(x, w));
  else
    k.markOutput(k.concatMatmul(x, k.matmul(x, a), w, b));
  return k;
}

KernelGraph rmsNormMatmul(const RmsNormShape& s) {
  KernelGraph k("rmsnorm_matmul");
  TensorRef x = k.input("x", {s.tokens, s.in});
  TensorRef gamma = k.input("gamma", {s.in});
  TensorRef w = k.input("w", {s.in, s.out});
  k.markOutput(k.matmul(k.mul(k.rmsNorm(x, s.epsilon), gamma), w));
  return k;
}

KernelGraph rmsNormFused(const RmsNormShape& s, int64_t columnBlocks, int64_t iterations) {
  KernelGraph k("rmsnorm_fused");
  TensorRef x = k.input("x", {s.tokens, s.in});
  TensorRef gamma = k.input("gamma", {s.in});
  TensorRef w = k.input("w", {s.in, s.out});
  auto block = std::make_shared<BlockGraph>(std::vector<TensorDesc>{k.desc(x), k.desc(gamma), k.desc(w)},
                                            Shape{columnBlocks}, Shape{iterations});
  TensorRef xb = block->inputIterator(0, {P}, {1});
  TensorRef gb = block->inputIterator(1, {P}, {0});
  TensorRef wb = block->inputIterator(2, {1}, {0});
  TensorRef rms = block->forLoopRms(xb, s.epsilon);
  TensorRef product = block->forLoopSum(block->matmul(block->mul(xb, gb), wb));
  block->outputAccumulator(block->div(product, rms), {1}, {P});
  k.markOutput(k.graphDefined(block, {x, gamma, w})[0]);
  return k;
}

double maxDifference(const KernelGraph& a, const KernelGraph& b, uint64_t seed) {
  FloatDomain d;
  Interpreter<FloatDomain> interp(d);
  std::mt19937_64 rng(seed);
  auto inputs = randomInputs(d, a, rng);
  auto x = interp.run(a, inputs), y = interp.run(b, inputs);
  double worst = 0;
  for (size_t o = 0; o < x.size(); ++o)
    for (size_t i = 0; i < x[o].data.size(); ++i) worst = std::max(worst, std::abs(x[o].data[i] - y[o].data[i]));
  return worst;
}

} // namespace tcx::mugraph::testing
