#include "TestKernels.h"

#include "ir/Tensor.h"
#include "profiler/CudaError.h"
#include "profiler/CudaModule.h"
#include "profiler/DeviceBuffer.h"
#include "profiler/Nvrtc.h"
#include "support/Error.h"

#include <catch2/catch.hpp>

#include <cstdio>

using namespace tcx;
using namespace tcx::gpu;

namespace {

CudaModule loadTestKernels() {
  NvrtcCompiler compiler("");
  CompileResult compiled = compiler.compile(test::kVectorKernels);
  std::printf("NVRTC %s: compiled the test kernels for %s in %.1f ms (%s)\n", NvrtcCompiler::version().c_str(),
              compiled.arch.c_str(), compiled.compileMs, cacheHitName(compiled.cache));
  return CudaModule(*compiled.cubin);
}

} // namespace

TEST_CASE("an NVRTC cubin loads, launches and computes a vector sum", "[profiler][gpu]") {
  CudaModule module = loadTestKernels();
  constexpr int n = 1000;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i);
  }
  DeviceBuffer da = DeviceBuffer::fromTensor(Tensor::fromVector<float>({n}, a));
  DeviceBuffer db = DeviceBuffer::fromTensor(Tensor::fromVector<float>({n}, b));
  DeviceBuffer dc(n * sizeof(float));
  dc.memset(0xff);

  cudaKernel_t vadd = module.kernel("vadd");
  void* pa = da.data();
  void* pb = db.data();
  void* pc = dc.data();
  int count = n;
  void* args[] = {&pa, &pb, &pc, &count};
  module.launch(vadd, dim3((n + 255) / 256), dim3(256), 0, args);
  checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  Tensor c(DType::F32, {n});
  dc.download(c);
  std::span<const float> out = c.data<float>();
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == 1.5f * static_cast<float>(i));
}

TEST_CASE("a missing kernel is named in the error", "[profiler][gpu]") {
  CudaModule module = loadTestKernels();
  try {
    module.kernel("no_such_kernel");
    FAIL("found a kernel that does not exist");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::InvalidArgument);
    CHECK_THAT(e.what(), Catch::Contains("'no_such_kernel'"));
  }
}

TEST_CASE("launches above 48 KiB of dynamic shared memory are opted in", "[profiler][gpu]") {
  CudaModule module = loadTestKernels();
  constexpr int bytes = 160 * 1024;
  DeviceBuffer out(bytes);
  void* pout = out.data();
  int size = bytes;
  void* args[] = {&pout, &size};
  module.launch(module.kernel("sharedRoundTrip"), dim3(1), dim3(256), bytes, args);
  std::vector<int> host(bytes / 4);
  out.download(host.data(), bytes);
  for (size_t i = 0; i < host.size(); ++i) REQUIRE(host[i] == static_cast<int>(i));
}
