#include "ops/nn/Gemm.h"

#include "ops/nn/MicroKernel.h"
#include "ops/nn/Pack.h"
#include "ops/nn/Parallel.h"

#include <algorithm>
#include <vector>

namespace tcx::nn {

namespace {

// Block sizes: a kKc x NR sliver of B stays in L1 while the micro-kernel
// sweeps the rows of an MC x kKc block of A (in L2); a kKc x kNc block of B
// is packed once and reused by every row block.
constexpr int64_t kKc = 256;
constexpr int64_t kMcSlivers = 24;
constexpr int64_t kNc = 2048;

struct Range {
  int64_t begin = 0;
  int64_t end = 0;
  bool empty() const { return begin >= end; }
};

// Part `chunk` of `chunks` of [0, total), cut at multiples of `unit`.
Range chunkOf(int64_t total, int64_t unit, int64_t chunk, int64_t chunks) {
  const int64_t units = (total + unit - 1) / unit;
  return {std::min(total, units * chunk / chunks * unit), std::min(total, units * (chunk + 1) / chunks * unit)};
}

// Per-thread scratch: packed panels and the converted vector operand.
template <typename Acc> struct Workspace {
  std::vector<Acc> aPanel;
  std::vector<Acc> bPanel;
  std::vector<Acc> vector;
};

template <typename Acc, typename T> Acc dotProduct(const Acc* x, const T* p, int64_t stride, int64_t k) {
  if (stride != 1) {
    Acc sum = 0;
    for (int64_t i = 0; i < k; ++i) sum += x[i] * static_cast<Acc>(p[i * stride]);
    return sum;
  }
  // Independent partial sums let the compiler vectorise the reduction.
  constexpr int64_t kLanes = 8;
  Acc partial[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= k; i += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) partial[l] += x[i + l] * static_cast<Acc>(p[i + l]);
  Acc sum = 0;
  for (int64_t l = 0; l < kLanes; ++l) sum += partial[l];
  for (; i < k; ++i) sum += x[i] * static_cast<Acc>(p[i]);
  return sum;
}

// y[j * yStride] += sum_k x[k] * B(k, j) for j in [0, n): a matrix-vector
// product, which reads each element of B once and so streams it unpacked.
template <typename Acc, typename T>
void matVec(int64_t k, int64_t n, const Acc* x, const StridedMatrix<T>& b, Acc* y, int64_t yStride,
            std::vector<Acc>& scratch) {
  if (b.colStride != 1) {
    for (int64_t j = 0; j < n; ++j) y[j * yStride] += dotProduct(x, b.data + j * b.colStride, b.rowStride, k);
    return;
  }
  // Rows of B are contiguous: accumulate x[k] * row k into a contiguous y,
  // four rows at a time to cut the loads and stores of y.
  Acc* out = y;
  if (yStride != 1) {
    scratch.assign(static_cast<size_t>(n), Acc(0));
    out = scratch.data();
  }
  int64_t i = 0;
  for (; i + 4 <= k; i += 4) {
    const T* r0 = b.data + i * b.rowStride;
    const T* r1 = r0 + b.rowStride;
    const T* r2 = r1 + b.rowStride;
    const T* r3 = r2 + b.rowStride;
    const Acc x0 = x[i], x1 = x[i + 1], x2 = x[i + 2], x3 = x[i + 3];
    for (int64_t j = 0; j < n; ++j)
      out[j] += x0 * static_cast<Acc>(r0[j]) + x1 * static_cast<Acc>(r1[j]) + x2 * static_cast<Acc>(r2[j]) +
                x3 * static_cast<Acc>(r3[j]);
  }
  for (; i < k; ++i) {
    const T* r = b.data + i * b.rowStride;
    for (int64_t j = 0; j < n; ++j) out[j] += x[i] * static_cast<Acc>(r[j]);
  }
  if (yStride != 1)
    for (int64_t j = 0; j < n; ++j) y[j * yStride] += out[j];
}

// A (rows, cols) block of one product with a single row or column of C.
template <typename T>
void vectorProduct(GemmShape shape, GemmAcc<T> alpha, const GemmOperands<T>& op, const StridedMatrix<T>& b,
                   Range rows, Range cols, Workspace<GemmAcc<T>>& ws) {
  using Acc = GemmAcc<T>;
  // One column of C is C^T = B^T A^T, a row times a matrix.
  const bool row = shape.m == 1;
  const StridedMatrix<T> vec = row ? op.a : b.transposed();
  const StridedMatrix<T> mat = row ? b : op.a.transposed();
  const Range range = row ? cols : rows;
  ws.vector.resize(static_cast<size_t>(shape.k));
  for (int64_t i = 0; i < shape.k; ++i) ws.vector[i] = alpha * static_cast<Acc>(vec.data[i * vec.colStride]);
  const StridedMatrix<T> part{mat.data + range.begin * mat.colStride, mat.rowStride, mat.colStride};
  Acc* y = row ? op.c + range.begin : op.c + range.begin * op.ldc;
  std::vector<Acc> scratch;
  matVec(shape.k, range.end - range.begin, ws.vector.data(), part, y, row ? 1 : op.ldc, scratch);
}

// A (rows, cols) block of one product, through packed panels.
template <typename T, typename Kernel>
void packedProduct(int64_t k, GemmAcc<T> alpha, const GemmOperands<T>& op, Range rows, Range cols,
                   Workspace<GemmAcc<T>>& ws) {
  constexpr int64_t MR = Kernel::MR, NR = Kernel::NR, MC = kMcSlivers * MR;
  ws.aPanel.resize(static_cast<size_t>(MC * kKc));
  ws.bPanel.resize(static_cast<size_t>(kKc * ((kNc + NR - 1) / NR * NR)));
  for (int64_t jc = cols.begin; jc < cols.end; jc += kNc) {
    const int64_t nc = std::min(kNc, cols.end - jc);
    for (int64_t pc = 0; pc < k; pc += kKc) {
      const int64_t kc = std::min(kKc, k - pc);
      std::visit([&](const auto& b) { detail::packB<NR>(b, pc, kc, jc, nc, ws.bPanel.data()); }, op.b);
      for (int64_t ic = rows.begin; ic < rows.end; ic += MC) {
        const int64_t mc = std::min(MC, rows.end - ic);
        detail::packA<MR>(op.a, ic, mc, pc, kc, alpha, ws.aPanel.data());
        for (int64_t jr = 0; jr < nc; jr += NR)
          for (int64_t ir = 0; ir < mc; ir += MR)
            Kernel::run(kc, ws.aPanel.data() + ir * kc, ws.bPanel.data() + jr * kc, op.c + (ic + ir) * op.ldc + jc + jr,
                        op.ldc, std::min(MR, mc - ir), std::min(NR, nc - jr));
      }
    }
  }
}

template <typename T, typename Kernel>
void runBatch(GemmShape shape, GemmAcc<T> alpha, int64_t batch,
              const std::function<GemmOperands<T>(int64_t)>& operandsOf) {
  // Threads take whole products when the batch divides evenly among them (or
  // is large); otherwise every product is cut into one chunk per thread,
  // along columns or rows of C, whichever has more micro-tiles.
  const int64_t threads = maxThreads();
  const int64_t chunks = batch % threads == 0 || batch >= 8 * threads ? 1 : threads;
  const bool splitCols = (shape.n + Kernel::NR - 1) / Kernel::NR >= (shape.m + Kernel::MR - 1) / Kernel::MR;
  const double costPerTask = 2.0 * static_cast<double>(shape.m * shape.n * shape.k) / static_cast<double>(chunks);
  parallelFor(batch * chunks, costPerTask, [&](int64_t begin, int64_t end) {
    Workspace<GemmAcc<T>> ws;
    for (int64_t task = begin; task < end; ++task) {
      const int64_t chunk = task % chunks;
      const Range rows = splitCols ? Range{0, shape.m} : chunkOf(shape.m, Kernel::MR, chunk, chunks);
      const Range cols = splitCols ? chunkOf(shape.n, Kernel::NR, chunk, chunks) : Range{0, shape.n};
      if (rows.empty() || cols.empty()) continue;
      const GemmOperands<T> op = operandsOf(task / chunks);
      const auto* stridedB = std::get_if<StridedMatrix<T>>(&op.b);
      if (stridedB && (shape.m == 1 || shape.n == 1))
        vectorProduct(shape, alpha, op, *stridedB, rows, cols, ws);
      else
        packedProduct<T, Kernel>(shape.k, alpha, op, rows, cols, ws);
    }
  });
}

} // namespace

template <typename T>
void gemm(GemmShape shape, GemmAcc<T> alpha, int64_t batch,
          const std::function<GemmOperands<T>(int64_t)>& operandsOf) {
  if (batch <= 0 || shape.m <= 0 || shape.n <= 0 || shape.k <= 0) return;
#if defined(__x86_64__)
  if constexpr (std::is_floating_point_v<GemmAcc<T>>)
    if (detail::cpuHasAvx2Fma()) return runBatch<T, detail::Avx2Kernel<GemmAcc<T>>>(shape, alpha, batch, operandsOf);
#endif
  runBatch<T, detail::GenericKernel<GemmAcc<T>>>(shape, alpha, batch, operandsOf);
}

#define TCX_INSTANTIATE_GEMM(T)                                                                                        \
  template void gemm<T>(GemmShape, GemmAcc<T>, int64_t, const std::function<GemmOperands<T>(int64_t)>&);
TCX_INSTANTIATE_GEMM(float)
TCX_INSTANTIATE_GEMM(Half)
TCX_INSTANTIATE_GEMM(BFloat16)
TCX_INSTANTIATE_GEMM(double)
TCX_INSTANTIATE_GEMM(int32_t)
TCX_INSTANTIATE_GEMM(int64_t)
#undef TCX_INSTANTIATE_GEMM

} // namespace tcx::nn
