// gemm_small_m, gemm_tiled and gemm_wgmma_f32 against the reference kernel, and
// their speed; float GEMMs also against cuBLAS's SGEMM in its default (fp32, no tf32) math mode,
// which is what PyTorch runs for an fp32 matmul, 16-bit ones against cuBLAS's GemmEx. Each case
// runs on every other kernel that can take it as well, so they compare in one run.

#include "BenchUtil.cuh"
#include "Dispatch.cuh"
#include "Reference.cuh"
#include "tcx/gemm.cuh"
#include "tcx/launch.h"

#include <algorithm>
#include <cublas_v2.h>

#include <cstring>
#include <string>

namespace bench {
namespace {

template <typename T, int MT, tcx::Access B, typename E>
__global__ void __launch_bounds__(tcx::kSmallMThreads, tcx::smallMMinBlocks(MT)) smallMKernel(tcx::GemmParams p, E e) {
  tcx::gemm_small_m_body<T, MT, B>(p, e);
}

template <typename T, tcx::Access A, tcx::Access B, int Rows, typename E>
__global__ void __launch_bounds__(tcx::tiledThreads(Rows), tcx::tiledMinBlocks(Rows))
    tiledKernel(tcx::GemmParams p, E e) {
  tcx::gemm_tiled_body<T, A, B, Rows>(p, e);
}

template <tcx::Access B, bool Tf32, typename E>
__global__ void __launch_bounds__(tcx::kWgmmaThreads, tcx::wgmmaMinBlocks(Tf32)) wgmmaKernel(tcx::GemmParams p, E e) {
  tcx::gemm_wgmma_f32_body<B, Tf32>(p, e);
}

template <typename T>
void launchGemm(const tcx::GemmPlan& plan, const tcx::GemmParams& p, StoreC e) {
  if constexpr (std::is_same_v<T, float>)
    if (plan.kernel == tcx::GemmKernel::WgmmaF32) {
      const auto run = [&](auto tf32) {
        if (plan.bAccess == tcx::Access::ColContiguous)
          launch(wgmmaKernel<tcx::Access::ColContiguous, tf32.value, StoreC>, plan.launch, p, e);
        else
          launch(wgmmaKernel<tcx::Access::RowContiguous, tf32.value, StoreC>, plan.launch, p, e);
      };
      if (plan.tf32)
        run(std::true_type{});
      else
        run(std::false_type{});
      return;
    }
  if (plan.kernel == tcx::GemmKernel::Tiled) {
    withInt<tcx::kTiledSmall, tcx::kTiledLarge>(plan.tileRows, [&](auto rows) {
      withAccess(plan.aAccess, [&](auto a) {
        withAccess(plan.bAccess,
                   [&](auto b) { launch(tiledKernel<T, a.value, b.value, rows.value, StoreC>, plan.launch, p, e); });
      });
    });
    return;
  }
  if constexpr (std::is_same_v<T, float>)
    withInt<1, 2>(plan.mTiles, [&](auto mt) {
      withAccess(plan.bAccess, [&](auto b) { launch(smallMKernel<T, mt.value, b.value, StoreC>, plan.launch, p, e); });
    });
  else
    withInt<1, 2, 5, 8>(plan.mTiles, [&](auto mt) {
      withAccess(plan.bAccess, [&](auto b) { launch(smallMKernel<T, mt.value, b.value, StoreC>, plan.launch, p, e); });
    });
}

enum class Layout { RowMajor, ColMajor, EveryOther }; // of the 2-D view (row, col)

struct GemmCase {
  const char* name;
  int batch, m, n, k;
  Layout a, b;
  int splitK = 0; // 0: planner's choice
  bool time = false;
  int padA = 0, padB = 0; // extra elements per leading dimension
  bool tf32 = false;      // float as one tf32 product (a pointwise convolution's GEMM)
};

// Strides of a (rows x cols) view stored in `layout` and the elements its buffer needs.
i64 viewStrides(Layout layout, int batch, int rows, int cols, int pad, i64 (&s)[3]) {
  if (layout == Layout::RowMajor)
    s[1] = cols + pad, s[2] = 1, s[0] = i64{rows} * s[1];
  else if (layout == Layout::ColMajor)
    s[1] = 1, s[2] = rows + pad, s[0] = i64{cols} * s[2];
  else
    s[1] = 2 * i64{cols}, s[2] = 2, s[0] = i64{rows} * s[1];
  return batch * s[0];
}

template <typename T> tcx::ElemType elemType() {
  return std::is_same_v<T, float> ? tcx::ElemType::F32
         : std::is_same_v<T, __half> ? tcx::ElemType::F16 : tcx::ElemType::BF16;
}

// cuBLAS on the same operands (SGEMM for float, in its default fp32 math; GemmEx with fp32 accumulation and output
// for 16-bit T), row-major A (unpadded) and B row- or column-major: as column-major, C^T = B^T A^T. Microseconds,
// or 0 where the case's layout is not one of those.
template <typename T> double cublasMicros(const GemmCase& c, const T* a, const T* b, float* out) {
  if (c.a != Layout::RowMajor || c.b == Layout::EveryOther || c.padA || c.padB)
    return 0;
  static cublasHandle_t handle = [] {
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
      std::abort();
    return h;
  }();
  const float one = 1.0f, zero = 0.0f;
  const bool bRowMajor = c.b == Layout::RowMajor;
  const cublasOperation_t opB = bRowMajor ? CUBLAS_OP_N : CUBLAS_OP_T;
  const int ldb = bRowMajor ? c.n : c.k;
  return medianMicros([&] {
    if constexpr (std::is_same_v<T, float>) {
      cublasSgemmStridedBatched(handle, opB, CUBLAS_OP_N, c.n, c.m, c.k, &one, b, ldb, i64{c.k} * c.n, a, c.k,
                                i64{c.m} * c.k, &zero, out, c.n, i64{c.m} * c.n, c.batch);
    } else {
      const cudaDataType type = std::is_same_v<T, __half> ? CUDA_R_16F : CUDA_R_16BF;
      cublasGemmStridedBatchedEx(handle, opB, CUBLAS_OP_N, c.n, c.m, c.k, &one, b, type, ldb, i64{c.k} * c.n, a,
                                 type, c.k, i64{c.m} * c.k, &zero, out, CUDA_R_32F, c.n, i64{c.m} * c.n, c.batch,
                                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    }
  });
}

// The planner's choice, then every other kernel that could run the case (`force`), then for a timed case cuBLAS.
template <typename T>
void runGemm(const GemmCase& c, int sms, double copyGBs, unsigned seed, bool wgmma,
             tcx::GemmForce force = tcx::GemmForce::None) {
  tcx::GemmProblem pr;
  pr.type = elemType<T>();
  pr.batch = c.batch, pr.m = c.m, pr.n = c.n, pr.k = c.k;
  pr.tf32 = c.tf32;
  Buffer<T> a(viewStrides(c.a, c.batch, c.m, c.k, c.padA, pr.aStrides));
  Buffer<T> b(viewStrides(c.b, c.batch, c.k, c.n, c.padB, pr.bStrides));
  randomize(a, seed), randomize(b, seed + 1);
  const tcx::GemmPlan plan = tcx::planGemm(pr, sms, c.splitK, wgmma, force);
  Buffer<unsigned char> ws(std::max<i64>(1, plan.workspaceBytes));
  BENCH_CHECK(cudaMemset(ws.ptr, 0, ws.count));
  tcx::GemmParams p = plan.params;
  p.a.data = a.ptr, p.b.data = b.ptr, p.workspace = ws.ptr;
  Buffer<float> out(i64{c.batch} * c.m * c.n), ref(out.count);
  const StoreC store{out.ptr, c.m, c.n};

  // Twice, poisoned in between: the second run proves the split counters were reset.
  launchGemm<T>(plan, p, store);
  poison(out);
  launchGemm<T>(plan, p, store);
  referenceGemm<T><<<dim3((c.n + 127) / 128, std::min(c.m, 65535), c.batch), 128>>>(p, StoreC{ref.ptr, c.m, c.n});
  BENCH_CHECK(cudaGetLastError());
  const std::string kernel = plan.kernel == tcx::GemmKernel::WgmmaF32 ? "wgmma, " : "";
  const std::string what = std::string(c.name) + " [" + kernel + tcx::gemmTemplateArgs(plan, "E") + ", split " +
                           std::to_string(p.splitK) + "]";
  report(what.c_str(), compare(out, ref), c.tf32 ? 2e-3 : std::is_same_v<T, float> ? 1e-5 : 1e-4);
  const auto runAlternatives = [&] {
    if (force != tcx::GemmForce::None)
      return;
    // Each kernel once: a force the case cannot take (wgmma for 16-bit T) plans what another force does.
    std::vector<std::pair<tcx::GemmKernel, int>> ran{{plan.kernel, plan.tileRows}};
    for (const auto other : {tcx::GemmForce::Wgmma, tcx::GemmForce::TiledLarge, tcx::GemmForce::TiledSmall}) {
      const tcx::GemmPlan alt = tcx::planGemm(pr, sms, c.splitK, wgmma, other);
      if (std::find(ran.begin(), ran.end(), std::pair{alt.kernel, alt.tileRows}) != ran.end())
        continue;
      ran.emplace_back(alt.kernel, alt.tileRows);
      runGemm<T>(c, sms, copyGBs, seed, wgmma, other);
    }
  };
  if (!c.time) {
    runAlternatives();
    return;
  }
  const double us = medianMicros([&] { launchGemm<T>(plan, p, store); });
  const double bytes = double(c.batch) * (i64{c.m} * c.k + i64{c.k} * c.n) * sizeof(T) + out.count * 4.0;
  const double flops = 2.0 * c.batch * c.m * c.n * double(c.k);
  std::printf("TIME %-58s %9.1f us  %7.0f GB/s  %5.1f%% of copy  %6.1f TFLOP/s\n", what.c_str(), us,
              bytes / us / 1e3, 100.0 * bytes / us / 1e3 / copyGBs, flops / us / 1e6);
  if (force != tcx::GemmForce::None)
    return;
  runAlternatives();
  if (const double cublas = cublasMicros(c, a.ptr, b.ptr, ref.ptr))
    std::printf("TIME %-58s %9.1f us  cuBLAS %s, %6.1f TFLOP/s: tcx takes %.2fx its time\n", c.name, cublas,
                std::is_same_v<T, float> ? "SGEMM" : "GemmEx", flops / cublas / 1e6, us / cublas);
}

} // namespace

void gemmBench(int sms, double copyGBs, bool checksOnly, const char* only) {
  using L = Layout;
  unsigned seed = 100;
  const auto wanted = [&](const GemmCase& c) {
    return !(checksOnly && c.time) && (!only || std::strstr(c.name, only));
  };
  const GemmCase bf16Cases[] = {
      {"small_m decode 16x4096x6144", 1, 16, 6144, 4096, L::RowMajor, L::RowMajor, 0, true},
      {"small_m decode 16x4096x4096", 1, 16, 4096, 4096, L::RowMajor, L::RowMajor, 0, true},
      {"small_m 16x4096x6144 split 1", 1, 16, 6144, 4096, L::RowMajor, L::RowMajor, 1, true},
      {"small_m 16x4096x6144 split 2", 1, 16, 6144, 4096, L::RowMajor, L::RowMajor, 2, true},
      {"small_m 16x4096x6144 split 4", 1, 16, 6144, 4096, L::RowMajor, L::RowMajor, 4, true},
      {"small_m 16x4096x6144 split 8", 1, 16, 6144, 4096, L::RowMajor, L::RowMajor, 8, true},
      {"small_m 16x4096x4096 split 2", 1, 16, 4096, 4096, L::RowMajor, L::RowMajor, 2, true},
      {"small_m 16x4096x4096 split 4", 1, 16, 4096, 4096, L::RowMajor, L::RowMajor, 4, true},
      {"small_m 16x4096x4096 split 8", 1, 16, 4096, 4096, L::RowMajor, L::RowMajor, 8, true},
      {"small_m 16x4096x6144 B k-contiguous", 1, 16, 6144, 4096, L::RowMajor, L::ColMajor, 0, true},
      {"small_m 1x1000x1000 ragged", 1, 1, 1000, 1000, L::RowMajor, L::RowMajor},
      {"small_m 5x4096x4096 B k-contiguous", 1, 5, 4096, 4096, L::RowMajor, L::ColMajor},
      {"small_m 33x515x777 B strided", 1, 33, 515, 777, L::RowMajor, L::RowMajor},
      {"small_m 3x8x256x512 A col-major B every other", 3, 8, 256, 512, L::ColMajor, L::EveryOther},
      {"small_m 16x1001x1001 padded, n and k tails", 1, 16, 1001, 1001, L::RowMajor, L::RowMajor, 0, false, 7, 7},
      {"tiled 4096^3", 1, 4096, 4096, 4096, L::RowMajor, L::RowMajor, 0, true},
      {"tiled 4096^3 B k-contiguous", 1, 4096, 4096, 4096, L::RowMajor, L::ColMajor, 0, true},
      {"tiled 1000x999x1001 padded, n and k tails", 1, 1000, 999, 1001, L::RowMajor, L::RowMajor, 0, false, 7, 9},
      {"tiled 2x300x200x150 A col-major B every other", 2, 300, 200, 150, L::ColMajor, L::EveryOther},
      {"tiled 65x4096x512 B k-contiguous", 1, 65, 4096, 512, L::RowMajor, L::ColMajor},
  };
  for (const GemmCase& c : bf16Cases)
    if (wanted(c))
      runGemm<__nv_bfloat16>(c, sms, copyGBs, seed += 2, false);

  const GemmCase halfCases[] = {
      {"half small_m 64x1536x2048", 1, 64, 1536, 2048, L::RowMajor, L::RowMajor},
      {"half small_m 40x1536x2048 B k-contiguous", 1, 40, 1536, 2048, L::RowMajor, L::ColMajor},
      {"half tiled 512x768x1024 B k-contiguous", 1, 512, 768, 1024, L::RowMajor, L::ColMajor},
      {"half tiled 4096^3", 1, 4096, 4096, 4096, L::RowMajor, L::RowMajor, 0, true},
  };
  for (const GemmCase& c : halfCases)
    if (wanted(c))
      runGemm<__half>(c, sms, copyGBs, seed += 2, false);

  const GemmCase floatCases[] = {
      {"float tiled 513x257x300", 1, 513, 257, 300, L::RowMajor, L::RowMajor},
      {"float tiled 2x100x120x70 A col-major B every other", 2, 100, 120, 70, L::ColMajor, L::EveryOther},
      {"float tiled 513x257x300 B k-contiguous", 1, 513, 257, 300, L::RowMajor, L::ColMajor},
      {"float tiled 200x300x1000 split", 1, 200, 300, 1000, L::RowMajor, L::RowMajor},
      {"float tiled 130x260x777 B strided, split", 1, 130, 260, 777, L::RowMajor, L::EveryOther},
      {"float small_m 16x4096x4096", 1, 16, 4096, 4096, L::RowMajor, L::RowMajor, 0, true},
      {"float small_m 16x4096x4096 B k-contiguous", 1, 16, 4096, 4096, L::RowMajor, L::ColMajor, 0, true},
      {"float small_m Llama gate 16x14336x4096 B k-contiguous", 1, 16, 14336, 4096, L::RowMajor, L::ColMajor, 0, true},
      {"float small_m Llama down 16x4096x14336 B k-contiguous", 1, 16, 4096, 14336, L::RowMajor, L::ColMajor, 0, true},
      {"float small_m Llama kv 16x1024x4096 B k-contiguous", 1, 16, 1024, 4096, L::RowMajor, L::ColMajor, 0, true},
      {"float small_m BERT 16x768x768 B k-contiguous", 1, 16, 768, 768, L::RowMajor, L::ColMajor, 0, true},
      {"float small_m classifier 1x1000x1280 B k-contiguous", 1, 1, 1000, 1280, L::RowMajor, L::ColMajor, 0, true},
      {"float ConvNeXt fc1 49x3072x768 B k-contiguous", 1, 49, 3072, 768, L::RowMajor, L::ColMajor, 0, true},
      {"float ConvNeXt fc2 49x768x3072 B k-contiguous", 1, 49, 768, 3072, L::RowMajor, L::ColMajor, 0, true},
      {"float Swin qkv 49x2304x768 B k-contiguous", 1, 49, 2304, 768, L::RowMajor, L::ColMajor, 0, true},
      {"float 64x4096x4096 B k-contiguous", 1, 64, 4096, 4096, L::RowMajor, L::ColMajor, 0, true},
      {"float 96x49x49x32 B k-contiguous", 96, 49, 49, 32, L::RowMajor, L::ColMajor, 0, true},
      {"float small_m 5x4096x4096 B k-contiguous", 1, 5, 4096, 4096, L::RowMajor, L::ColMajor},
      {"float 40x1001x1001 padded, n and k tails", 1, 40, 1001, 1001, L::RowMajor, L::RowMajor, 0, false, 7, 7},
      {"float small_m 16x1001x1001 padded, n and k tails", 1, 16, 1001, 1001, L::RowMajor, L::RowMajor, 0, false, 7, 7},
      {"float small_m 16x1001x1001 B k-contiguous, tails", 1, 16, 1001, 1001, L::RowMajor, L::ColMajor, 0, false, 0, 3},
      {"float small_m 3x8x256x512 A col-major B every other", 3, 8, 256, 512, L::ColMajor, L::EveryOther},
      {"float ViT qkv 197x768x768 B k-contiguous", 1, 197, 768, 768, L::RowMajor, L::ColMajor, 0, true},
      {"float ViT fc1 197x3072x768 B k-contiguous", 1, 197, 3072, 768, L::RowMajor, L::ColMajor, 0, true},
      {"float ViT fc2 197x768x3072 B k-contiguous", 1, 197, 768, 3072, L::RowMajor, L::ColMajor, 0, true},
      {"float ViT fc2 197x768x3072", 1, 197, 768, 3072, L::RowMajor, L::RowMajor, 0, true},
      {"float ViT scores 12x197x197x64 B k-contiguous", 12, 197, 197, 64, L::RowMajor, L::ColMajor, 0, true},
      {"float BERT 128x768x768", 1, 128, 768, 768, L::RowMajor, L::RowMajor, 0, true},
      {"float BERT 128x768x768 split 2", 1, 128, 768, 768, L::RowMajor, L::RowMajor, 2, true},
      {"float BERT 128x768x768 split 4", 1, 128, 768, 768, L::RowMajor, L::RowMajor, 4, true},
      {"float BERT 128x768x768 split 6", 1, 128, 768, 768, L::RowMajor, L::RowMajor, 6, true},
      {"float ConvNeXt fc2 196x384x1536", 1, 196, 384, 1536, L::RowMajor, L::RowMajor, 0, true},
      {"float ConvNeXt fc2 196x384x1536 split 4", 1, 196, 384, 1536, L::RowMajor, L::RowMajor, 4, true},
      {"float ConvNeXt fc2 196x384x1536 split 8", 1, 196, 384, 1536, L::RowMajor, L::RowMajor, 8, true},
      {"float ConvNeXt fc2 196x384x1536 split 12", 1, 196, 384, 1536, L::RowMajor, L::RowMajor, 12, true},
      {"float ConvNeXt fc1 196x1536x384", 1, 196, 1536, 384, L::RowMajor, L::RowMajor, 0, true},
      {"float ConvNeXt fc1 196x1536x384 split 1", 1, 196, 1536, 384, L::RowMajor, L::RowMajor, 1, true},
      {"float ConvNeXt fc1 196x1536x384 split 3", 1, 196, 1536, 384, L::RowMajor, L::RowMajor, 3, true},
      {"float Swin fc1 196x1536x384 B k-contiguous", 1, 196, 1536, 384, L::RowMajor, L::ColMajor, 0, true},
      {"float Swin fc2 196x384x1536 B k-contiguous", 1, 196, 384, 1536, L::RowMajor, L::ColMajor, 0, true},
      {"float Swin qkv 196x1152x384 B k-contiguous", 1, 196, 1152, 384, L::RowMajor, L::ColMajor, 0, true},
      {"float Swin proj 196x384x384 B k-contiguous", 1, 196, 384, 384, L::RowMajor, L::ColMajor, 0, true},
      {"float Swin proj 49x768x768 B k-contiguous", 1, 49, 768, 768, L::RowMajor, L::ColMajor, 0, true},
      {"float Swin fc1 784x768x192 B k-contiguous", 1, 784, 768, 192, L::RowMajor, L::ColMajor, 0, true},
      {"float Swin qkv 3136x288x96 B k-contiguous", 1, 3136, 288, 96, L::RowMajor, L::ColMajor, 0, true},
      {"float 200x300x1000 small tiles, split", 1, 200, 300, 1000, L::RowMajor, L::RowMajor},
      {"float 70x130x90 small tiles, A col-major B every other", 1, 70, 130, 90, L::ColMajor, L::EveryOther},
      {"float 1000x999x1001 padded, m, n and k tails", 1, 1000, 999, 1001, L::RowMajor, L::RowMajor, 0, false, 7, 5},
      {"float 3x300x256x200 batched", 3, 300, 256, 200, L::RowMajor, L::RowMajor},
      {"float ViT-32 fc1 6304x3072x768", 1, 6304, 3072, 768, L::RowMajor, L::RowMajor, 0, true},
      {"float ViT-32 fc2 6304x768x3072", 1, 6304, 768, 3072, L::RowMajor, L::RowMajor, 0, true},
      {"float 2048^3", 1, 2048, 2048, 2048, L::RowMajor, L::RowMajor, 0, true},
      {"tf32 ResNeXt 1x1 256->128 100352x128x256 B k-contiguous", 1, 100352, 128, 256, L::RowMajor, L::ColMajor, 0, true,
       0, 0, true},
      {"tf32 ResNeXt 1x1 256->256 100352x256x256 B k-contiguous", 1, 100352, 256, 256, L::RowMajor, L::ColMajor, 0, true,
       0, 0, true},
      {"tf32 1x1 512->256 25088x256x512 B n-contiguous", 1, 25088, 256, 512, L::RowMajor, L::RowMajor, 0, true, 0, 0,
       true},
      {"tf32 1000x300x260 B k-contiguous, tails", 1, 1000, 300, 260, L::RowMajor, L::ColMajor, 0, false, 0, 0, true},
      {"float 4096^3", 1, 4096, 4096, 4096, L::RowMajor, L::RowMajor, 0, true},
  };
  for (const GemmCase& c : floatCases)
    if (wanted(c))
      runGemm<float>(c, sms, copyGBs, seed += 2, true);
}

} // namespace bench
