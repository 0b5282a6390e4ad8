// μGraphs on a CUDA device: the generated code computes what the float
// interpreter does, and timings at Mirage's decode shapes rank the
// structures (one kernel per operator, or FlashDecoding's two).
#include "../mugraph/Programs.h"

#include "backend/MuGraphProfiler.h"

#include <catch2/catch.hpp>

#include <cstdio>

using namespace tcx;
using namespace tcx::backend;
using namespace tcx::mugraph;
using namespace tcx::mugraph::testing;

namespace {

// f16 intermediates round to about 1e-3 of their scale; a few of them compound.
constexpr double kF16Tolerance = 1e-2;

void requireMatches(const KernelGraph& g, double tolerance) {
  MuGraphCheck check = checkMuGraph(g, {});
  INFO(g.name() << ": max relative error " << check.maxRelativeError);
  std::printf("check %-16s max relative error %.3g\n", g.name().c_str(), check.maxRelativeError);
  CHECK(check.maxRelativeError < tolerance);
}

void printTiming(const std::string& label, const MuGraphMeasurement& m) {
  std::printf("%-34s %9.2f us (%zu launches:", label.c_str(), m.medianUs, m.launches.size());
  for (const MuGraphLaunchTime& l : m.launches) std::printf(" %s %.2f", l.entry.c_str(), l.medianUs);
  std::printf("; %s)\n", m.timingSource.c_str());
}

} // namespace

TEST_CASE("The test programs compute what the float interpreter does", "[mugraph-gpu]") {
  AttentionShape mha{.heads = 4, .kvHeads = 4, .queryLen = 1, .kvLen = 64, .headDim = 16};
  AttentionShape gqa{.heads = 8, .kvHeads = 2, .queryLen = 1, .kvLen = 64, .headDim = 16};
  AttentionShape prefill{.heads = 2, .kvHeads = 2, .queryLen = 8, .kvLen = 32, .headDim = 8};
  requireMatches(attention(gqa), kF16Tolerance);
  requireMatches(flashDecoding(mha, 4, 2), kF16Tolerance);
  requireMatches(mirageGqa(gqa, 2, 4), kF16Tolerance);
  requireMatches(flashAttention(prefill, 2, 4), kF16Tolerance);
  requireMatches(gqaFlashAttention(gqa, 4), kF16Tolerance);
  requireMatches(lora({.tokens = 16, .in = 64, .out = 32, .rank = 8}), kF16Tolerance);
  requireMatches(loraConcat({.tokens = 16, .in = 64, .out = 32, .rank = 8}), kF16Tolerance);
  requireMatches(rmsNormMatmul({.tokens = 8, .in = 256, .out = 64}), kF16Tolerance);
  requireMatches(rmsNormFused({.tokens = 8, .in = 256, .out = 64}, 4, 4), kF16Tolerance);
}

TEST_CASE("The remaining operators in f32 and bf16", "[mugraph-gpu]") {
  KernelGraph k("operators");
  TensorRef x = k.input("x", {4, 8}, DType::F32);
  TensorRef w = k.input("w", {1, 8}, DType::BF16);
  TensorRef u = k.silu(k.mul(k.rmsNorm(x, 1e-5), w));
  TensorRef s = k.sqrt(k.add(k.square(u), k.constant(1.0)));
  k.markOutput(k.repeat(k.sum(s, 1, 4), {1, 3}));
  k.markOutput(k.div(u, s));
  // f32 throughout once bf16 w is read: only float rounding remains.
  requireMatches(k, 1e-5);
}

TEST_CASE("Multi-head decode: attention against FlashDecoding", "[mugraph-gpu][timing]") {
  // Mirage's MHA decode shapes: 32 heads, 4096 keys of 128 dims, one query token, f16.
  AttentionShape decode{.heads = 32, .kvHeads = 32, .queryLen = 1, .kvLen = 4096, .headDim = 128};
  MuGraphMeasureOptions options{.warmup = 3, .repetitions = 30};
  MuGraphMeasurement plain = measureMuGraph(attention(decode), options);
  std::printf("device: %s\n", plain.device.c_str());
  printTiming("attention (Figure 4a)", plain);
  // kvLen / (chunks x iterations) keys per tile, 128 (64 for 64 chunks): a block holds one key and one value
  // tile in shared memory, 32 KiB each at 128 keys.
  for (auto [chunks, iterations] : {std::pair<int64_t, int64_t>{4, 8}, {8, 4}, {16, 2}, {32, 1}, {64, 1}}) {
    MuGraphMeasurement fd = measureMuGraph(flashDecoding(decode, chunks, iterations), options);
    printTiming("flashDecoding chunks " + std::to_string(chunks) + " iterations " + std::to_string(iterations), fd);
    CHECK(fd.launches.size() == 2);
  }
  CHECK(plain.launches.size() == 5);
  CHECK(plain.medianUs > 0);
}
