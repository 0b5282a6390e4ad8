// Split-K decode attention against the reference kernel, and its speed.

#include "BenchUtil.cuh"
#include "Dispatch.cuh"
#include "Reference.cuh"
#include "tcx/attention.cuh"
#include "tcx/launch.h"

#include <string>
#include <vector>

namespace bench {
namespace {

template <typename T, int D, int RT, typename S>
__global__ void __launch_bounds__(tcx::kAttentionThreads) partialKernel(tcx::AttentionParams p, S s) {
  tcx::decode_attention_partial_body<T, D, RT>(p, s);
}

__device__ __forceinline__ unsigned long long globalTimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Phase 1 with each block's start and end stamped: where its blocks finish says whether the kernel
// is bound by each multiprocessor's instruction stream (all end together) or by the memory
// system's share of each (their ends spread as a plain copy's do). kernels/README.md.
template <typename T, int D, int RT, typename S>
__global__ void __launch_bounds__(tcx::kAttentionThreads)
    stampedPartialKernel(tcx::AttentionParams p, S s, unsigned long long* stamps) {
  const unsigned long long start = globalTimer();
  tcx::decode_attention_partial_body<T, D, RT>(p, s);
  __syncthreads();
  if (threadIdx.x == 0)
    stamps[2 * blockIdx.x] = start, stamps[2 * blockIdx.x + 1] = globalTimer();
}

template <typename T, int D, typename O>
__global__ void __launch_bounds__(tcx::kCombineThreads) combineKernel(tcx::AttentionParams p, O o) {
  tcx::decode_attention_combine_body<T, D>(p, o);
}

template <typename T>
void launchAttention(const tcx::AttentionPlan& plan, int headDim, const tcx::AttentionParams& p,
                     const ScoreOp& score, const StoreO& out, bool partialOnly = false) {
  auto run = [&](auto d, auto rt) {
    if constexpr (rt.value * d.value <= 256) {
      launch(partialKernel<T, d.value, rt.value, ScoreOp>, plan.partial, p, score);
      if (!partialOnly)
        launch(combineKernel<T, d.value, StoreO>, plan.combine, p, out);
    }
  };
  withInt<64, 128, 256>(headDim, [&](auto d) { withInt<1, 2, 4>(plan.rowTiles, [&](auto rt) { run(d, rt); }); });
}

// The blocks' end times in phase 1, from the first block's start, averaged over `reps` runs each
// after an L2 flush: the earliest, the mean and the latest block.
template <typename T>
void printBlockEnds(const tcx::AttentionPlan& plan, int headDim, const tcx::AttentionParams& p, const ScoreOp& score,
                    int reps = 21) {
  const int blocks = static_cast<int>(plan.partial.grid[0]);
  Buffer<unsigned long long> stamps(2 * i64{blocks});
  std::vector<unsigned long long> host(2 * blocks);
  std::vector<double> ends(blocks, 0.0);
  auto run = [&](auto d, auto rt) {
    if constexpr (rt.value * d.value <= 256)
      launch(stampedPartialKernel<T, d.value, rt.value, ScoreOp>, plan.partial, p, score, stamps.ptr);
  };
  for (int r = 0; r < reps; ++r) {
    flushL2(flushMode);
    withInt<64, 128, 256>(headDim, [&](auto d) { withInt<1, 2, 4>(plan.rowTiles, [&](auto rt) { run(d, rt); }); });
    BENCH_CHECK(cudaMemcpy(host.data(), stamps.ptr, host.size() * sizeof(host[0]), cudaMemcpyDeviceToHost));
    const unsigned long long first = *std::min_element(host.begin(), host.end());
    for (int b = 0; b < blocks; ++b) ends[b] += (host[2 * b + 1] - first) / 1e3 / reps;
  }
  double mean = 0;
  for (double e : ends) mean += e / blocks;
  std::printf("     phase 1's %d blocks end (per-block stamps, mean of %d runs) from %.1f to %.1f us, %.1f on "
              "average\n",
              blocks, reps, *std::min_element(ends.begin(), ends.end()), *std::max_element(ends.begin(), ends.end()),
              mean);
}

struct AttentionCase {
  const char* name;
  int batch, heads, kvHeads, sq, skv, d;
  bool headMajorKV = false; // (B, KVH, S, D) instead of (B, S, KVH, D)
  bool seqMajorQ = false;   // Q as (B, Sq, H, D)
  bool causal = false;
  float softCap = 0;
  int maskedHead = -1;
  int maskFrom = 1 << 30;
  int misalign = 0; // elements added to the K and V base pointers
  int chunkLen = 0;
  bool time = false;
};

template <typename T> void runAttention(const AttentionCase& c, int sms, double copyGBs, unsigned seed) {
  tcx::AttentionProblem pr;
  pr.type = std::is_same_v<T, __half> ? tcx::ElemType::F16 : tcx::ElemType::BF16;
  pr.batch = c.batch, pr.heads = c.heads, pr.kvHeads = c.kvHeads, pr.sq = c.sq, pr.skv = c.skv, pr.headDim = c.d;
  const tcx::AttentionPlan plan = tcx::planAttention(pr, sms, c.chunkLen);
  const i64 kvElems = i64{c.batch} * c.kvHeads * c.skv * c.d;
  Buffer<T> q(i64{c.batch} * c.heads * c.sq * c.d), k(kvElems, c.misalign), v(kvElems, c.misalign);
  randomize(q, seed), randomize(k, seed + 1, c.misalign), randomize(v, seed + 2, c.misalign);
  Buffer<float> ws(std::max<i64>(1, plan.workspaceBytes / 4));
  Buffer<float> out(q.count), ref(q.count);

  tcx::AttentionParams p = plan.params;
  p.q = q.ptr, p.k = k.ptr + c.misalign, p.v = v.ptr + c.misalign, p.workspace = ws.ptr;
  const i64 qs[4] = {i64{c.heads} * c.sq * c.d, c.seqMajorQ ? c.d : i64{c.sq} * c.d,
                     c.seqMajorQ ? i64{c.heads} * c.d : c.d, 1};
  const i64 kvs[3] = {i64{c.skv} * c.kvHeads * c.d, c.headMajorKV ? i64{c.skv} * c.d : c.d,
                      c.headMajorKV ? c.d : i64{c.kvHeads} * c.d};
  std::copy(qs, qs + 4, p.qStride);
  std::copy(kvs, kvs + 3, p.kStride);
  p.kStride[3] = 1;
  std::copy(kvs, kvs + 3, p.vStride);
  const ScoreOp score{1.0f / std::sqrt(float(c.d)), c.softCap, c.skv, c.sq, c.causal, c.maskedHead, c.maskFrom};
  const StoreO store{out.ptr, c.heads, c.sq, c.d};

  poison(out);
  launchAttention<T>(plan, c.d, p, score, store);
  referenceAttention<T><<<c.batch * c.heads * c.sq, 128>>>(p, c.d, score, StoreO{ref.ptr, c.heads, c.sq, c.d});
  BENCH_CHECK(cudaGetLastError());
  const std::string what = std::string(c.name) + " [RT " + std::to_string(plan.rowTiles) + ", chunk " +
                           std::to_string(p.chunkLen) + " x" + std::to_string(p.numChunks) + "]";
  report(what.c_str(), compare(out, ref), std::is_same_v<T, __half> ? 2e-3 : 1e-2);
  if (!c.time)
    return;
  const double kvBytes = 2.0 * kvElems * sizeof(T);
  const double us = medianMicros([&] { launchAttention<T>(plan, c.d, p, score, store); });
  const double usPartial = medianMicros([&] { launchAttention<T>(plan, c.d, p, score, store, true); });
  std::printf("TIME %-58s %9.1f us  %7.0f GB/s  %5.1f%% of copy  (phase 1 alone %.1f us, %.1f%%)\n",
              what.c_str(), us, kvBytes / us / 1e3, 100.0 * kvBytes / us / 1e3 / copyGBs, usPartial,
              100.0 * kvBytes / usPartial / 1e3 / copyGBs);
  printBlockEnds<T>(plan, c.d, p, score);
}

} // namespace

void attentionBench(int sms, double copyGBs, bool checksOnly) {
  unsigned seed = 500;
  AttentionCase llama{"llama3-8b decode B16 H32 KVH8 D128 S4096", 16, 32, 8, 1, 4096, 128};
  llama.time = true;
  for (int chunk : {0, 256, 1024}) {
    AttentionCase sweep = llama;
    sweep.chunkLen = chunk;
    if (!checksOnly)
      runAttention<__nv_bfloat16>(sweep, sms, copyGBs, seed += 3);
  }

  AttentionCase cases[] = {
      {"MHA B2 H8 D64 S1000", 2, 8, 8, 1, 1000, 64},
      {"MQA B2 H16 KVH1 D128 S777, head-major KV", 2, 16, 1, 1, 777, 128, true},
      {"GQA sq8 causal B2 H32 KVH8 D128 S512, Q seq-major", 2, 32, 8, 8, 512, 128, false, true, true},
      {"D256 softcap 50 B1 H8 KVH2 sq2 S300", 1, 8, 2, 2, 300, 256, false, false, false, 50.0f},
      {"128 rows/group causal B1 H16 KVH2 sq16 S256", 1, 16, 2, 16, 256, 128, false, false, true},
      {"D64 G4 sq16 causal B1 H8 KVH2 S200", 1, 8, 2, 16, 200, 64, false, false, true},
      {"head 3 fully masked (NaN rows expected)", 2, 8, 2, 1, 600, 128, false, false, false, 0, 3},
      {"positions >= 70 masked (one live chunk)", 2, 8, 2, 2, 1000, 128, false, false, false, 0, -1, 70, 0, 64},
      {"misaligned K/V base (element-wise path)", 2, 8, 2, 1, 333, 128, true, false, false, 0, -1, 1 << 30, 1},
  };
  for (const AttentionCase& c : cases)
    runAttention<__nv_bfloat16>(c, sms, copyGBs, seed += 3);
  AttentionCase halfCase{"half GQA B4 H16 KVH4 D128 S2048", 4, 16, 4, 1, 2048, 128};
  runAttention<__half>(halfCase, sms, copyGBs, seed += 3);
  AttentionCase halfLong{"half MHA D64 B2 H4 sq3 S4100 causal", 2, 4, 4, 3, 4100, 64, false, false, true};
  runAttention<__half>(halfLong, sms, copyGBs, seed += 3);
}

} // namespace bench
