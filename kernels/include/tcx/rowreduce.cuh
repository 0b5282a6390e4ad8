#ifndef TCX_ROWREDUCE_CUH
#define TCX_ROWREDUCE_CUH
// Row reductions for generated kernels that give one block to one row (Softmax, LayerNorm,
// RMSNorm, ReduceSum along the last axis): each thread folds a strided share of the row, then the
// block combines the shares. Every thread gets the result.

#include "tcx/reduce.cuh"

namespace tcx {

// Any row: `load(j)` returns element j as a float, through whatever mapping function codegen
// emitted for the row.
template <typename Op, typename Load>
__device__ __forceinline__ float rowReduce(i64 n, Load load, Op op) {
  float acc = Op::identity();
  for (i64 j = blockThreadIndex(); j < n; j += blockThreadCount())
    acc = op(acc, load(j));
  return blockReduce(acc, op);
}

// A row of n contiguous elements: 16-byte loads between a scalar head (up to the first 16-byte
// boundary) and a scalar tail. `map` transforms each element before it is folded (x * x for
// RMSNorm, x - mean for a variance).
template <typename T, typename Op, typename Map>
__device__ __forceinline__ float rowReduceContiguous(const T* row, i64 n, Map map, Op op) {
  constexpr int kLanes = 16 / sizeof(T);
  const i64 tid = blockThreadIndex(), threads = blockThreadCount();
  const i64 misalign = static_cast<i64>(reinterpret_cast<unsigned long long>(row) % 16);
  const i64 head = misalign == 0 ? 0 : min(n, (16 - misalign) / static_cast<i64>(sizeof(T)));
  const i64 vectors = (n - head) / kLanes;
  float acc = Op::identity();
  for (i64 j = tid; j < head; j += threads)
    acc = op(acc, map(to_float(row[j])));
  for (i64 v = tid; v < vectors; v += threads) {
    const Vec<T, kLanes> x = Vec<T, kLanes>::load(row + head + v * kLanes);
#pragma unroll
    for (int e = 0; e < kLanes; ++e)
      acc = op(acc, map(to_float(x.v[e])));
  }
  for (i64 j = head + vectors * kLanes + tid; j < n; j += threads)
    acc = op(acc, map(to_float(row[j])));
  return blockReduce(acc, op);
}

// Max and sum of exp(x - max) over a row in one pass (online softmax), so a Softmax reads its
// input twice (statistics, then output) rather than three times. A row of -inf only gives
// {-inf, 0}: the caller's exp(x - max) / sum is then NaN, as softmax is.
struct SoftmaxStats {
  float max;
  float sum;
};

template <typename Load> __device__ __forceinline__ SoftmaxStats rowSoftmaxStats(i64 n, Load load) {
  float m = -infinity(), s = 0.0f;
  for (i64 j = blockThreadIndex(); j < n; j += blockThreadCount()) {
    const float x = load(j);
    const float newMax = fmaxf(m, x);
    // Guard the all -inf prefix: exp(-inf - -inf) would be NaN.
    if (newMax != -infinity()) {
      s = s * __expf(m - newMax) + __expf(x - newMax);
      m = newMax;
    }
  }
  const float rowMax = blockMax(m);
  const float scaled = m == -infinity() ? 0.0f : s * __expf(m - rowMax);
  return {rowMax, blockSum(scaled)};
}

} // namespace tcx

#endif // TCX_ROWREDUCE_CUH
