#pragma once
// What the kernel library's host-side planners share (launch.h, launch_gemm.h): the launch
// configuration, the element types and their CUDA names, and the split-K helpers the GEMM and
// convolution planners both use. Plain C++20.

#include "tcx/abi.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace tcx {

struct LaunchConfig {
  unsigned grid[3];
  unsigned block[3];
  unsigned sharedBytes; // dynamic shared memory
};

// Element types the GEMM and attention kernels take.
enum class ElemType { F32, F16, BF16 };

constexpr int elemBytes(ElemType t) { return t == ElemType::F32 ? 4 : 2; }

constexpr std::string_view cudaTypeName(ElemType t) {
  return t == ElemType::F32 ? "float" : t == ElemType::F16 ? "__half" : "__nv_bfloat16";
}

constexpr std::string_view accessName(Access a) {
  return a == Access::ColContiguous   ? "tcx::Access::ColContiguous"
         : a == Access::RowContiguous ? "tcx::Access::RowContiguous"
                                      : "tcx::Access::Strided";
}

namespace detail {

constexpr i64 ceilDiv(i64 a, i64 b) { return (a + b - 1) / b; }
constexpr i64 roundUp(i64 a, i64 b) { return ceilDiv(a, b) * b; }

// The splits a planner wants, or none where the tiles outnumber the workspace's counters (abi.h).
constexpr i64 splitsFor(i64 wanted, i64 tiles) { return tiles > kSplitKMaxTiles ? 1 : wanted; }

// Splits of K for `tiles` output tiles of at least `resident`, the blocks resident at once: among 1
// to 4, the one whose waves cost least as a share of the unsplit work, each split taken to cost a
// tenth more for writing and adding its partial tile; 1 unless that saves a tenth. ViT's 6304 x 768
// MLP output at 32 images is 300 tiles for 264 resident blocks: two waves, the second 14% full, unsplit;
// three splits make four nearly full waves of a third of the work.
constexpr i64 waveSplits(i64 tiles, i64 resident) {
  const auto cost = [&](i64 s) { return static_cast<double>(ceilDiv(tiles * s, resident)) / s * (1 + 0.1 * (s - 1)); };
  i64 best = 1;
  for (i64 s = 2; s <= 4; ++s)
    if (cost(s) < cost(best) && cost(s) < 0.9 * cost(1)) best = s;
  return best;
}

// K steps per split for `wanted` splits of `steps`, each split at least two steps: a split of one
// spends about as long filling its pipeline and writing its partial tile as on its products.
constexpr i64 stepsPerSplit(i64 steps, i64 wanted) {
  return ceilDiv(steps, std::clamp<i64>(wanted, 1, std::max<i64>(1, steps / 2)));
}

// The split-K workspace (abi.h) for `partialFloats` floats of partial tiles.
constexpr std::size_t splitKWorkspaceBytes(i64 partialFloats) {
  return static_cast<std::size_t>(kSplitKCounterBytes + partialFloats * 4);
}

constexpr LaunchConfig launch1d(i64 gx, i64 gy, i64 gz, int threads, i64 sharedBytes) {
  return {{static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz)},
          {static_cast<unsigned>(threads), 1, 1},
          static_cast<unsigned>(sharedBytes)};
}

} // namespace detail

} // namespace tcx
