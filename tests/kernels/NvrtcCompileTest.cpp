// Every header of kernels/ compiles under NVRTC for sm_90a (the target codegen plans for by
// default; gemm_wgmma_f32 needs its arch-specific wgmma), instantiated the way core's codegen does
// it: extern "C" wrappers around the __device__ bodies, with trivial functors. No GPU needed.

#include <catch2/catch.hpp>

#include <nvrtc.h>

#include <sstream>
#include <string>
#include <vector>

namespace {

// Compiles `source` and returns NVRTC's log; `ok` tells whether it succeeded.
std::string compile(const std::string& source, bool& ok) {
  nvrtcProgram program;
  REQUIRE(nvrtcCreateProgram(&program, source.c_str(), "kernels_test.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS);
  std::vector<std::string> options = {"--gpu-architecture=sm_90a", "-std=c++20",
                                      "-I" TCX_SOURCE_DIR "/kernels/include"};
  std::stringstream cudaIncludes(TCX_CUDA_INCLUDE_DIRS);
  for (std::string dir; std::getline(cudaIncludes, dir, ';');)
    options.push_back("-I" + dir);
  std::vector<const char*> argv;
  for (const std::string& o : options)
    argv.push_back(o.c_str());
  ok = nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data()) == NVRTC_SUCCESS;
  size_t logSize = 0;
  nvrtcGetProgramLogSize(program, &logSize);
  std::string log(logSize, '\0');
  nvrtcGetProgramLog(program, log.data());
  size_t cubinSize = 0;
  if (ok)
    ok = nvrtcGetCUBINSize(program, &cubinSize) == NVRTC_SUCCESS && cubinSize > 0;
  nvrtcDestroyProgram(&program);
  return log;
}

void requireCompiles(const std::string& source) {
  bool ok = false;
  const std::string log = compile(source, ok);
  INFO("NVRTC log:\n" << log);
  REQUIRE(ok);
}

} // namespace

TEST_CASE("types and reduce compile under NVRTC", "[kernels][nvrtc]") {
  requireCompiles(R"(
#include "tcx/reduce.cuh"
#include "tcx/types.cuh"

extern "C" __global__ void conversions(float* out, __half h, int i, bool b, double d) {
  const tcx::Vec16<__half> v = tcx::Vec16<__half>::load(reinterpret_cast<const __half*>(out));
  out[0] = tcx::to_float(h) + tcx::to_float(i) + tcx::to_float(b) + tcx::to_float(d) + tcx::to_float(v.v[3]);
  out[1] = tcx::floordiv(-7, 2) + tcx::floormod(-7, 2) + tcx::warpSum(out[2]) + tcx::blockMax(out[3]);
  out[2] = tcx::to_float(tcx::from_float<int>(out[4])) + tcx::to_float(tcx::from_float<bool>(out[5]));
}
)");
}

TEST_CASE("gemm kernels compile under NVRTC", "[kernels][nvrtc]") {
  requireCompiles(R"(
#include "tcx/gemm.cuh"

struct Epilogue {
  float* c;
  int ldc;
  __device__ void operator()(int batch, int m, int n, float acc) const { c[(batch * 64 + m) * ldc + n] = acc; }
};

extern "C" __global__ void __launch_bounds__(tcx::kSmallMThreads, tcx::smallMMinBlocks(2))
small_bf16(tcx::GemmParams p, Epilogue e) { tcx::gemm_small_m_body<__nv_bfloat16, 2, tcx::Access::ColContiguous>(p, e); }

extern "C" __global__ void __launch_bounds__(tcx::kSmallMThreads, tcx::smallMMinBlocks(8))
small_half_t(tcx::GemmParams p, Epilogue e) { tcx::gemm_small_m_body<__half, 8, tcx::Access::RowContiguous>(p, e); }

extern "C" __global__ void __launch_bounds__(tcx::kSmallMThreads, tcx::smallMMinBlocks(3))
small_strided(tcx::GemmParams p, Epilogue e) { tcx::gemm_small_m_body<__nv_bfloat16, 3, tcx::Access::Strided>(p, e); }

// gemm_tiled's and gemm_wgmma_f32's wrappers as GemmLowering writes them, over both tile shapes,
// every element type and the accesses each takes.
#define TILED(NAME, T, A, B, ROWS)                                                                      \
  extern "C" __global__ void __launch_bounds__(tcx::tiledThreads(ROWS), tcx::tiledMinBlocks(ROWS))     \
  NAME(tcx::GemmParams p, Epilogue e) { tcx::gemm_tiled_body<T, tcx::Access::A, tcx::Access::B, ROWS>(p, e); }
#define WGMMA(NAME, B, TF32)                                                                            \
  extern "C" __global__ void __launch_bounds__(tcx::kWgmmaThreads, tcx::wgmmaMinBlocks(TF32))          \
  NAME(tcx::GemmParams p, Epilogue e) { tcx::gemm_wgmma_f32_body<tcx::Access::B, TF32>(p, e); }

TILED(tiled_bf16, __nv_bfloat16, ColContiguous, RowContiguous, 128)
TILED(tiled_half_strided, __half, RowContiguous, Strided, 64)
TILED(tiled_float, float, ColContiguous, ColContiguous, 128)
TILED(tiled_float_small, float, ColContiguous, RowContiguous, 64)
TILED(tiled_bf16_small_n_major, __nv_bfloat16, ColContiguous, ColContiguous, 64)
WGMMA(wgmma_float, ColContiguous, false)
WGMMA(wgmma_float_k, RowContiguous, false)
WGMMA(wgmma_tf32, ColContiguous, true)
WGMMA(wgmma_tf32_k, RowContiguous, true)

// A B prologue (a pointwise convolution's BN-ReLU), over either B access.
struct ScaleRelu {
  const float* scale;
  struct Channel { float a; };
  __device__ Channel channel(int k) const { return {scale[k]}; }
  __device__ float operator()(const Channel& c, float v) const { return fmaxf(v * c.a, 0.0f); }
};

extern "C" __global__ void __launch_bounds__(tcx::kWgmmaThreads, tcx::wgmmaMinBlocks(true))
wgmma_tf32_prologue(tcx::GemmParams p, Epilogue e, const float* s) {
  tcx::gemm_wgmma_f32_body<tcx::Access::ColContiguous, true, Epilogue, ScaleRelu>(p, e, ScaleRelu{s});
}

extern "C" __global__ void __launch_bounds__(tcx::kWgmmaThreads, tcx::wgmmaMinBlocks(true))
wgmma_tf32_k_prologue(tcx::GemmParams p, Epilogue e, const float* s) {
  tcx::gemm_wgmma_f32_body<tcx::Access::RowContiguous, true, Epilogue, ScaleRelu>(p, e, ScaleRelu{s});
}
)");
}

TEST_CASE("the convolution kernel compiles under NVRTC", "[kernels][nvrtc]") {
  requireCompiles(R"(
#include "tcx/conv_implicit_gemm.cuh"

struct Epilogue {
  float* y;
  __device__ void operator()(int image, int cout, int pixel, float acc) const { y[(image * 64 + cout) * 100 + pixel] = acc; }
};

extern "C" __global__ void __launch_bounds__(tcx::kConvThreads, tcx::kConvMinBlocks)
conv_float_staged(tcx::ConvParams p, Epilogue e) { tcx::conv_implicit_gemm_body<float, tcx::ConvPath::Staged>(p, e); }

extern "C" __global__ void __launch_bounds__(tcx::kConvThreads, 3)
conv_float_window(tcx::ConvParams p, Epilogue e) { tcx::conv_implicit_gemm_body<float, tcx::ConvPath::Window>(p, e); }

extern "C" __global__ void __launch_bounds__(tcx::kConvThreads, tcx::kConvMinBlocks)
conv_float(tcx::ConvParams p, Epilogue e) { tcx::conv_implicit_gemm_body<float, tcx::ConvPath::Gathered>(p, e); }

extern "C" __global__ void __launch_bounds__(tcx::kConvThreads, tcx::kConvMinBlocks)
conv_half(tcx::ConvParams p, Epilogue e) { tcx::conv_implicit_gemm_body<__half, tcx::ConvPath::Gathered>(p, e); }

extern "C" __global__ void __launch_bounds__(tcx::kConvThreads, tcx::kConvMinBlocks)
conv_bf16(tcx::ConvParams p, Epilogue e) { tcx::conv_implicit_gemm_body<__nv_bfloat16, tcx::ConvPath::Gathered>(p, e); }
)");
}

TEST_CASE("a grouped convolution hands a split epilogue its results a group at a time", "[kernels][nvrtc]") {
  // conv_implicit_gemm offsets a group's channels with ChannelOffset; it must
  // keep compute and store where the functor has them, or runEpilogue calls
  // it element by element (each load waiting on the previous store).
  requireCompiles(R"(
#include "tcx/conv_implicit_gemm.cuh"

struct Split {
  float* y;
  struct Out { float v; };
  __device__ Out compute(int image, int cout, int pixel, float acc) const { return {acc + y[pixel]}; }
  __device__ void store(int image, int cout, int pixel, const Out& out) const { y[(image * 64 + cout) * 100 + pixel] = out.v; }
  __device__ void operator()(int image, int cout, int pixel, float acc) const { store(image, cout, pixel, compute(image, cout, pixel, acc)); }
};
struct Plain {
  float* y;
  __device__ void operator()(int image, int cout, int pixel, float acc) const { y[(image * 64 + cout) * 100 + pixel] = acc; }
};
static_assert(tcx::SplitEpilogue<tcx::ChannelOffset<Split>>::value, "a split functor stays split under the offset");
static_assert(!tcx::SplitEpilogue<tcx::ChannelOffset<Plain>>::value, "a plain functor stays plain");

extern "C" __global__ void __launch_bounds__(tcx::kConvThreads, tcx::kConvMinBlocks)
grouped_split_staged(tcx::ConvParams p, Split e) { tcx::conv_implicit_gemm_body<float, tcx::ConvPath::Staged>(p, e); }

extern "C" __global__ void __launch_bounds__(tcx::kConvThreads, 3)
grouped_split_window(tcx::ConvParams p, Split e) { tcx::conv_implicit_gemm_body<float, tcx::ConvPath::Window>(p, e); }

extern "C" __global__ void __launch_bounds__(tcx::kConvThreads, tcx::kConvMinBlocks)
grouped_split(tcx::ConvParams p, Split e) { tcx::conv_implicit_gemm_body<__half, tcx::ConvPath::Gathered>(p, e); }
)");
}

TEST_CASE("attention kernels compile under NVRTC", "[kernels][nvrtc]") {
  requireCompiles(R"(
#include "tcx/attention.cuh"

struct ScoreOp {
  __device__ float operator()(int, int, int i, int j, float dot) const {
    return j > 4000 + i ? -tcx::infinity() : 0.088f * dot;
  }
};
struct OutStore {
  __nv_bfloat16* o;
  __device__ void operator()(int b, int h, int i, int d, float v) const {
    o[((b * 32 + h) * 16 + i) * 128 + d] = tcx::from_float<__nv_bfloat16>(v);
  }
};

extern "C" __global__ void __launch_bounds__(tcx::kAttentionThreads)
attn_bf16_128(tcx::AttentionParams p, ScoreOp s) { tcx::decode_attention_partial_body<__nv_bfloat16, 128, 1>(p, s); }

extern "C" __global__ void __launch_bounds__(tcx::kAttentionThreads)
attn_half_64(tcx::AttentionParams p, ScoreOp s) { tcx::decode_attention_partial_body<__half, 64, 4>(p, s); }

extern "C" __global__ void __launch_bounds__(tcx::kAttentionThreads)
attn_bf16_256(tcx::AttentionParams p, ScoreOp s) { tcx::decode_attention_partial_body<__nv_bfloat16, 256, 1>(p, s); }

extern "C" __global__ void __launch_bounds__(tcx::kCombineThreads)
attn_combine(tcx::AttentionParams p, OutStore o) { tcx::decode_attention_combine_body<__nv_bfloat16, 128>(p, o); }
)");
}

TEST_CASE("the L2 flush compiles under NVRTC", "[kernels][nvrtc]") {
  requireCompiles(R"(
#include "tcx/l2_flush.cuh"

extern "C" __global__ void __launch_bounds__(tcx::kL2FlushThreads)
flush(const uint4* p, tcx::i64 vectors, unsigned key, unsigned* sink) {
  tcx::l2_flush_body(p, vectors, key, sink);
}
)");
}
