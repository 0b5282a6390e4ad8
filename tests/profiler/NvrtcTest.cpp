#include "ScratchEnv.h"
#include "TestKernels.h"

#include "KernelLibrary.h"
#include "profiler/GpuDevice.h"
#include "profiler/Nvrtc.h"
#include "support/Error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <vector>
#include <unistd.h>

using namespace tcx;
using namespace tcx::gpu;
using test::ScopedEnv;
using test::ScratchDir;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

CompileOptions forArch(std::string arch) {
  CompileOptions options;
  options.arch = std::move(arch);
  return options;
}

} // namespace

TEST_CASE("NVRTC compiles for sm_90 without a device, and a recompile is a cache hit", "[profiler][nvrtc]") {
  ScratchDir dir("cache");
  NvrtcCompiler compiler(dir.path.string());
  CompileResult first = compiler.compile(test::kVectorKernels, forArch("sm_90"));
  CHECK(first.cache == CacheHit::Miss);
  CHECK(first.arch == "sm_90");
  REQUIRE(first.cubin);
  CHECK(first.cubin->starts_with("\x7f" "ELF"));
  CHECK(first.compileMs > 0);

  CompileResult again = compiler.compile(test::kVectorKernels, forArch("sm_90"));
  CHECK(again.cache == CacheHit::Memory);
  CHECK(*again.cubin == *first.cubin);

  NvrtcCompiler fresh(dir.path.string());
  CompileResult fromDisk = fresh.compile(test::kVectorKernels, forArch("sm_90"));
  CHECK(fromDisk.cache == CacheHit::Disk);
  CHECK(fromDisk.key == first.key);
  CHECK(*fromDisk.cubin == *first.cubin);
  CHECK(readFile(compiler.cache().pathFor(first.key)) == *first.cubin);

  CompileResult otherArch = compiler.compile(test::kVectorKernels, forArch("sm_80"));
  CHECK(otherArch.cache == CacheHit::Miss);
  CHECK(otherArch.key != first.key);
}

TEST_CASE("every kernels/include/tcx header is embedded under its include name", "[profiler][nvrtc]") {
  std::map<std::string, std::string> onDisk;
  fs::path dir = fs::path(TCX_SOURCE_DIR) / "kernels/include/tcx";
  if (fs::exists(dir))
    for (const fs::directory_entry& entry : fs::directory_iterator(dir))
      if (entry.path().extension() == ".cuh" || entry.path().extension() == ".h")
        onDisk["tcx/" + entry.path().filename().string()] = readFile(entry);
  std::vector<std::string> embeddedNames;
  std::vector<std::string> stale;
  for (const KernelHeader& header : kernelLibraryHeaders()) {
    embeddedNames.push_back(header.name);
    if (auto it = onDisk.find(header.name); it != onDisk.end() && it->second != header.source)
      stale.push_back(header.name);
  }
  std::vector<std::string> diskNames;
  for (const auto& [name, source] : onDisk) diskNames.push_back(name);
  std::ranges::sort(embeddedNames);
  CHECK(embeddedNames == diskNames);
  CHECK(stale == std::vector<std::string>{});
}

TEST_CASE("cuda_bf16.h and every embedded device header compile with NVRTC", "[profiler][nvrtc]") {
  // The .h headers are reached through the .cuh ones; launch.h is host-only.
  std::string source = "#include <cuda_bf16.h>\n";
  for (const KernelHeader& header : kernelLibraryHeaders())
    if (std::string_view(header.name).ends_with(".cuh")) source += fmt::format("#include \"{}\"\n", header.name);
  source += R"(
extern "C" __global__ void widen(const __nv_bfloat16* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __bfloat162float(in[i]);
}
)";
  INFO(source);
  NvrtcCompiler compiler("");
  // sm_90a: the kernel library may use Hopper-only instructions (wgmma, TMA).
  CompileResult result = compiler.compile(source, forArch("sm_90a"));
  CHECK_FALSE(result.cubin->empty());
}

TEST_CASE("a compile error carries NVRTC's log and the offending lines", "[profiler][nvrtc]") {
  const std::string source = "extern \"C\" __global__ void broken(float* x) {\n"
                             "  int i = threadIdx.x;\n"
                             "  x[i] = ;\n"
                             "}\n";
  NvrtcCompiler compiler("");
  try {
    compiler.compile(source, forArch("sm_90"));
    FAIL("a syntax error compiled");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Internal);
    CHECK_THAT(e.what(), Catch::Contains("tcx_kernel.cu(3): error") && Catch::Contains(">     3 |   x[i] = ;") &&
                             Catch::Contains("sm_90"));
  }
}

TEST_CASE("the target architecture must be a real one, or come from a device", "[profiler][nvrtc]") {
  NvrtcCompiler compiler("");
  try {
    compiler.compile(test::kVectorKernels, forArch("compute_90"));
    FAIL("a virtual architecture was accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::InvalidArgument);
  }
  if (gpuInfo().available) return;
  try {
    compiler.compile(test::kVectorKernels);
    FAIL("compiled for no architecture");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::InvalidArgument);
    CHECK_THAT(e.what(), Catch::Contains("sm_90"));
  }
}

TEST_CASE("the cache directory and the CUDA include directory follow the environment", "[profiler][nvrtc]") {
  {
    ScopedEnv root("TCX_CACHE_DIR", "/tmp/tcx-root");
    CHECK(CompileCache::defaultDir() == "/tmp/tcx-root/nvrtc");
  }
  {
    ScopedEnv root("TCX_CACHE_DIR", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg");
    CHECK(CompileCache::defaultDir() == "/tmp/xdg/tcx/nvrtc");
  }
  {
    ScopedEnv root("TCX_CACHE_DIR", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
    ScopedEnv home("HOME", "/home/someone");
    CHECK(CompileCache::defaultDir() == "/home/someone/.cache/tcx/nvrtc");
  }
  {
    ScopedEnv include("TCX_CUDA_INCLUDE", "/opt/cuda/include");
    CHECK(NvrtcCompiler::cudaIncludeDir() == "/opt/cuda/include");
  }
  ScopedEnv include("TCX_CUDA_INCLUDE", nullptr);
  CHECK(fs::exists(fs::path(NvrtcCompiler::cudaIncludeDir()) / "cuda_bf16.h"));
  CHECK_THAT(NvrtcCompiler::nvrtcOptions("sm_90", {}), Catch::VectorContains(std::string("--gpu-architecture=sm_90")));
}
