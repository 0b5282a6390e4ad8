#include "profiler/Nvrtc.h"

#include "KernelLibrary.h"
#include "profiler/GpuDevice.h"
#include "profiler/KernelBlame.h"
#include "support/Error.h"
#include "support/Hash.h"

#include <nvrtc.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace tcx::gpu {
namespace {

void checkNvrtc(nvrtcResult status, std::string_view what) {
  if (status != NVRTC_SUCCESS) raise(ErrorKind::Internal, "{}: {}", what, nvrtcGetErrorString(status));
}

// Frees the program on every path out of compile().
struct ProgramGuard {
  nvrtcProgram program = nullptr;
  ~ProgramGuard() {
    if (program) nvrtcDestroyProgram(&program);
  }
};

std::string resolveArch(const CompileOptions& options) {
  if (!options.arch.empty()) {
    TCX_CHECK(options.arch.starts_with("sm_"), ErrorKind::InvalidArgument,
              "a cubin needs a real architecture such as sm_90, not '{}'", options.arch);
    return options.arch;
  }
  const GpuInfo& info = gpuInfo();
  if (!info.available)
    raise(ErrorKind::InvalidArgument,
          "no CUDA device to take the target architecture from ({}); name one, such as sm_90", info.reason);
  return info.arch();
}

// Headers are part of the key: a changed kernel library must not reuse
// cubins built from the old one.
uint64_t headersHash() {
  static const uint64_t hash = [] {
    uint64_t h = fnv1a("tcx-embedded-headers");
    for (const KernelHeader& header : kernelLibraryHeaders()) {
      h = fnv1a(header.name, std::char_traits<char>::length(header.name) + 1, h);
      h = fnv1a(header.source, std::char_traits<char>::length(header.source) + 1, h);
    }
    return h;
  }();
  return hash;
}

uint64_t cacheKey(const std::string& source, const std::string& arch, const std::string& programName,
                  const std::vector<std::string>& nvrtcOptions) {
  // Each field hashes with its terminating NUL so that "ab"+"c" and
  // "a"+"bc" differ.
  uint64_t h = fnv1a(source.c_str(), source.size() + 1, headersHash());
  h = fnv1a(arch.c_str(), arch.size() + 1, h);
  h = fnv1a(programName.c_str(), programName.size() + 1, h);
  for (const std::string& option : nvrtcOptions) h = fnv1a(option.c_str(), option.size() + 1, h);
  std::string version = NvrtcCompiler::version();
  return fnv1a(version.c_str(), version.size() + 1, h);
}

// The source lines around the first error NVRTC reports ("name(12): error
// ..."), numbered, so that a failure in generated code can be read without
// dumping the whole source.
std::string sourceExcerpt(const std::string& source, const std::string& log) {
  const int line = firstErrorLine(log).value_or(1);
  constexpr int kContext = 3;
  std::istringstream in(source);
  std::string text;
  std::string excerpt;
  for (int number = 1; std::getline(in, text) && number <= line + kContext; ++number) {
    if (number >= line - kContext)
      excerpt += fmt::format("{} {:5} | {}\n", number == line ? '>' : ' ', number, text);
  }
  return excerpt;
}

std::string programLog(nvrtcProgram program) {
  size_t size = 0;
  checkNvrtc(nvrtcGetProgramLogSize(program, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  checkNvrtc(nvrtcGetProgramLog(program, log.data()), "nvrtcGetProgramLog");
  // The size counts the terminating NUL; trailing newlines only pad messages.
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

} // namespace

NvrtcCompiler::NvrtcCompiler() : NvrtcCompiler(CompileCache::defaultDir()) {}

NvrtcCompiler::NvrtcCompiler(std::string cacheDir) : cache_(std::move(cacheDir)) {}

std::string NvrtcCompiler::version() {
  int major = 0;
  int minor = 0;
  checkNvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
  return fmt::format("{}.{}", major, minor);
}

std::string NvrtcCompiler::cudaIncludeDir() {
  if (const char* env = std::getenv("TCX_CUDA_INCLUDE"); env && *env) return env;
  std::error_code ec;
  if (std::filesystem::exists(TCX_CUDA_INCLUDE_DIR "/cuda_fp16.h", ec)) return TCX_CUDA_INCLUDE_DIR;
  return "/usr/local/cuda/include";
}

std::vector<std::string> NvrtcCompiler::nvrtcOptions(const std::string& arch, const CompileOptions& options) {
  // Fast math stays off: generated kernels are checked against the CPU
  // reference executor with tight tolerances.
  std::vector<std::string> all = {"--gpu-architecture=" + arch, "-std=c++20", "-default-device",
                                  "-I" + cudaIncludeDir()};
  all.insert(all.end(), options.extraOptions.begin(), options.extraOptions.end());
  return all;
}

CompileResult NvrtcCompiler::compile(const std::string& source, const CompileOptions& options) {
  auto start = std::chrono::steady_clock::now();
  auto elapsedMs = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  CompileResult result;
  result.arch = resolveArch(options);
  std::vector<std::string> optionStrings = nvrtcOptions(result.arch, options);
  result.key = cacheKey(source, result.arch, options.programName, optionStrings);
  std::tie(result.cubin, result.cache) = cache_.find(result.key);
  if (result.cubin) {
    result.compileMs = elapsedMs();
    return result;
  }

  std::vector<const char*> headerNames;
  std::vector<const char*> headerSources;
  for (const KernelHeader& header : kernelLibraryHeaders()) {
    headerNames.push_back(header.name);
    headerSources.push_back(header.source);
  }
  ProgramGuard guard;
  checkNvrtc(nvrtcCreateProgram(&guard.program, source.c_str(), options.programName.c_str(),
                                static_cast<int>(headerNames.size()), headerSources.data(), headerNames.data()),
             "nvrtcCreateProgram");
  std::vector<const char*> optionPtrs;
  std::ranges::transform(optionStrings, std::back_inserter(optionPtrs), &std::string::c_str);
  nvrtcResult status = nvrtcCompileProgram(guard.program, static_cast<int>(optionPtrs.size()), optionPtrs.data());
  result.log = programLog(guard.program);
  if (status != NVRTC_SUCCESS)
    raise(ErrorKind::Internal, "NVRTC {} could not compile {} for {} ({}):\n{}\n{}", version(),
          options.programName, result.arch, nvrtcGetErrorString(status), result.log,
          sourceExcerpt(source, result.log));

  size_t size = 0;
  checkNvrtc(nvrtcGetCUBINSize(guard.program, &size), "nvrtcGetCUBINSize");
  std::string cubin(size, '\0');
  checkNvrtc(nvrtcGetCUBIN(guard.program, cubin.data()), "nvrtcGetCUBIN");
  result.cubin = std::make_shared<const std::string>(std::move(cubin));
  cache_.store(result.key, result.cubin);
  result.compileMs = elapsedMs();
  return result;
}

} // namespace tcx::gpu
