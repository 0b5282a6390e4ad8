#pragma once
// The register-blocked inner loop of the GEMM core (private to Gemm.cpp).
// An MR x NR tile of C lives in MR * NR / W vector registers of W lanes while
// the loop over k streams one packed sliver of A and one of B; the tile is
// added to C once at the end. The code uses GCC/Clang vector extensions, so
// one body serves every instruction set: each kernel variant below inlines it
// into a function compiled for its own target.

#include <cstdint>
#include <cstring>

namespace tcx::nn::detail {

template <typename Acc, int W> struct VecOf { typedef Acc type __attribute__((vector_size(W * sizeof(Acc)))); };
template <typename Acc, int W> using Vec = typename VecOf<Acc, W>::type;

// C[0:mr, 0:nr] += A-sliver * B-sliver over kc steps; mr <= MR, nr <= NR.
template <typename Acc, int MR, int NR, int W>
[[gnu::always_inline]] inline void microKernel(int64_t kc, const Acc* a, const Acc* b, Acc* c, int64_t ldc, int64_t mr,
                                               int64_t nr) {
  static_assert(NR % W == 0);
  constexpr int NV = NR / W;
  using V = Vec<Acc, W>;
  V acc[MR][NV];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) acc[i][v] = V{};

  for (int64_t k = 0; k < kc; ++k, a += MR, b += NR) {
    V bv[NV];
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) std::memcpy(&bv[v], b + v * W, sizeof(V));
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
      // Scalar minus vector broadcasts the scalar, and subtracting +0 leaves
      // every value (-0 included) unchanged, so this compiles to a single
      // broadcast load; a lane-by-lane fill or `+ V{}` does not.
      const V ai = a[i] - V{};
#pragma GCC unroll 16
      for (int v = 0; v < NV; ++v) acc[i][v] += ai * bv[v];
    }
  }

  if (mr == MR && nr == NR) {
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 16
      for (int v = 0; v < NV; ++v) {
        V cv;
        std::memcpy(&cv, c + i * ldc + v * W, sizeof(V));
        cv += acc[i][v];
        std::memcpy(c + i * ldc + v * W, &cv, sizeof(V));
      }
    return;
  }
  Acc tile[MR][NR];
  std::memcpy(tile, acc, sizeof(tile));
  for (int64_t i = 0; i < mr; ++i)
    for (int64_t j = 0; j < nr; ++j) c[i * ldc + j] += tile[i][j];
}

// A kernel variant: its tile shape and the function that runs it.
template <typename Acc_, int MR_, int NR_> struct KernelShape {
  using Acc = Acc_;
  static constexpr int MR = MR_;
  static constexpr int NR = NR_;
};

// Portable kernels, sized for 16 SSE-class registers of 16 bytes.
template <typename Acc> struct GenericKernel : KernelShape<Acc, 4, 32 / sizeof(Acc)> {
  static void run(int64_t kc, const Acc* a, const Acc* b, Acc* c, int64_t ldc, int64_t mr, int64_t nr) {
    microKernel<Acc, 4, 32 / sizeof(Acc), 16 / sizeof(Acc)>(kc, a, b, c, ldc, mr, nr);
  }
};

#if defined(__x86_64__)
// x86-64 CPUs with AVX2 and FMA (nearly all since 2013): 16 registers of 32
// bytes hold a 6 x 2-vector tile, two B vectors and a broadcast A value, and
// each step is a fused multiply-add.
template <typename Acc> struct Avx2Kernel : KernelShape<Acc, 6, 64 / sizeof(Acc)> {
  [[gnu::target("avx2,fma")]] static void run(int64_t kc, const Acc* a, const Acc* b, Acc* c, int64_t ldc, int64_t mr,
                                              int64_t nr) {
    microKernel<Acc, 6, 64 / sizeof(Acc), 32 / sizeof(Acc)>(kc, a, b, c, ldc, mr, nr);
  }
};

inline bool cpuHasAvx2Fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}
#endif

} // namespace tcx::nn::detail
