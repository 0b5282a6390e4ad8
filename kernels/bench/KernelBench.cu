// KernelBench: checks tcx's device library against reference kernels on the GPU and times it
// against the device's measured copy bandwidth. Build and run: kernels/README.md.

#include "BenchUtil.cuh"

#include <cstdio>
#include <cstring>

namespace bench {
void gemmBench(int sms, double copyGBs, bool checksOnly);
void attentionBench(int sms, double copyGBs, bool checksOnly);
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
  bench::gemmBench(prop.multiProcessorCount, copyGBs, checksOnly);
  bench::attentionBench(prop.multiProcessorCount, copyGBs, checksOnly);
  std::printf("%s: %d failure(s)\n", bench::failures ? "FAILED" : "ALL PASSED", bench::failures);
  return bench::failures ? 1 : 0;
}
