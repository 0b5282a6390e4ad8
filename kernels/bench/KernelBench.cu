// KernelBench: checks tcx's device library against reference kernels on the GPU and times it
// against the device's measured copy and read-only bandwidths. Build and run: kernels/README.md.

#include "BenchUtil.cuh"
#include "tcx/l2_flush.cuh"

#include <cstdio>
#include <cstring>

namespace bench {

__global__ void __launch_bounds__(tcx::kL2FlushThreads) l2Flush(const uint4* p, i64 vectors, unsigned key,
                                                                unsigned* sink) {
  tcx::l2_flush_body(p, vectors, key, sink);
}

void readAll(const void* p, i64 bytes, unsigned* sink) {
  l2Flush<<<4 * smCount(), tcx::kL2FlushThreads>>>(static_cast<const uint4*>(p), bytes / 16, 1u, sink);
}

void gemmBench(int sms, double copyGBs, bool checksOnly, const char* only);
void attentionBench(int sms, double copyGBs, bool checksOnly);

namespace {

// Read-only bandwidth in GB/s: the flush kernel over a 256 MiB buffer, L2 emptied first by `mode`.
// After a memset the reads also write back its dirty lines (kernels/README.md, "Building and checking").
double readBandwidth(Flush mode) {
  FlushBuffer src;
  const double us = medianMicros([&] { readAll(src.data.ptr, FlushBuffer::kBytes, src.sink.ptr); }, 50, mode);
  return FlushBuffer::kBytes / us / 1e3;
}

} // namespace
} // namespace bench

// --checks-only: the small correctness cases without timing (for compute-sanitizer).
// --memset-flush: time after a memset flush, as KernelBench did before 2026-11-29 (BenchUtil.cuh).
// --gemm-only: the GEMM cases, not the attention's; --gemm-case TEXT: the GEMM cases whose name has TEXT
// (to profile one with Nsight Compute).
int main(int argc, char** argv) {
  bool checksOnly = false, gemmOnly = false;
  const char* gemmCase = nullptr;
  for (int i = 1; i < argc; ++i) {
    checksOnly |= std::strcmp(argv[i], "--checks-only") == 0;
    gemmOnly |= std::strcmp(argv[i], "--gemm-only") == 0;
    if (std::strcmp(argv[i], "--gemm-case") == 0 && i + 1 < argc)
      gemmCase = argv[++i], gemmOnly = true;
    if (std::strcmp(argv[i], "--memset-flush") == 0)
      bench::flushMode = bench::Flush::Memset;
  }
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
    const double readGBs = bench::readBandwidth(bench::Flush::Read);
    const double afterMemset = bench::readBandwidth(bench::Flush::Memset);
    std::printf("read-only stream: %.0f GB/s (%.1f%% of copy); after a memset flush %.0f GB/s (%.1f%%)\n", readGBs,
                100.0 * readGBs / copyGBs, afterMemset, 100.0 * afterMemset / copyGBs);
    std::printf("timed after a %s flush\n", bench::flushMode == bench::Flush::Read ? "read" : "memset");
  }
  bench::gemmBench(prop.multiProcessorCount, copyGBs, checksOnly, gemmCase);
  if (!gemmOnly)
    bench::attentionBench(prop.multiProcessorCount, copyGBs, checksOnly);
  std::printf("%s: %d failure(s)\n", bench::failures ? "FAILED" : "ALL PASSED", bench::failures);
  return bench::failures ? 1 : 0;
}
