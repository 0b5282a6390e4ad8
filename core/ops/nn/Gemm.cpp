#include "ops/nn/Gemm.h"

#include "ops/nn/MatVec.h"
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

// Per-thread scratch: packed panels, the converted vector operand and a
// contiguous stand-in for a strided result vector.
template <typename Acc> struct Workspace {
  std::vector<Acc> aPanel;
  std::vector<Acc> bPanel;
  std::vector<Acc> vector;
  std::vector<Acc> result;
};

// A (rows, cols) block of one product with a single row or column of C.
template <typename T>
void vectorProduct(GemmShape shape, GemmAcc<T> alpha, const GemmOperands<T>& op, const StridedMatrix<T>& b, Range rows,
                   Range cols, Workspace<GemmAcc<T>>& ws) {
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
  detail::matVec(shape.k, range.end - range.begin, ws.vector.data(), part, y, row ? 1 : op.ldc, ws.result);
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
  const double costPerTask = 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.n) *
                             static_cast<double>(shape.k) / static_cast<double>(chunks);
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
void gemm(GemmShape shape, GemmAcc<T> alpha, int64_t batch, const std::function<GemmOperands<T>(int64_t)>& operandsOf) {
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
