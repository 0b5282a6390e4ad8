#ifndef TCX_ATTENTION_CUH
#define TCX_ATTENTION_CUH
// Split-K attention for decode and short query lengths (flash-decoding) with GQA/MQA/MHA:
//   O[b][h][i][:] = softmax_j(score(b, h, i, j)) @ V[b][h / G][j][:],  G = heads / kvHeads.
//
// Phase 1, decode_attention_partial_body, is bound by reading K and V once. A work item is
// (b, unit group, chunk of positions); a unit is one KV head with up to 16 * RT of its query rows
// (row = gh * sq + i over the group's heads gh and query rows i, all of them when G * sq <=
// 16 * RT), so each K and V row is read from DRAM once per unit, never expanded. Each warp of a
// block owns one unit of the item's group, so the block's warps read adjacent heads of the same
// positions: with K/V laid out (b, position, kvHead, d), whole contiguous rows. A block takes a
// contiguous range of items and streams their positions, 16 at a time, through a ring of
// shared-memory panels that all its warps fill and read (pipeline.cuh: bulk copies, several
// panels in flight; one copy per position for all the block's heads where they are adjacent).
// Each warp runs Q K^T and P V for its unit on tensor cores from ldmatrix fragments (the score
// accumulators are P's A fragment directly), keeps an online softmax, and writes (max, sum,
// o[D] / sum) per row and chunk to the workspace (abi.h attentionWorkspaceBytes).
// Phase 2, decode_attention_combine_body: one warp per (b, h, i) merges the chunks and calls
// OutStore.
//
// Functors from codegen:
//   struct ScoreOp  { __device__ float operator()(int b, int h, int i, int j, float dot) const; };
//   struct OutStore { __device__ void operator()(int b, int h, int i, int d, float v) const; };
// ScoreOp gets the raw dot product q.k in fp32 and applies scale, soft-capping and masks; it may
// return -inf. Masked positions never make NaN: a row is NaN only when every one of its scores is
// -inf, which is what softmax gives (0 / 0), or 0 with p.emptyRowsZero (PyTorch's safe softmax). ScoreOp is called once per (row, position) in
// range; OutStore once per output element.

#include "tcx/mma.cuh"
#include "tcx/pipeline.cuh"

namespace tcx {
namespace detail {

// (max, sum) of each (row, chunk) of the workspace, and its o[D] (abi.h).
__device__ __forceinline__ float2* partialStats(const AttentionParams& p) {
  return static_cast<float2*>(p.workspace);
}
template <typename T> __device__ __forceinline__ T* partialO(const AttentionParams& p) {
  const i64 partials = static_cast<i64>(p.batch) * p.heads * p.sq * p.numChunks;
  return reinterpret_cast<T*>(static_cast<char*>(p.workspace) + attentionPartialOOffset(partials));
}

// The block's shared memory (abi.h attentionBlockBytes): the panel ring, each warp's Q fragments
// (A fragments of Q K^T, one 16-byte entry per lane) and the ring's barriers.
template <typename T, int D, int RT, int P> struct alignas(16) AttentionShared {
  T panel[P][kAttentionTile][attentionPanelPitch(D)];
  uint4 q[kAttentionWarps][RT][D / 16][32];
  unsigned long long filled[P]; // the panel's rows landed: one arrival per warp, plus its copies' bytes
  unsigned long long freed[P];  // every warp is done reading it
};

// A work item: batch row b, a group of W consecutive units (one per warp) and a chunk of
// positions. The group's units attend to KV heads firstHead .. firstHead + heads - 1.
struct AttentionItem {
  int b, group, chunk, firstHead, heads;
};

template <int W> __device__ __forceinline__ AttentionItem decodeItem(const AttentionParams& p, int groups, int item) {
  const int chunk = item % p.numChunks, bg = item / p.numChunks, group = bg % groups;
  const int units = p.kvHeads * p.rowGroups, first = group * W, last = min(first + W, units) - 1;
  return {bg / groups, group, chunk, first / p.rowGroups, last / p.rowGroups - first / p.rowGroups + 1};
}

// The block's walk over the 16-position steps of its items; every warp keeps its own copy.
struct StepCursor {
  int item, pos, end;
};

__device__ __forceinline__ void startItem(StepCursor& c, const AttentionParams& p, int item) {
  const int chunk = item % p.numChunks;
  c.item = item, c.pos = chunk * p.chunkLen, c.end = min(c.pos + p.chunkLen, p.skv);
}

__device__ __forceinline__ void advance(StepCursor& c, const AttentionParams& p) {
  c.pos += kAttentionTile;
  if (c.pos >= c.end)
    startItem(c, p, c.item + 1);
}

// This lane's part in filling the panels of one item, the same for all of the item's steps: job j
// of a panel goes to lane j / W of warp j % W, so each warp issues a few copies. A job is one
// position row of one head, or of all the item's heads where they are adjacent in both K and V
// (strideHead == D): then a panel takes 16 copies, not 16 per head (with a copy per lane per row
// the copy engine's operands were converted lane by lane, and that loop drew 40 % of the
// kernel's stall samples; pipeline.cuh). Worked out once per item: decoding the item and the job
// at every fill, with integer divisions by sizes passed at run time (KernelBench), made the kernel
// bound by its integer instructions; codegen's literal sizes fold the divisions either way
// (kernels/README.md).
template <typename T> struct FillJob {
  int row = -1;          // the panel row (position within the step) this lane fills; -1: none
  int column = 0;        // its first element within the panel row
  unsigned bytes = 0;    // bytes it fills
  const T* k = nullptr;  // its K and V rows at the item's position 0
  const T* v = nullptr;
};

template <typename T, int D, int W>
__device__ __forceinline__ FillJob<T> fillJob(const AttentionParams& p, const AttentionItem& it, bool bulk) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const bool merged = bulk && p.kStride[1] == D && p.vStride[1] == D;
  const int perPos = merged ? 1 : it.heads, job = lane * W + warp;
  FillJob<T> f;
  if (job >= kAttentionTile * perPos)
    return f;
  const int h = job % perPos;
  f.row = job / perPos, f.column = h * D;
  f.bytes = (merged ? it.heads * D : D) * sizeof(T);
  f.k = static_cast<const T*>(p.k) + it.b * p.kStride[0] + (it.firstHead + h) * p.kStride[1];
  f.v = static_cast<const T*>(p.v) + it.b * p.vStride[0] + (it.firstHead + h) * p.vStride[1];
  return f;
}

// This lane's share of filling one panel with the K (or V: `rows`, `stridePos`) rows of the step
// at cursor c. Rows past the chunk's end are zeroed: their scores are masked, and P V must not
// meet stale NaN.
template <typename T, int D>
__device__ __forceinline__ void fillPanel(T (*panel)[attentionPanelPitch(D)], unsigned long long* bar,
                                          const FillJob<T>& job, const T* rows, i64 stridePos, const StepCursor& c,
                                          bool bulk) {
  const bool mine = job.row >= 0, live = mine && c.pos + job.row < c.end;
  T* dst = panel[max(job.row, 0)] + job.column;
  const T* src = rows + (c.pos + job.row) * stridePos;
  const unsigned bytes = live ? job.bytes : 0;
  if (mine && !live)
    zeroRow(dst, job.bytes);
  if (bulk) {
    fillBegin(bar, __reduce_add_sync(0xffffffffu, bytes));
    if (live)
      copyRow(dst, src, bytes, bar);
    return;
  }
  if (live) {
#pragma unroll 4
    for (int x = 0; x < D / 8; ++x)
      reinterpret_cast<uint4*>(dst)[x] = gatherVector(src + 8 * x, 1, 8);
  }
  fillBegin(bar, 0);
}

// Where a warp is in the ring: the slot of its next panel and that slot's phase parity, kept
// incrementally (the ring's length P is not a power of two).
template <int P> struct RingCursor {
  int slot = 0;
  unsigned parity = 0;
  bool wrapped = false; // past the ring's end once: slots now hold earlier panels
  __device__ __forceinline__ void next() {
    if (++slot == P)
      slot = 0, parity ^= 1u, wrapped = true;
  }
};

// Q fragments of one unit, lane by lane in mma.sync's A layout: entry [mt][kk][lane] holds rows
// g, g + 8 of tile mt at d = 16 kk + 2t (+1) and d + 8 (+1). Q is read with 16-byte loads where
// its d is contiguous and aligned, each spread over the four lanes whose words it holds.
template <typename T, int D, int RT>
__device__ __forceinline__ void stageQ(uint4 (&q)[RT][D / 16][32], const AttentionParams& p, int b, int kvHead,
                                       int rowBase) {
  const int groupSize = p.heads / p.kvHeads, rows = groupSize * p.sq;
  const T* qb = static_cast<const T*>(p.q) + b * p.qStride[0];
  const bool vector = p.qStride[3] == 1 && reinterpret_cast<unsigned long long>(p.q) % 16 == 0 &&
                      (p.qStride[0] | p.qStride[1] | p.qStride[2]) % 8 == 0;
  for (int idx = threadIdx.x % 32; idx < 16 * RT * (D / 8); idx += 32) {
    const int local = idx / (D / 8), c = idx % (D / 8), row = rowBase + local;
    uint4 x = make_uint4(0, 0, 0, 0);
    if (row < rows) {
      const T* src = qb + (kvHead * groupSize + row / p.sq) * p.qStride[1] + row % p.sq * p.qStride[2] +
                     8 * c * p.qStride[3];
      x = vector ? *reinterpret_cast<const uint4*>(src) : gatherVector(src, p.qStride[3], 8);
    }
    const int reg = 2 * (c % 2) + local % 16 / 8, g = local % 8;
    unsigned* entry = reinterpret_cast<unsigned*>(&q[local / 16][c / 2][4 * g]);
#pragma unroll
    for (int w = 0; w < 4; ++w)
      entry[4 * w + reg] = word(x, w);
  }
}

template <typename T, int D, int RT, int W, int P, typename ScoreOp>
__device__ __forceinline__ void attentionPartial(const AttentionParams& p, const ScoreOp& score) {
  constexpr int kDTiles = D / 8;
  // A warp refills the panel it finished kLag panels before the one it just finished, so that
  // warps a little behind the others rarely hold up a refill; P - kLag panels are in flight.
  constexpr int kLag = P / 2 - 1;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  auto& sh = *reinterpret_cast<AttentionShared<T, D, RT, P>*>(dynamicShared());
  const int groupSize = p.heads / p.kvHeads, rows = groupSize * p.sq;
  const int units = p.kvHeads * p.rowGroups, groups = (units + W - 1) / W;
  const int items = p.batch * groups * p.numChunks, perBlock = (items + gridDim.x - 1) / gridDim.x;
  const int first = blockIdx.x * perBlock, last = min(first + perBlock, items);
  // Bulk copies need 16-byte aligned rows; other views fill the ring with ordinary loads.
  const bool bulk =
      kBulkCopy &&
      (reinterpret_cast<unsigned long long>(p.k) | reinterpret_cast<unsigned long long>(p.v)) % 16 == 0 &&
      (p.kStride[0] | p.kStride[1] | p.kStride[2] | p.vStride[0] | p.vStride[1] | p.vStride[2]) % 8 == 0;

  if (warp == 0 && lane < P) {
    initSlot(&sh.filled[lane], W);
    initSlot(&sh.freed[lane], W);
  }
  fenceSlotInit();
  __syncthreads();
  if (first >= last)
    return;

  // The panels hold, in turn, the K and the V rows of the fill cursor's steps; every warp takes
  // part in every fill, and waits for a panel to be freed by all warps before refilling it.
  StepCursor fill, use;
  startItem(fill, p, first);
  use = fill;
  FillJob<T> job = fillJob<T, D, W>(p, decodeItem<W>(p, groups, first), bulk);
  RingCursor<P> filling, reading;
  bool fillingV = false;
  auto fillNext = [&] {
    if (fill.item >= last)
      return;
    const int panel = filling.slot;
    if (filling.wrapped)
      waitSlot(&sh.freed[panel], filling.parity ^ 1u);
    if (fillingV)
      fillPanel<T, D>(sh.panel[panel], &sh.filled[panel], job, job.v, p.vStride[2], fill, bulk);
    else
      fillPanel<T, D>(sh.panel[panel], &sh.filled[panel], job, job.k, p.kStride[2], fill, bulk);
    filling.next();
    fillingV = !fillingV;
    if (!fillingV) {
      const int item = fill.item;
      advance(fill, p);
      if (fill.item != item && fill.item < last)
        job = fillJob<T, D, W>(p, decodeItem<W>(p, groups, fill.item), bulk);
    }
  };
  for (int s = 0; s < P - kLag; ++s)
    fillNext();
  // Waits for the next panel in sequence and returns it.
  auto acquire = [&]() -> T(*)[attentionPanelPitch(D)] {
    waitSlot(&sh.filled[reading.slot], reading.parity);
    return sh.panel[reading.slot];
  };
  // Called by every lane once the warp has consumed (fed to an mma) all it read from the panel.
  auto release = [&] {
    __syncwarp();
    if (lane == 0)
      arriveExpecting(&sh.freed[reading.slot], 0);
    reading.next();
    fillNext();
  };

  int stagedB = -1, stagedUnit = -1;
  while (use.item < last) {
    const AttentionItem it = decodeItem<W>(p, groups, use.item);
    // A warp past the last unit of the group takes part in the ring but computes nothing.
    const int unit = it.group * W + warp;
    const bool live = unit < units;
    const int kvHead = unit / p.rowGroups, rowBase = unit % p.rowGroups * 16 * RT;
    const int column = (kvHead - it.firstHead) * D;
    if (live && (it.b != stagedB || unit != stagedUnit)) {
      __syncwarp();
      stageQ<T, D, RT>(sh.q[warp], p, it.b, kvHead, rowBase);
      __syncwarp();
      stagedB = it.b, stagedUnit = unit;
    }
    // The lane's rows g, g + 8 of each row tile: query head and query row.
    int headOf[RT][2], rowOf[RT][2];
    auto real = [&](int mt, int half) { return rowBase + 16 * mt + g + 8 * half < rows; };
    float o[RT][kDTiles][4] = {};
    float runMax[RT][2], runSum[RT][2];
#pragma unroll
    for (int mt = 0; mt < RT; ++mt)
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int row = rowBase + 16 * mt + g + 8 * half;
        headOf[mt][half] = kvHead * groupSize + row / p.sq, rowOf[mt][half] = row % p.sq;
        runMax[mt][half] = -infinity(), runSum[mt][half] = 0.0f;
      }

    const int item = use.item;
    for (; use.item == item; advance(use, p)) {
      const int pos0 = use.pos, end = use.end;
      const T(*panel)[attentionPanelPitch(D)] = acquire();
      if (!live) {
        release();
        acquire();
        release();
        continue;
      }

      // Scores: K rows are B's columns; ldmatrix matrix l / 8 is (positions 8 (l / 16) + 0..7,
      // d 16 kk + 8 ((l / 8) % 2) + 0..7), i.e. both k halves of both 8-position tiles.
      float s[RT][2][4] = {};
#pragma unroll
      for (int kk = 0; kk < D / 16; ++kk) {
        unsigned kf[4];
        ldmatrixX4(kf, &panel[8 * (lane / 16) + lane % 8][column + 16 * kk + 8 * (lane / 8 % 2)]);
#pragma unroll
        for (int mt = 0; mt < RT; ++mt) {
          const uint4 qf = sh.q[warp][mt][kk][lane];
          const unsigned a[4] = {qf.x, qf.y, qf.z, qf.w};
          mma16816<T>(s[mt][0], a, kf[0], kf[1]);
          mma16816<T>(s[mt][1], a, kf[2], kf[3]);
        }
      }

      release();

      // Scores through ScoreOp, then the online softmax update of each of the lane's two rows.
      // The output is rescaled only when some row's max grew (rarely, after the first steps).
      const bool full = pos0 + kAttentionTile <= end;
      float newMax[RT][2];
      bool grew = false;
#pragma unroll
      for (int mt = 0; mt < RT; ++mt)
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          float tileMax = -infinity();
#pragma unroll
          for (int nt = 0; nt < 2; ++nt)
#pragma unroll
            for (int x = 0; x < 2; ++x) {
              const int pos = pos0 + 8 * nt + 2 * t + x;
              float& v = s[mt][nt][2 * half + x];
              v = real(mt, half) && (full || pos < end) ? score(it.b, headOf[mt][half], rowOf[mt][half], pos, v)
                                                        : -infinity();
              tileMax = fmaxf(tileMax, v);
            }
          tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffffu, tileMax, 1));
          tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffffu, tileMax, 2));
          newMax[mt][half] = fmaxf(runMax[mt][half], tileMax);
          grew |= newMax[mt][half] > runMax[mt][half];
        }
      if (__any_sync(0xffffffffu, grew)) {
#pragma unroll
        for (int mt = 0; mt < RT; ++mt)
#pragma unroll
          for (int half = 0; half < 2; ++half) {
            const float alpha = __expf(runMax[mt][half] - stableBase(newMax[mt][half]));
            runSum[mt][half] *= alpha;
#pragma unroll
            for (int j = 0; j < kDTiles; ++j)
              o[mt][j][2 * half] *= alpha, o[mt][j][2 * half + 1] *= alpha;
            runMax[mt][half] = newMax[mt][half];
          }
      }
#pragma unroll
      for (int mt = 0; mt < RT; ++mt)
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const float base = stableBase(runMax[mt][half]);
#pragma unroll
          for (int nt = 0; nt < 2; ++nt)
#pragma unroll
            for (int x = 0; x < 2; ++x) {
              float& v = s[mt][nt][2 * half + x];
              v = __expf(v - base);
              runSum[mt][half] += v;
            }
        }

      // P V: V rows are B's rows (k = position), read transposed; matrix l / 8 is (positions
      // 8 ((l / 8) % 2) + 0..7, d 16 jj + 8 (l / 16) + 0..7): both k halves of d tiles 2jj, 2jj+1.
      unsigned pa[RT][4];
#pragma unroll
      for (int mt = 0; mt < RT; ++mt) {
        pa[mt][0] = packFloats<T>(s[mt][0][0], s[mt][0][1]);
        pa[mt][1] = packFloats<T>(s[mt][0][2], s[mt][0][3]);
        pa[mt][2] = packFloats<T>(s[mt][1][0], s[mt][1][1]);
        pa[mt][3] = packFloats<T>(s[mt][1][2], s[mt][1][3]);
      }
      const T(*values)[attentionPanelPitch(D)] = acquire();
#pragma unroll
      for (int jj = 0; jj < D / 16; ++jj) {
        unsigned vf[4];
        ldmatrixX4Trans(vf, &values[8 * (lane / 8 % 2) + lane % 8][column + 16 * jj + 8 * (lane / 16)]);
#pragma unroll
        for (int mt = 0; mt < RT; ++mt) {
          mma16816<T>(o[mt][2 * jj], pa[mt], vf[0], vf[1]);
          mma16816<T>(o[mt][2 * jj + 1], pa[mt], vf[2], vf[3]);
        }
      }

      release();
    }
    if (!live)
      continue;

    // Publish (max, sum, o) of the item's real rows for phase 2: row g + 8 half of tile mt holds
    // o at d = 8j + 2t, 8j + 2t + 1.
#pragma unroll
    for (int mt = 0; mt < RT; ++mt)
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        float sum = runSum[mt][half];
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        sum += __shfl_xor_sync(0xffffffffu, sum, 2);
        if (!real(mt, half))
          continue;
        const i64 rowId = (static_cast<i64>(it.b) * p.heads + headOf[mt][half]) * p.sq + rowOf[mt][half];
        const i64 partial = rowId * p.numChunks + it.chunk;
        if (t == 0)
          partialStats(p)[partial] = make_float2(runMax[mt][half], sum);
        // A chunk whose scores were all -inf has sum 0 and o 0; phase 2 gives it no weight.
        const float scale = sum > 0.0f ? 1.0f / sum : 0.0f;
        T* dst = partialO<T>(p) + partial * D;
#pragma unroll
        for (int j = 0; j < kDTiles; ++j)
          *reinterpret_cast<unsigned*>(dst + 8 * j + 2 * t) =
              packFloats<T>(o[mt][j][2 * half] * scale, o[mt][j][2 * half + 1] * scale);
      }
  }
}

} // namespace detail

// T: __half or __nv_bfloat16. D: 64, 128 or 256. RT: query-row tiles of 16 per unit (launch.h).
// Grid: (blocks, 1, 1), each taking a contiguous range of the batch x unit groups x chunks
// items; block: kAttentionThreads; dynamic shared memory attentionSharedBytes(D, RT).
template <typename T, int D, int RT, typename ScoreOp>
__device__ __forceinline__ void decode_attention_partial_body(const AttentionParams& p,
                                                              const ScoreOp& score) {
  static_assert(isTensorCoreType<T>, "attention takes __half or __nv_bfloat16");
  static_assert(D == 64 || D == 128 || D == 256, "head dim 64, 128 or 256");
  static_assert(RT >= 1 && RT * D <= 256, "the output accumulators of RT row tiles must fit registers");
  constexpr int P = attentionPanels(D, RT);
  static_assert(sizeof(detail::AttentionShared<T, D, RT, P>) == attentionSharedBytes(D, RT),
                "abi.h sizes the shared memory");
  detail::attentionPartial<T, D, RT, kAttentionWarps, P>(p, score);
}

// Grid: ceil(batch * heads * sq / (kCombineThreads / 32)); block: kCombineThreads. Lane l holds
// d = l * D / 32 ...; the chunks are merged in batches of 8 whose loads (each chunk's max and
// sum, which every lane reads, and the lane's run of o) are all issued before the first use, so a
// row costs one round trip to L2 per batch.
template <typename T, int D, typename OutStore>
__device__ __forceinline__ void decode_attention_combine_body(const AttentionParams& p,
                                                              const OutStore& out) {
  constexpr int kPerLane = D / 32, kBatch = 8;
  using Part = Vec<T, kPerLane>; // 4 to 16 bytes, aligned: a partial o is 16-byte aligned
  const int lane = threadIdx.x % 32;
  const i64 rowId = static_cast<i64>(blockIdx.x) * (kCombineThreads / 32) + threadIdx.x / 32;
  if (rowId >= static_cast<i64>(p.batch) * p.heads * p.sq)
    return;
  const int i = static_cast<int>(rowId % p.sq), h = static_cast<int>(rowId / p.sq % p.heads);
  const int b = static_cast<int>(rowId / p.sq / p.heads);
  const float2* stats = detail::partialStats(p) + rowId * p.numChunks;
  const T* partials = detail::partialO<T>(p) + rowId * p.numChunks * D;

  float runMax = -infinity(), sum = 0.0f, acc[kPerLane] = {};
  for (int c0 = 0; c0 < p.numChunks; c0 += kBatch) {
    float2 stat[kBatch];
    Part part[kBatch];
#pragma unroll
    for (int c = 0; c < kBatch; ++c) {
      const bool live = c0 + c < p.numChunks;
      stat[c] = live ? stats[c0 + c] : make_float2(-infinity(), 0.0f);
      part[c] = live ? Part::load(partials + (c0 + c) * D + lane * kPerLane) : Part{};
    }
    float batchMax = runMax;
#pragma unroll
    for (int c = 0; c < kBatch; ++c)
      batchMax = fmaxf(batchMax, stat[c].x);
    const float base = stableBase(batchMax), rescale = __expf(runMax - base);
    sum *= rescale;
#pragma unroll
    for (int e = 0; e < kPerLane; ++e)
      acc[e] *= rescale;
#pragma unroll
    for (int c = 0; c < kBatch; ++c) {
      // The chunk's o was divided by its sum.
      const float weight = __expf(stat[c].x - base) * stat[c].y;
      sum += weight;
#pragma unroll
      for (int e = 0; e < kPerLane; ++e)
        acc[e] += weight * to_float(part[c].v[e]);
    }
    runMax = batchMax;
  }
  // sum == 0 only when every score of the row was -inf: 0 / 0, as softmax gives, or 0 for safe softmax.
#pragma unroll
  for (int e = 0; e < kPerLane; ++e)
    out(b, h, i, lane * kPerLane + e, sum == 0.0f && p.emptyRowsZero ? 0.0f : acc[e] / sum);
}

} // namespace tcx

#endif // TCX_ATTENTION_CUH
