#include "codegen/CudaExport.h"

#include "codegen/CudaTypes.h"
#include "support/AtomicFile.h"

#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tcx {

namespace {

// Every byte of a constant buffer, as a C array initialiser.
std::string bytesInitializer(const Tensor& t) {
  std::string s;
  const auto* bytes = reinterpret_cast<const unsigned char*>(t.raw());
  for (size_t i = 0; i < t.byteSize(); ++i) s += fmt::format("{}{}", i ? "," : "", static_cast<unsigned>(bytes[i]));
  return s.empty() ? "0" : s;
}

// How the driver fills an input of this dtype (main.cu's fillInput).
int fillCode(DType t) {
  switch (t) {
  case DType::F32: return 1;
  case DType::F16: return 2;
  case DType::BF16: return 3;
  case DType::F64: return 4;
  case DType::I64:
  case DType::I32:
  case DType::I8:
  case DType::U8:
  case DType::Bool: return 0; // zero
  }
  return 0;
}

std::string driverSource(const ExecPlan& plan, const GeneratedPlan& code) {
  std::string constants, buffers, launches;
  for (const PlanBuffer& b : plan.buffers) {
    std::string init = "nullptr";
    if (b.kind == PlanBuffer::Kind::Constant && b.aliasOf < 0) {
      constants += fmt::format("static const unsigned char kConstant{}[] = {{{}}};\n", b.id,
                               bytesInitializer(b.tensor->constant()));
      init = fmt::format("kConstant{}", b.id);
    }
    buffers += fmt::format("    {{\"{}\", {}LL, {}, {}, {}LL, {}, {}}},\n", b.name, b.bytes, static_cast<int>(b.kind),
                           b.aliasOf, b.arenaOffset, fillCode(b.dtype), init);
  }
  for (size_t i = 0; i < code.scratchBytes.size(); ++i)
    buffers += fmt::format("    {{\"scratch: {}\", {}LL, {}, -1, -1LL, 0, nullptr}},\n", code.scratchNames[i],
                           code.scratchBytes[i], code.scratchZeroed[i] ? 5 : 4);
  for (const GeneratedLaunch& l : code.launches) {
    std::vector<std::string> slots;
    for (size_t s = 0; s < code.bufferSlots; ++s)
      slots.push_back(s < l.buffers.size() ? fmt::format("{{{}, {}LL}}", l.buffers[s].buffer, l.buffers[s].byteOffset)
                                           : "{-1, 0LL}");
    launches += fmt::format("    {{{}, {{{}, {}, {}}}, {{{}, {}, {}}}, {}u, \"{}\", {{{}}}}},\n", l.entry, l.grid[0],
                            l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2], l.sharedBytes, l.what,
                            fmt::join(slots, ", "));
  }
  return fmt::format(R"(// Host driver of a tcx export: the plan's buffers, its launches in order, a timed run.
// Build: cmake -B build && cmake --build build; run: ./build/tcx_plan [repetitions]
#include "plan.cu"

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                     \
  do {{                                                                                  \
    cudaError_t status_ = (call);                                                       \
    if (status_ != cudaSuccess) {{                                                       \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(status_));             \
      std::exit(1);                                                                     \
    }}                                                                                   \
  }} while (0)

{constants}
// kind: 0 input, 1 output, 2 constant, 3 intermediate (in the arena), 4 scratch, 5 zeroed scratch.
struct BufferSpec {{
  const char* name;
  long long bytes;
  int kind;
  int aliasOf;
  long long arenaOffset;
  int fill; // inputs: 1 f32, 2 f16, 3 bf16, 4 f64 (values in [-1, 1)); 0 zero bytes
  const unsigned char* constant;
}};
static const BufferSpec kBuffers[] = {{
{buffers}}};

struct LaunchSpec {{
  void (*kernel)(Buffers);
  unsigned grid[3], block[3], sharedBytes;
  const char* what;
  struct {{
    int buffer; // -1: none, or a launch value: byteOffset itself
    long long byteOffset;
  }} slots[{slots}]; // what each slot of the kernel's argument holds
}};
static const LaunchSpec kLaunches[] = {{
{launches}}};

// Deterministic inputs: a hash of the element index, in [-1, 1) for floats.
__global__ void fillInput(unsigned char* data, long long bytes, int fill, unsigned seed) {{
  const int size[] = {{1, 4, 2, 2, 8}};
  long long elements = bytes / size[fill];
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < elements; i += gridDim.x * (long long)blockDim.x) {{
    unsigned h = (unsigned)i * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    float v = (h >> 8) * (2.0f / 16777216.0f) - 1.0f;
    if (fill == 1) ((float*)data)[i] = v;
    else if (fill == 2) ((__half*)data)[i] = __float2half(v);
    else if (fill == 3) ((__nv_bfloat16*)data)[i] = __float2bfloat16(v);
    else if (fill == 4) ((double*)data)[i] = v;
    else data[i] = 0;
  }}
}}

int main(int argc, char** argv) {{
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 20;
  const int numBuffers = sizeof(kBuffers) / sizeof(kBuffers[0]);
  std::vector<void*> address(numBuffers, nullptr);
  unsigned char* arena = nullptr;
  CHECK(cudaMalloc(&arena, {arena}LL > 0 ? {arena}LL : 1));
  for (int i = 0; i < numBuffers; ++i) {{
    const BufferSpec& b = kBuffers[i];
    if (b.aliasOf >= 0) continue;
    if (b.kind == 3) {{
      address[i] = arena + b.arenaOffset;
      continue;
    }}
    CHECK(cudaMalloc(&address[i], b.bytes > 0 ? b.bytes : 1));
    if (b.kind == 0) fillInput<<<1024, 256>>>((unsigned char*)address[i], b.bytes, b.fill, 17u * i);
    if (b.kind == 2) CHECK(cudaMemcpy(address[i], b.constant, b.bytes, cudaMemcpyHostToDevice));
    if (b.kind == 5) CHECK(cudaMemset(address[i], 0, b.bytes));
  }}
  for (int i = 0; i < numBuffers; ++i)
    if (kBuffers[i].aliasOf >= 0) address[i] = address[kBuffers[i].aliasOf];
  std::vector<Buffers> arguments;
  for (const LaunchSpec& l : kLaunches) {{
    Buffers bound = {{}};
    for (int s = 0; s < {slots}; ++s)
      bound.p[s] = l.slots[s].buffer >= 0 ? (unsigned char*)address[l.slots[s].buffer] + l.slots[s].byteOffset
                                          : (void*)l.slots[s].byteOffset;
    arguments.push_back(bound);
  }}
  for (const LaunchSpec& l : kLaunches)
    if (l.sharedBytes > 0) // the 48 KiB default limit counts the kernel's static shared memory too
      CHECK(cudaFuncSetAttribute((const void*)l.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, l.sharedBytes));
  // As tcx profile launches them: every kernel after the first as the one before it ends (programmatic dependent
  // launch, on a 9.0 device), each awaiting the one before it (tcx/grid_dependency.cuh).
  int major = 0;
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  cudaLaunchAttribute dependent = {{}};
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  auto run = [&] {{
    for (size_t i = 0; i < arguments.size(); ++i) {{
      const LaunchSpec& l = kLaunches[i];
      cudaLaunchConfig_t config = {{}};
      config.gridDim = dim3(l.grid[0], l.grid[1], l.grid[2]);
      config.blockDim = dim3(l.block[0], l.block[1], l.block[2]);
      config.dynamicSmemBytes = l.sharedBytes;
      config.attrs = &dependent;
      config.numAttrs = i > 0 && major >= 9 ? 1 : 0;
      CHECK(cudaLaunchKernelEx(&config, l.kernel, arguments[i]));
    }}
  }};
  run();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int r = 0; r < repetitions; ++r) run();
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::printf("%d launches per run, %.1f us per run (mean of %d, L2 warm)\n", (int)(sizeof(kLaunches) / sizeof(kLaunches[0])),
              1000.0f * ms / repetitions, repetitions);
  return 0;
}}
)",
                     fmt::arg("constants", constants), fmt::arg("buffers", buffers), fmt::arg("launches", launches),
                     fmt::arg("arena", plan.arenaBytes), fmt::arg("slots", code.bufferSlots));
}

std::string cmakeSource(const std::string& arch) {
  std::string number = arch.rfind("sm_", 0) == 0 ? arch.substr(3) : arch;
  return fmt::format(R"(# A tcx export: the plan's generated kernels and a host driver.
cmake_minimum_required(VERSION 3.25)
project(tcx_plan LANGUAGES CXX CUDA)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_ARCHITECTURES {})
add_executable(tcx_plan main.cu)
target_include_directories(tcx_plan PRIVATE ${{CMAKE_CURRENT_SOURCE_DIR}}/include)
)",
                     number);
}

} // namespace

std::vector<ExportFile> cudaExportFiles(const ExecPlan& plan, const GeneratedPlan& code,
                                        const std::vector<std::pair<std::string, std::string>>& headers,
                                        const std::string& arch) {
  std::vector<ExportFile> files;
  files.push_back({"plan.cu", code.source});
  files.push_back({"main.cu", driverSource(plan, code)});
  files.push_back({"CMakeLists.txt", cmakeSource(arch)});
  for (const auto& [name, text] : headers) files.push_back({"include/" + name, text});
  return files;
}

void writeExport(const std::string& dir, const std::vector<ExportFile>& files) {
  namespace fs = std::filesystem;
  for (const ExportFile& f : files) {
    fs::path path = fs::path(dir) / f.path;
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    TCX_CHECK(!ec, ErrorKind::Io, "cannot create directory '{}': {}", path.parent_path().string(), ec.message());
    writeFileAtomically(path.string(), f.contents);
  }
}

} // namespace tcx
