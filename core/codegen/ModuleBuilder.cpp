#include "codegen/ModuleBuilder.h"

#include "codegen/KernelText.h"
#include "codegen/SlotBinding.h"
#include "support/Error.h"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <utility>

namespace tcx {

namespace {

// What instantiating a library kernel's template costs NVRTC, in lines of
// generated code. nvcc -cubin on one core of the 2-core dev machine
// (2026-11-27, DenseNet-121's module, -DTCX_PART): the headers alone 1.11 to
// 1.24 s, with one 55-line store kernel 1.18 to 1.25 s (no measurable
// difference), with one 53-line implicit-GEMM convolution 1.74 to 1.87 s.
constexpr int kLibraryKernelLines = 800;

// Statements binding x0, x1, ... (the logical index of `shape`) from the
// linear index `i` of its elements in `walk`'s order.
std::string decomposeWalk(const Shape& shape, const Layout& walk) {
  const std::vector<std::string> names = indexNames(shape.size());
  std::vector<std::string> walked = names;
  for (size_t d = 0; d < walk.order.size(); ++d) walked[d] = names[walk.order[d]];
  return decomposeIndex(storedShape(shape, walk), walked);
}

} // namespace

int ModuleBuilder::addScratch(int64_t bytes, std::string name, bool zeroed) {
  plan_.scratchBytes.push_back(std::max<int64_t>(bytes, 1));
  plan_.scratchZeroed.push_back(zeroed);
  plan_.scratchNames.push_back(std::move(name));
  return static_cast<int>(plan_.numPlanBuffers + plan_.scratchBytes.size() - 1);
}

int ModuleBuilder::sharedWorkspace(int64_t bytes) {
  if (sharedWorkspace_ < 0) return sharedWorkspace_ = addScratch(bytes, "the library kernels' workspace", true);
  int64_t& size = plan_.scratchBytes[sharedWorkspace_ - plan_.numPlanBuffers];
  size = std::max(size, bytes);
  return sharedWorkspace_;
}

int ModuleBuilder::vendorStaging(int64_t bytes) {
  if (vendorStaging_ < 0) return vendorStaging_ = addScratch(bytes, "vendor library results, staged");
  int64_t& size = plan_.scratchBytes[vendorStaging_ - plan_.numPlanBuffers];
  size = std::max(size, bytes);
  return vendorStaging_;
}

int ModuleBuilder::vendorInput(int64_t bytes) {
  if (vendorInput_ < 0) return vendorInput_ = addScratch(bytes, "vendor library inputs, staged");
  int64_t& size = plan_.scratchBytes[vendorInput_ - plan_.numPlanBuffers];
  size = std::max(size, bytes);
  return vendorInput_;
}

void ModuleBuilder::addVendorAlternative(int planKernel, VendorCall call, int staging, const std::string& entry,
                                         int64_t elements, unsigned perThread, std::string what,
                                         std::optional<GeneratedLaunch> prelude) {
  // The alternative replaces the kernel's last launch (GpuPlan runs it there).
  TCX_CHECK(planKernel == currentKernel_ && plan_.vendorAlternatives.size() == alternativeStart_ &&
                plan_.launches.size() > launchStart_,
            ErrorKind::Internal, "plan kernel {} offers a vendor alternative with {} launches of its own, {} before",
            planKernel, plan_.launches.size() - launchStart_, plan_.vendorAlternatives.size() - alternativeStart_);
  const int64_t stagingBytes = elements * elemBytes(vendorCallType(call));
  const int input = prelude ? vendorInput_ : -1;
  VendorAlternative alternative{.planKernel = planKernel,
                                .call = std::move(call),
                                .staging = staging,
                                .stagingBytes = stagingBytes,
                                .prelude = std::move(prelude),
                                .input = input};
  const int64_t perBlock = int64_t{kKernelThreads} * perThread;
  alternative.epilogue =
      launch1d(planKernel, entry, (elements + perBlock - 1) / perBlock, kKernelThreads, std::move(what));
  plan_.vendorAlternatives.push_back(std::move(alternative));
}

void ModuleBuilder::addElementKernel(int planKernel, const std::string& entry, const Shape& shape,
                                     const std::string& body, std::string what, const Layout& walk) {
  const int64_t count = numElements(shape);
  const std::string decompose = decomposeWalk(shape, walk);
  code_ += fmt::format("{open}"
                       "  for (tcx::i64 i = blockIdx.x * {T}LL + threadIdx.x; i < {N}LL; i += gridDim.x * {T}LL) {{\n"
                       "{decompose}{body}  }}\n}}\n\n",
                       fmt::arg("open", kernelOpening(fmt::to_string(kKernelThreads), entry)),
                       fmt::arg("T", kKernelThreads), fmt::arg("N", count),
                       fmt::arg("decompose", decompose), fmt::arg("body", body));
  addLaunch1d(planKernel, entry, (count + kKernelThreads - 1) / kKernelThreads, kKernelThreads, std::move(what));
}

GeneratedLaunch ModuleBuilder::valueKernel(int planKernel, const std::string& entry, const Shape& shape,
                                           unsigned perThread, const std::string& type, const std::string& compute,
                                           const std::string& store, std::string what, const Layout& walk) {
  const int64_t count = numElements(shape);
  const std::string decompose = decomposeWalk(shape, walk);
  const int64_t perBlock = int64_t{kKernelThreads} * perThread;
  code_ += fmt::format(
      "{open}"
      "  for (tcx::i64 base = blockIdx.x * {B}LL + threadIdx.x; base < {N}LL; base += gridDim.x * {B}LL) {{\n"
      "    {type} outs[{E}];\n"
      "#pragma unroll\n"
      "    for (int j = 0; j < {E}; ++j) {{\n"
      "      const tcx::i64 i = base + j * {T}LL;\n"
      "      if (i >= {N}LL) break;\n"
      "{decompose}    {type} out;\n"
      "{compute}    outs[j] = out;\n"
      "    }}\n"
      "#pragma unroll\n"
      "    for (int j = 0; j < {E}; ++j) {{\n"
      "      const tcx::i64 i = base + j * {T}LL;\n"
      "      if (i >= {N}LL) break;\n"
      "{decompose}    const {type} out = outs[j];\n"
      "{store}    }}\n"
      "  }}\n}}\n\n",
      fmt::arg("open", kernelOpening(fmt::to_string(kKernelThreads), entry)),
      fmt::arg("T", kKernelThreads), fmt::arg("B", perBlock), fmt::arg("E", perThread),
      fmt::arg("N", count), fmt::arg("type", type), fmt::arg("decompose", decompose),
      fmt::arg("compute", compute), fmt::arg("store", store));
  return launch1d(planKernel, entry, (count + perBlock - 1) / perBlock, kKernelThreads, std::move(what));
}

void ModuleBuilder::addLibraryLaunch(int planKernel, std::string entry, const unsigned (&grid)[3],
                                     const unsigned (&block)[3], unsigned sharedBytes, std::string what) {
  if (libraryKernels_.size() <= size_t(planKernel)) libraryKernels_.resize(planKernel + 1, 0);
  ++libraryKernels_[planKernel];
  addLaunch(planKernel, std::move(entry), grid, block, sharedBytes, std::move(what));
}

void ModuleBuilder::addLaunch(int planKernel, std::string entry, const unsigned (&grid)[3], const unsigned (&block)[3],
                              unsigned sharedBytes, std::string what) {
  GeneratedLaunch launch;
  launch.planKernel = planKernel;
  launch.entry = std::move(entry);
  std::copy(std::begin(grid), std::end(grid), launch.grid.begin());
  std::copy(std::begin(block), std::end(block), launch.block.begin());
  launch.sharedBytes = sharedBytes;
  launch.what = std::move(what);
  plan_.launches.push_back(std::move(launch));
}

GeneratedLaunch ModuleBuilder::launch1d(int planKernel, const std::string& entry, int64_t blocks, unsigned threads,
                                        std::string what) {
  GeneratedLaunch launch;
  launch.planKernel = planKernel;
  launch.entry = entry;
  launch.grid = {static_cast<unsigned>(std::clamp<int64_t>(blocks, 1, kMaxGridBlocks)), 1, 1};
  launch.block = {threads, 1, 1};
  launch.what = std::move(what);
  return launch;
}

void ModuleBuilder::addLaunch1d(int planKernel, const std::string& entry, int64_t blocks, unsigned threads,
                                std::string what) {
  plan_.launches.push_back(launch1d(planKernel, entry, blocks, threads, std::move(what)));
}

std::vector<GeneratedLaunch*> ModuleBuilder::currentLaunches() {
  std::vector<GeneratedLaunch*> launches;
  for (size_t l = launchStart_; l < plan_.launches.size(); ++l) launches.push_back(&plan_.launches[l]);
  for (size_t a = alternativeStart_; a < plan_.vendorAlternatives.size(); ++a) {
    launches.push_back(&plan_.vendorAlternatives[a].epilogue);
    if (plan_.vendorAlternatives[a].prelude) launches.push_back(&*plan_.vendorAlternatives[a].prelude);
  }
  return launches;
}

std::string ModuleBuilder::kernelPrefix(int planKernel) { return fmt::format("k{}_", planKernel); }

std::string ModuleBuilder::bufferRef(int buffer, int64_t byteOffset) { return unboundBufferRef(buffer, byteOffset); }

std::string ModuleBuilder::launchValue(int64_t value) {
  return fmt::format("tcx::slotValue({})", unboundBufferRef(BufferBinding::kValue, value));
}

std::string ModuleBuilder::elementPointer(int buffer, int64_t elementOffset, std::string_view type, int elementBytes) {
  if (elementOffset >= 0)
    return fmt::format("static_cast<const {}*>({})", type, bufferRef(buffer, elementOffset * elementBytes));
  return fmt::format("static_cast<const {}*>({}) - {}", type, bufferRef(buffer), -elementOffset);
}

void ModuleBuilder::beginKernel(int planKernel) {
  endKernel();
  currentKernel_ = planKernel;
  kernelStart_ = code_.size();
  launchStart_ = plan_.launches.size();
  alternativeStart_ = plan_.vendorAlternatives.size();
  guard_ = fmt::format("#if !defined(TCX_PART) || defined(TCX_KERNEL_{})\n", planKernel);
  code_ += guard_;
}

void ModuleBuilder::endKernel() {
  if (currentKernel_ < 0) return;
  const int k = std::exchange(currentKernel_, -1);
  if (kernelRanges_.size() <= size_t(k)) {
    kernelRanges_.resize(k + 1, {0, 0});
    codeKernel_.resize(k + 1, -1);
  }
  codeKernel_[k] = k;
  const size_t codeStart = kernelStart_ + guard_.size();
  if (code_.size() == codeStart) { // no code: no guard either
    code_.resize(kernelStart_);
    kernelRanges_[k] = {kernelStart_, kernelStart_};
    return;
  }
  BoundCode bound = bindSlots(std::string_view(code_).substr(codeStart));
  for (GeneratedLaunch* l : currentLaunches()) l->buffers = bound.buffers;
  const std::string prefix = kernelPrefix(k);
  // The prefix masked with a character no generated name has.
  const auto [same, added] = kernelByCode_.try_emplace(replacePrefix(bound.code, prefix, "k@_"), k);
  if (!added) {
    const int shared = same->second;
    code_.resize(kernelStart_);
    kernelRanges_[k] = kernelRanges_[shared];
    codeKernel_[k] = shared;
    for (GeneratedLaunch* l : currentLaunches()) {
      std::string& entry = l->entry;
      TCX_CHECK(entry.starts_with(prefix), ErrorKind::Internal, "entry '{}' of plan kernel {} lacks its prefix '{}'",
                entry, k, prefix);
      entry = kernelPrefix(shared) + entry.substr(prefix.size());
    }
    return;
  }
  code_.replace(codeStart, std::string::npos, bound.code);
  code_ += "#endif\n";
  kernelRanges_[k] = {kernelStart_, code_.size()};
  plan_.bufferSlots = std::max(plan_.bufferSlots, bound.buffers.size());
}

GeneratedPlan ModuleBuilder::finish(const std::string& prelude, bool narrowIndex) && {
  endKernel();
  // Index arithmetic in 32 bits where every tensor and offset fits: 64-bit
  // division by a constant costs several times more.
  const std::string head = prelude + fmt::format("typedef {} Index;\n\nstruct Buffers {{\n  void* p[{}];\n}};\n\n",
                                                 narrowIndex ? "int" : "long long", plan_.bufferSlots);
  plan_.source = head + code_;

  // Offsets into code_ become 1-based line numbers of the whole source.
  const auto lineAt = [&](size_t offset) {
    const size_t pos = head.size() + offset;
    return 1 + int(std::count(plan_.source.begin(), plan_.source.begin() + pos, '\n'));
  };
  for (const auto& [begin, end] : kernelRanges_)
    plan_.kernelSpans.push_back(end > begin ? SourceSpan{lineAt(begin), lineAt(end - 1)} : SourceSpan{});
  plan_.codeKernel = std::move(codeKernel_);
  libraryKernels_.resize(plan_.codeKernel.size(), 0);
  for (size_t k = 0; k < plan_.codeKernel.size(); ++k) {
    const SourceSpan& s = plan_.kernelSpans[k];
    const bool own = plan_.codeKernel[k] == static_cast<int>(k) && !s.empty();
    plan_.compileCost.push_back(own ? s.lastLine - s.firstLine + 1 + kLibraryKernelLines * libraryKernels_[k] : 0);
  }
  return std::move(plan_);
}

std::vector<std::string> indexNames(size_t rank) {
  std::vector<std::string> names;
  for (size_t d = 0; d < rank; ++d) names.push_back(fmt::format("x{}", d));
  return names;
}

std::string indexParams(size_t rank) {
  std::string params;
  for (size_t d = 0; d < rank; ++d) params += fmt::format("{}Index x{}", d ? ", " : "", d);
  return params;
}

std::string joinIndex(const std::vector<std::string>& index) {
  std::string s;
  for (size_t d = 0; d < index.size(); ++d) s += (d ? ", " : "") + index[d];
  return s;
}

} // namespace tcx
