#pragma once
// Device buffers, random data, error checks and timing for KernelBench.

#include "tcx/types.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BENCH_CHECK(call)                                                                          \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (false)

namespace bench {

using tcx::i64;

// Device memory of `count` elements of T, plus `slack` extra elements for offset views.
template <typename T> struct Buffer {
  T* ptr = nullptr;
  i64 count = 0;
  explicit Buffer(i64 n, i64 slack = 0) : count(n) {
    BENCH_CHECK(cudaMalloc(&ptr, (n + slack) * sizeof(T)));
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { cudaFree(ptr); }
};

__device__ inline unsigned hash32(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<unsigned>(x);
}

// Uniform in [-1, 1), a fresh sequence per seed.
template <typename T> __global__ void fillRandom(T* p, i64 n, unsigned seed) {
  for (i64 i = blockIdx.x * i64{blockDim.x} + threadIdx.x; i < n; i += i64{gridDim.x} * blockDim.x)
    p[i] = tcx::from_float<T>(hash32((static_cast<unsigned long long>(seed) << 40) ^ i) * (2.0f / 4294967296.0f) - 1.0f);
}

template <typename T> __global__ void fillNaN(T* p, i64 n) {
  for (i64 i = blockIdx.x * i64{blockDim.x} + threadIdx.x; i < n; i += i64{gridDim.x} * blockDim.x)
    p[i] = __int_as_float(0x7fc00000);
}

template <typename T> void randomize(Buffer<T>& b, unsigned seed, i64 slack = 0) {
  fillRandom<<<1024, 256>>>(b.ptr, b.count + slack, seed);
  BENCH_CHECK(cudaGetLastError());
}

inline void poison(Buffer<float>& b) {
  fillNaN<<<1024, 256>>>(b.ptr, b.count);
  BENCH_CHECK(cudaGetLastError());
}

struct Errors {
  double relL2 = 0, maxAbs = 0;
  i64 bad = 0; // NaN where the reference is finite, or finite where it is NaN
};

inline Errors compare(const Buffer<float>& out, const Buffer<float>& ref) {
  std::vector<float> o(out.count), r(ref.count);
  BENCH_CHECK(cudaDeviceSynchronize());
  BENCH_CHECK(cudaMemcpy(o.data(), out.ptr, o.size() * 4, cudaMemcpyDeviceToHost));
  BENCH_CHECK(cudaMemcpy(r.data(), ref.ptr, r.size() * 4, cudaMemcpyDeviceToHost));
  Errors e;
  double num = 0, den = 0;
  for (size_t i = 0; i < o.size(); ++i) {
    if (std::isnan(r[i]) || std::isnan(o[i])) {
      e.bad += std::isnan(r[i]) != std::isnan(o[i]);
      continue;
    }
    const double d = double(o[i]) - r[i];
    num += d * d, den += double(r[i]) * r[i];
    e.maxAbs = std::max(e.maxAbs, std::fabs(d));
  }
  e.relL2 = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  return e;
}

inline int failures = 0;

inline void report(const char* name, const Errors& e, double tol) {
  const bool ok = e.bad == 0 && e.relL2 <= tol;
  failures += !ok;
  std::printf("%-4s %-58s relL2 %.2e  maxAbs %.2e  bad %lld  (tol %.0e)\n", ok ? "PASS" : "FAIL", name,
              e.relL2, e.maxAbs, static_cast<long long>(e.bad), tol);
}

// How each timed repetition empties L2 first: by reading a buffer twice its size (tcx/l2_flush.cuh,
// as tcx profile does), or by a memset (`--memset-flush`, as KernelBench did before 2026-11-29),
// which leaves L2 full of dirty lines that the timed kernel writes back while it runs.
enum class Flush { Read, Memset };
inline Flush flushMode = Flush::Read;

inline int smCount() {
  static int sms = [] {
    int device = 0, n = 0;
    BENCH_CHECK(cudaGetDevice(&device));
    BENCH_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device));
    return n;
  }();
  return sms;
}

// Reads `bytes` at `p` (a multiple of 16) with tcx/l2_flush.cuh's kernel; the buffer must be
// zeroed (KernelBench.cu).
void readAll(const void* p, i64 bytes, unsigned* sink);

// 256 MiB, zeroed once (so the flush kernel's key 1 never matches).
struct FlushBuffer {
  static constexpr i64 kBytes = i64{256} << 20;
  Buffer<unsigned char> data{kBytes};
  Buffer<unsigned> sink{1};
  FlushBuffer() { BENCH_CHECK(cudaMemset(data.ptr, 0, kBytes)); }
};

inline void flushL2(Flush mode) {
  static FlushBuffer buffer;
  if (mode == Flush::Memset)
    BENCH_CHECK(cudaMemsetAsync(buffer.data.ptr, 0, FlushBuffer::kBytes));
  else
    readAll(buffer.data.ptr, FlushBuffer::kBytes, buffer.sink.ptr);
}

// Median time in microseconds of `launch`, L2 flushed (flushMode) before each repetition.
template <typename F> double medianMicros(F&& launch, int reps = 50, Flush mode = flushMode) {
  cudaEvent_t start, stop;
  BENCH_CHECK(cudaEventCreate(&start));
  BENCH_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 3; ++i)
    launch();
  std::vector<float> times;
  for (int i = 0; i < reps; ++i) {
    flushL2(mode);
    BENCH_CHECK(cudaEventRecord(start));
    launch();
    BENCH_CHECK(cudaEventRecord(stop));
    BENCH_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    BENCH_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms * 1000.0f);
  }
  BENCH_CHECK(cudaGetLastError());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(times.begin(), times.begin() + reps / 2, times.end());
  return times[reps / 2];
}

// Device-to-device copy bandwidth in GB/s, counting bytes read and written.
inline double copyBandwidth() {
  const i64 bytes = i64{1} << 30;
  Buffer<unsigned char> src(bytes), dst(bytes);
  BENCH_CHECK(cudaMemset(src.ptr, 1, bytes));
  const double us = medianMicros([&] { BENCH_CHECK(cudaMemcpyAsync(dst.ptr, src.ptr, bytes, cudaMemcpyDeviceToDevice)); }, 20);
  return 2.0 * bytes / us / 1e3;
}

} // namespace bench
