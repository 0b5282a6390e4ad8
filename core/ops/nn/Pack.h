#pragma once
// Packing for the GEMM core (private to Gemm.cpp): copies a block of A or B
// into the panel layout the micro-kernel reads, converted to the accumulator
// type. A is packed in slivers of MR rows stored k-major (sliver[k * MR + i]),
// B in slivers of NR columns (sliver[k * NR + j]). Rows and columns past the
// edge of the block are zero, so the micro-kernel has no ragged loops.

#include "ops/nn/Gemm.h"

#include <algorithm>
#include <cstdint>

namespace tcx::nn::detail {

// Rows [i0, i0 + mc) and columns [k0, k0 + kc) of A, times alpha.
template <int MR, typename Acc, typename T>
void packA(const StridedMatrix<T>& a, int64_t i0, int64_t mc, int64_t k0, int64_t kc, Acc alpha, Acc* dst) {
  for (int64_t ir = 0; ir < mc; ir += MR, dst += kc * MR) {
    const int64_t rows = std::min<int64_t>(MR, mc - ir);
    for (int64_t i = 0; i < MR; ++i) {
      if (i >= rows) {
        for (int64_t k = 0; k < kc; ++k) dst[k * MR + i] = Acc(0);
        continue;
      }
      const T* src = a.data + (i0 + ir + i) * a.rowStride + k0 * a.colStride;
      for (int64_t k = 0; k < kc; ++k) dst[k * MR + i] = alpha * static_cast<Acc>(src[k * a.colStride]);
    }
  }
}

// Rows [k0, k0 + kc) and columns [j0, j0 + nc) of a strided B.
template <int NR, typename Acc, typename T>
void packB(const StridedMatrix<T>& b, int64_t k0, int64_t kc, int64_t j0, int64_t nc, Acc* dst) {
  for (int64_t jr = 0; jr < nc; jr += NR, dst += kc * NR) {
    const int64_t cols = std::min<int64_t>(NR, nc - jr);
    const T* src = b.data + k0 * b.rowStride + (j0 + jr) * b.colStride;
    if (cols == NR && b.colStride == 1) {
      for (int64_t k = 0; k < kc; ++k)
        for (int64_t j = 0; j < NR; ++j) dst[k * NR + j] = static_cast<Acc>(src[k * b.rowStride + j]);
      continue;
    }
    for (int64_t k = 0; k < kc; ++k)
      for (int64_t j = 0; j < NR; ++j)
        dst[k * NR + j] = j < cols ? static_cast<Acc>(src[k * b.rowStride + j * b.colStride]) : Acc(0);
  }
}

// Walks the rows of a patch matrix in order: row k is channel k / volume(kernel)
// at kernel tap k % volume(kernel), the tap's three coordinates row-major.
class TapCursor {
public:
  TapCursor(const PatchGeometry& g, int64_t k) : kernel_(g.kernel) {
    const int64_t taps = volume(g.kernel);
    channel = k / taps;
    int64_t r = k % taps;
    tap[2] = r % kernel_[2];
    r /= kernel_[2];
    tap[1] = r % kernel_[1];
    tap[0] = r / kernel_[1];
  }

  void advance() {
    for (int d = 2; d >= 0; --d) {
      if (++tap[d] < kernel_[d]) return;
      tap[d] = 0;
    }
    ++channel;
  }

  int64_t channel = 0;
  Dims3 tap{};

private:
  Dims3 kernel_;
};

// Rows [k0, k0 + kc) and columns [j0, j0 + nc) of a patch matrix (im2col on
// the fly). A sliver whose columns lie on one output row, the common case,
// finds each tap's input row once and copies it; others look up every element.
template <int NR, typename Acc, typename T>
void packB(const PatchMatrix<T>& p, int64_t k0, int64_t kc, int64_t j0, int64_t nc, Acc* dst) {
  const PatchGeometry& g = *p.geometry;
  const Dims3& in = g.inputSize;
  const int64_t plane = volume(in);
  const int64_t outW = g.outputSize[2];
  for (int64_t jr = 0; jr < nc; jr += NR, dst += kc * NR) {
    const int64_t cols = std::min<int64_t>(NR, nc - jr);
    // The input coordinates of tap 0 under each column's window.
    Dims3 origin[NR];
    for (int64_t j = 0; j < cols; ++j) {
      int64_t col = j0 + jr + j;
      for (int d = 2; d >= 0; --d) {
        origin[j][d] = (col % g.outputSize[d]) * g.strides[d] - g.padsBegin[d];
        col /= g.outputSize[d];
      }
    }
    const bool oneRow = cols == NR && (j0 + jr) % outW + NR <= outW;
    TapCursor cur(g, k0);
    for (int64_t k = 0; k < kc; ++k, cur.advance()) {
      Acc* out = dst + k * NR;
      const T* image = p.image + cur.channel * plane;
      Dims3 at;
      for (int d = 0; d < 3; ++d) at[d] = origin[0][d] + cur.tap[d] * g.dilations[d];
      if (oneRow) {
        if (at[0] < 0 || at[0] >= in[0] || at[1] < 0 || at[1] >= in[1]) {
          std::fill(out, out + NR, Acc(0));
          continue;
        }
        const T* row = image + (at[0] * in[1] + at[1]) * in[2];
        const int64_t sw = g.strides[2];
        if (sw == 1 && at[2] >= 0 && at[2] + NR <= in[2]) {
          for (int64_t j = 0; j < NR; ++j) out[j] = static_cast<Acc>(row[at[2] + j]);
          continue;
        }
        for (int64_t j = 0; j < NR; ++j) {
          const int64_t w = at[2] + j * sw;
          out[j] = w >= 0 && w < in[2] ? static_cast<Acc>(row[w]) : Acc(0);
        }
        continue;
      }
      for (int64_t j = 0; j < NR; ++j) {
        bool inside = j < cols;
        int64_t offset = 0;
        for (int d = 0; d < 3 && inside; ++d) {
          const int64_t x = origin[j][d] + cur.tap[d] * g.dilations[d];
          inside = x >= 0 && x < in[d];
          offset = offset * in[d] + x;
        }
        out[j] = inside ? static_cast<Acc>(image[offset]) : Acc(0);
      }
    }
  }
}

} // namespace tcx::nn::detail
