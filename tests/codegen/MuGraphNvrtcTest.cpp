// The CUDA of every test program compiles with NVRTC for sm_90, which needs
// no device: small shapes as tests/gpu checks them, and the decode shapes it
// times.
#include "../mugraph/Programs.h"

#include "codegen/mugraph/MuGraphCuda.h"
#include "profiler/Nvrtc.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::mugraph::testing;

namespace {

void requireCompiles(const KernelGraph& g) {
  INFO(g.name());
  gpu::NvrtcCompiler compiler(""); // memory only: each test compiles afresh
  gpu::CompileResult r = compiler.compile(generateMuGraphCuda(g).source, {.arch = "sm_90"});
  REQUIRE(r.cubin);
  CHECK(r.cubin->size() > 0);
  CHECK(r.arch == "sm_90");
}

} // namespace

TEST_CASE("μGraph CUDA compiles with NVRTC for sm_90", "[mugraph-codegen][nvrtc]") {
  AttentionShape mha{.heads = 4, .kvHeads = 4, .queryLen = 1, .kvLen = 16, .headDim = 8};
  AttentionShape gqa{.heads = 8, .kvHeads = 2, .queryLen = 1, .kvLen = 16, .headDim = 4};
  AttentionShape prefill{.heads = 2, .kvHeads = 2, .queryLen = 4, .kvLen = 16, .headDim = 4};
  requireCompiles(attention(gqa));
  requireCompiles(flashDecoding(mha, 2, 2));
  requireCompiles(mirageGqa(gqa, 2, 2));
  requireCompiles(flashAttention(prefill, 2, 4));
  requireCompiles(gqaFlashAttention(gqa, 2));
  requireCompiles(lora({}));
  requireCompiles(loraConcat({}));
}

TEST_CASE("μGraph CUDA compiles for the multi-head decode shapes", "[mugraph-codegen][nvrtc]") {
  AttentionShape decode{.heads = 32, .kvHeads = 32, .queryLen = 1, .kvLen = 4096, .headDim = 128};
  requireCompiles(attention(decode));
  requireCompiles(flashDecoding(decode, 4, 8));
}
