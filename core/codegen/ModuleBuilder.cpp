#include "codegen/ModuleBuilder.h"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>

namespace tcx {

namespace {

constexpr unsigned kThreads = 256;
// Enough blocks to fill any current GPU many times over; the grid-stride
// loop covers the rest.
constexpr int64_t kMaxBlocks = 1 << 20;

} // namespace

int ModuleBuilder::addScratch(int64_t bytes, bool zeroed) {
  plan_.scratchBytes.push_back(std::max<int64_t>(bytes, 1));
  plan_.scratchZeroed.push_back(zeroed);
  return static_cast<int>(plan_.numPlanBuffers + plan_.scratchBytes.size() - 1);
}

namespace {

// Statements that split the linear index `i` (a tcx::i64) into `names`, one
// per dimension of `shape`, row-major.
std::string decomposeIndex(const Shape& shape, const std::vector<std::string>& names) {
  const int64_t count = numElements(shape);
  // 32-bit division by constants is several times cheaper than 64-bit, and
  // most tensors have fewer than 2^31 elements.
  const bool narrow = count <= INT32_MAX;
  const char* linear = narrow ? "u" : "i";
  std::string decompose = narrow ? "    const unsigned u = static_cast<unsigned>(i);\n" : "";
  int64_t inner = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    std::string quotient = inner == 1 ? linear : fmt::format("({} / {}u)", linear, inner);
    // A tensor with no elements runs no iteration; its index is never
    // formed, but must not divide by its zero extent.
    if (count == 0)
      decompose += fmt::format("    const Index {} = 0;\n", names[d]);
    else
      decompose += d == 0 ? fmt::format("    const Index {} = {};\n", names[d], quotient)
                          : fmt::format("    const Index {} = {} % {}u;\n", names[d], quotient, shape[d]);
    inner *= shape[d];
  }
  return decompose;
}

} // namespace

void ModuleBuilder::addBlockFoldKernel(int planKernel, const std::string& entry, const Shape& shape,
                                       const CudaBlockFold& fold, const std::string& store, std::string what) {
  // Enough threads for the folded elements, up to a full block of 256; a
  // power of two for the tree.
  unsigned threads = 32;
  while (threads < kThreads && threads < fold.count) threads *= 2;
  Shape foldedShape;
  std::vector<std::string> foldedNames;
  for (const auto& [var, extent] : fold.folded) {
    foldedShape.push_back(extent);
    foldedNames.push_back(var);
  }
  const int64_t outputs = numElements(shape);
  // The folded index decomposes from `i` as well: a block scope of its own.
  code_ += fmt::format(
      "extern \"C\" __global__ void __launch_bounds__({T}) {name}(Buffers b) {{\n"
      "  {types}"
      "  __shared__ _A _part[{T}];\n"
      "  for (tcx::i64 _o = blockIdx.x; _o < {N}LL; _o += gridDim.x) {{\n"
      "    const tcx::i64 i = _o;\n{decompose}"
      "    _A _acc = {init};\n"
      "    for (tcx::i64 _f = threadIdx.x; _f < {F}LL; _f += {T}) {{\n"
      "      {{\n      const tcx::i64 i = _f;\n{decomposeFolded}"
      "      const _T _v = {value};\n      const _A _m = {map};\n      _acc = {fold};\n      }}\n"
      "    }}\n"
      "    _part[threadIdx.x] = _acc;\n    __syncthreads();\n"
      "    for (unsigned _s = {T} / 2; _s > 0; _s /= 2) {{\n"
      "      if (threadIdx.x < _s) {{\n        const _A _m = _part[threadIdx.x + _s];\n"
      "        _acc = _part[threadIdx.x];\n        _part[threadIdx.x] = {fold};\n      }}\n"
      "      __syncthreads();\n    }}\n"
      "    if (threadIdx.x == 0) {{\n      const long long _count = {F};\n      _acc = _part[0];\n"
      "      const _T out = {finish};\n{store}    }}\n"
      "    __syncthreads();\n"
      "  }}\n}}\n\n",
      fmt::arg("T", threads), fmt::arg("name", entry), fmt::arg("types", fold.types), fmt::arg("N", outputs),
      fmt::arg("decompose", decomposeIndex(shape, indexNames(shape.size()))), fmt::arg("init", fold.init),
      fmt::arg("F", fold.count), fmt::arg("decomposeFolded", decomposeIndex(foldedShape, foldedNames)),
      fmt::arg("value", fold.value), fmt::arg("map", fold.map), fmt::arg("fold", fold.fold),
      fmt::arg("finish", fold.finish), fmt::arg("store", store));
  GeneratedLaunch launch;
  launch.planKernel = planKernel;
  launch.entry = entry;
  launch.grid[0] = static_cast<unsigned>(std::clamp<int64_t>(outputs, 1, kMaxBlocks));
  launch.block[0] = threads;
  launch.what = std::move(what);
  addLaunch(std::move(launch));
}

void ModuleBuilder::addElementKernel(int planKernel, const std::string& entry, const Shape& shape,
                                     const std::string& body, std::string what) {
  const int64_t count = numElements(shape);
  const std::string decompose = decomposeIndex(shape, indexNames(shape.size()));
  code_ += fmt::format("extern \"C\" __global__ void __launch_bounds__({T}) {name}(Buffers b) {{\n"
                       "  for (tcx::i64 i = blockIdx.x * {T}LL + threadIdx.x; i < {N}LL; i += gridDim.x * {T}LL) {{\n"
                       "{decompose}{body}  }}\n}}\n\n",
                       fmt::arg("T", kThreads), fmt::arg("name", entry), fmt::arg("N", count),
                       fmt::arg("decompose", decompose), fmt::arg("body", body));
  GeneratedLaunch launch;
  launch.planKernel = planKernel;
  launch.entry = entry;
  launch.grid[0] = static_cast<unsigned>(std::clamp<int64_t>((count + kThreads - 1) / kThreads, 1, kMaxBlocks));
  launch.block[0] = kThreads;
  launch.what = std::move(what);
  addLaunch(std::move(launch));
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
  addLaunch(std::move(launch));
}

void ModuleBuilder::beginKernel(int planKernel) {
  endKernel();
  currentKernel_ = planKernel;
  kernelStart_ = code_.size();
  guard_ = fmt::format("#if !defined(TCX_PART) || defined(TCX_KERNEL_{})\n", planKernel);
  code_ += guard_;
}

void ModuleBuilder::endKernel() {
  if (currentKernel_ < 0) return;
  if (code_.size() == kernelStart_ + guard_.size()) {
    code_.resize(kernelStart_); // no code: no guard either
  } else {
    code_ += "#endif\n";
  }
  if (kernelRanges_.size() <= size_t(currentKernel_)) kernelRanges_.resize(currentKernel_ + 1, {0, 0});
  kernelRanges_[currentKernel_] = {kernelStart_, code_.size()};
  currentKernel_ = -1;
}

GeneratedPlan ModuleBuilder::finish(const std::string& prelude, bool narrowIndex) && {
  endKernel();
  // Index arithmetic in 32 bits where every tensor and offset fits: 64-bit
  // division by a constant costs several times more.
  const std::string head = prelude + fmt::format("typedef {} Index;\n\nstruct Buffers {{\n  void* p[{}];\n}};\n\n",
                                                 narrowIndex ? "int" : "long long", plan_.numBuffers());
  plan_.source = head + code_;

  // Offsets into code_ become 1-based line numbers of the whole source.
  const auto lineAt = [&](size_t offset) {
    const size_t pos = head.size() + offset;
    return 1 + int(std::count(plan_.source.begin(), plan_.source.begin() + pos, '\n'));
  };
  for (const auto& [begin, end] : kernelRanges_)
    plan_.kernelSpans.push_back(end > begin ? SourceSpan{lineAt(begin), lineAt(end - 1)} : SourceSpan{});
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
