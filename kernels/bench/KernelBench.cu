// KernelBench: checks tcx's device library against reference kernels on the GPU and times it
// against the device's measured copy and read-only bandwidths. Build and run: kernels/README.md.

#include "BenchUtil.cuh"

#include <cstdio>
#include <cstring>

namespace bench {
void gemmBench(int sms, double copyGBs, bool checksOnly);
void attentionBench(int sms, double copyGBs, bool checksOnly);

namespace {

// Streams 256 MiB with 16-byte ld.global.nc loads, 4 in flight per thread, 8 blocks of 256 threads
// per multiprocessor: the most a kernel that only reads can get (H200: about 90 % of the copy's
// bandwidth, since the flush leaves dirty lines in L2 that the reads evict).
__global__ void readStream(const uint4* p, i64 n, unsigned* sink) {
  constexpr int kInFlight = 4;
  uint4 acc = make_uint4(0, 0, 0, 0);
  const i64 stride = i64{gridDim.x} * blockDim.x;
  for (i64 i = blockIdx.x * i64{blockDim.x} + threadIdx.x; i < n; i += stride * kInFlight) {
    uint4 v[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u)
      v[u] = i + u * stride < n ? tcx::loadStreaming(p + i + u * stride) : make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int u = 0; u < kInFlight; ++u)
      acc.x ^= v[u].x, acc.y ^= v[u].y, acc.z ^= v[u].z, acc.w ^= v[u].w;
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x12345678u) // never, in practice: keeps the loads
    *sink = 1;
}

// Read-only bandwidth in GB/s.
double readBandwidth(int sms) {
  const i64 bytes = i64{256} << 20;
  Buffer<unsigned char> src(bytes);
  Buffer<unsigned> sink(1);
  BENCH_CHECK(cudaMemset(src.ptr, 1, bytes));
  const double us = medianMicros([&] {
    readStream<<<8 * sms, 256>>>(reinterpret_cast<const uint4*>(src.ptr), bytes / 16, sink.ptr);
  });
  return bytes / us / 1e3;
}

} // namespace
} // namespace bench

// --checks-only: the small correctness cases without timing (for compute-sanitizer).
int main(int argc, char** argv) {
  const bool checksOnly = argc > 1 && std::strcmp(argv[1], "--checks-only") == 0;
  int device = 0, driver = 0;
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDevice(&device));
  BENCH_CHECK(cudaGetDeviceProperties(&prop, device));
  BENCH_CHECK(cudaDriverGetVersion(&driver));
  int clockKHz = 0, memClockKHz = 0;
  cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, device);
  cudaDeviceGetAttribute(&memClockKHz, cudaDevAttrMemoryClockRate, device);
  std::printf("device %s, %d SMs, L2 %d MiB, driver %d, SM clock %d MHz, memory clock %d MHz\n", prop.name,
              prop.multiProcessorCount, prop.l2CacheSize >> 20, driver, clockKHz / 1000, memClockKHz / 1000);
  const double copyGBs = checksOnly ? 1.0 : bench::copyBandwidth();
  std::printf("device-to-device copy: %.0f GB/s (read + written)\n", copyGBs);
  if (!checksOnly) {
    const double readGBs = bench::readBandwidth(prop.multiProcessorCount);
    std::printf("read-only stream: %.0f GB/s (%.1f%% of copy)\n", readGBs, 100.0 * readGBs / copyGBs);
  }
  bench::gemmBench(prop.multiProcessorCount, copyGBs, checksOnly);
  bench::attentionBench(prop.multiProcessorCount, copyGBs, checksOnly);
  std::printf("%s: %d failure(s)\n", bench::failures ? "FAILED" : "ALL PASSED", bench::failures);
  return bench::failures ? 1 : 0;
}
