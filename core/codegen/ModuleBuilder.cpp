#include "codegen/ModuleBuilder.h"

#include "codegen/SlotBinding.h"
#include "support/Error.h"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <utility>

namespace tcx {

namespace {

constexpr unsigned kThreads = 256;
// What instantiating a library kernel's template costs NVRTC, in lines of
// generated code. nvcc -cubin on one core of the 2-core dev machine
// (2026-11-27, DenseNet-121's module, -DTCX_PART): the headers alone 1.11 to
// 1.24 s, with one 55-line store kernel 1.18 to 1.25 s (no measurable
// difference), with one 53-line implicit-GEMM convolution 1.74 to 1.87 s.
constexpr int kLibraryKernelLines = 800;
// Enough blocks to fill any current GPU many times over; the grid-stride
// loop covers the rest.
constexpr int64_t kMaxBlocks = 1 << 20;

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

void ModuleBuilder::addVendorAlternative(int planKernel, VendorCall call, int staging, const std::string& entry,
                                         int64_t elements, std::string what) {
  // The alternative replaces the kernel's one launch (GpuPlan runs it there).
  TCX_CHECK(planKernel == currentKernel_ && plan_.vendorAlternatives.size() == alternativeStart_ &&
                plan_.launches.size() == launchStart_ + 1,
            ErrorKind::Internal, "plan kernel {} offers a vendor alternative with {} launches of its own, {} before",
            planKernel, plan_.launches.size() - launchStart_, plan_.vendorAlternatives.size() - alternativeStart_);
  const int64_t stagingBytes = elements * elemBytes(vendorCallType(call));
  VendorAlternative alternative{
      .planKernel = planKernel, .call = std::move(call), .staging = staging, .stagingBytes = stagingBytes};
  alternative.epilogue = launch1d(planKernel, entry, (elements + kThreads - 1) / kThreads, kThreads, std::move(what));
  plan_.vendorAlternatives.push_back(std::move(alternative));
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

namespace {

// The threads of a block folding `count` elements: a power of two for the
// tree, enough for the elements, up to a full block.
unsigned foldThreads(int64_t count) {
  unsigned threads = 32;
  while (threads < kThreads && threads < count) threads *= 2;
  return threads;
}

// Statements that fold `count` elements into `_part[0]` with the block's
// `threads` threads: each folds elements threadIdx.x, + threads, ... (whose
// index `decompose` splits from `i`) into `_acc`, then a tree in shared
// memory folds the threads' accumulators. `_acc` and `_part` (of accType)
// are declared by the caller; `_v` is `value`, of valueType.
std::string blockFoldCode(unsigned threads, int64_t count, const std::string& decompose, const std::string& valueType,
                          const std::string& accType, const std::string& init, const std::string& map,
                          const std::string& fold, const std::string& value) {
  return fmt::format("    _acc = {init};\n"
                     "    for (tcx::i64 _f = threadIdx.x; _f < {F}LL; _f += {T}) {{\n"
                     "      {{\n      const tcx::i64 i = _f;\n{decompose}"
                     "      const {VT} _v = {value};\n      const {AT} _m = {map};\n      _acc = {fold};\n      }}\n"
                     "    }}\n"
                     "    _part[threadIdx.x] = _acc;\n    __syncthreads();\n"
                     "    for (unsigned _s = {T} / 2; _s > 0; _s /= 2) {{\n"
                     "      if (threadIdx.x < _s) {{\n        const {AT} _m = _part[threadIdx.x + _s];\n"
                     "        _acc = _part[threadIdx.x];\n        _part[threadIdx.x] = {fold};\n      }}\n"
                     "      __syncthreads();\n    }}\n",
                     fmt::arg("init", init), fmt::arg("F", count), fmt::arg("T", threads),
                     fmt::arg("decompose", decompose), fmt::arg("VT", valueType), fmt::arg("AT", accType),
                     fmt::arg("value", value), fmt::arg("map", map), fmt::arg("fold", fold));
}

// The names and extents of `dims` of `shape` (index variables x<d>).
void namedDims(const Shape& shape, const std::vector<size_t>& dims, Shape& extents, std::vector<std::string>& names) {
  for (size_t d : dims) {
    extents.push_back(shape[d]);
    names.push_back(fmt::format("x{}", d));
  }
}

// A row form's index split into the row's dimensions and the others
// (index variables x<d> both).
struct RowIndex {
  Shape rowShape, outerShape;
  std::vector<std::string> rowNames, outerNames;
  explicit RowIndex(const CudaRowForm& form) {
    std::vector<size_t> outerDims;
    for (size_t d = 0; d < form.shape.size(); ++d)
      if (std::find(form.rowDims.begin(), form.rowDims.end(), d) == form.rowDims.end()) outerDims.push_back(d);
    namedDims(form.shape, form.rowDims, rowShape, rowNames);
    namedDims(form.shape, outerDims, outerShape, outerNames);
  }
};

} // namespace

void ModuleBuilder::addBlockFoldKernel(int planKernel, const std::string& entry, const Shape& shape,
                                       const CudaBlockFold& fold, const std::string& store, std::string what) {
  const unsigned threads = foldThreads(fold.count);
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
      "    _A _acc;\n{fold}"
      "    if (threadIdx.x == 0) {{\n      const long long _count = {F};\n      _acc = _part[0];\n"
      "      const _T out = {finish};\n{store}    }}\n"
      "    __syncthreads();\n"
      "  }}\n}}\n\n",
      fmt::arg("T", threads), fmt::arg("name", entry), fmt::arg("types", fold.types), fmt::arg("N", outputs),
      fmt::arg("decompose", decomposeIndex(shape, indexNames(shape.size()))), fmt::arg("F", fold.count),
      fmt::arg("fold", blockFoldCode(threads, fold.count, decomposeIndex(foldedShape, foldedNames), "_T", "_A",
                                     fold.init, fold.map, fold.fold, fold.value)),
      fmt::arg("finish", fold.finish), fmt::arg("store", store));
  addLaunch1d(planKernel, entry, outputs, threads, std::move(what));
}

void ModuleBuilder::addRowKernel(int planKernel, const std::string& entry, const CudaRowForm& form,
                                 const std::string& outType, const std::string& store, std::string what) {
  const RowIndex at(form);
  const int64_t count = form.rowCount(), rows = numElements(at.outerShape);
  const unsigned threads = foldThreads(count);
  const std::string decomposeRow = decomposeIndex(at.rowShape, at.rowNames);
  const std::string value = form.valueAt(indexNames(form.shape.size()));
  std::string shared, statistics;
  for (size_t j = 0; j < form.statistics.size(); ++j) {
    const CudaRowStatistic& s = form.statistics[j];
    shared += fmt::format("  __shared__ {} _part{}[{}];\n", s.type, j, threads);
    statistics += fmt::format(
        "    {type} {name};\n    {{\n    {type}* const _part = _part{j};\n    {type} _acc;\n{fold}"
        "    _acc = _part[0];\n    {name} = {finish};\n    }}\n",
        fmt::arg("type", s.type), fmt::arg("name", s.name), fmt::arg("j", j),
        fmt::arg("fold", blockFoldCode(threads, count, decomposeRow, "_T", s.type, s.init, s.map, s.fold, value)),
        fmt::arg("finish", s.finish));
  }
  code_ += fmt::format(
      "extern \"C\" __global__ void __launch_bounds__({T}) {name}(Buffers b) {{\n"
      "  {types}{shared}"
      "  for (tcx::i64 _r = blockIdx.x; _r < {R}LL; _r += gridDim.x) {{\n"
      "    const tcx::i64 i = _r;\n{decomposeOuter}"
      "    const long long _count = {F};\n{statistics}"
      "    for (tcx::i64 _f = threadIdx.x; _f < {F}LL; _f += {T}) {{\n"
      "      const tcx::i64 i = _f;\n{decomposeRow}"
      "      {outType} out;\n      {{\n{element}      }}\n{store}"
      "    }}\n"
      "    __syncthreads();\n"
      "  }}\n}}\n\n",
      fmt::arg("T", threads), fmt::arg("name", entry), fmt::arg("types", form.types), fmt::arg("shared", shared),
      fmt::arg("R", rows), fmt::arg("decomposeOuter", decomposeIndex(at.outerShape, at.outerNames)), fmt::arg("F", count),
      fmt::arg("statistics", statistics), fmt::arg("decomposeRow", decomposeRow), fmt::arg("outType", outType),
      fmt::arg("element", form.element), fmt::arg("store", store));
  addLaunch1d(planKernel, entry, rows, threads, std::move(what));
}

void ModuleBuilder::addWarpRowKernel(int planKernel, const std::string& entry, const CudaRowForm& form,
                                     const std::string& outType, const std::string& store, std::string what) {
  // A row a warp, kThreads / 32 rows a block: the lanes fold consecutive
  // elements and combine through shuffles, with no barrier.
  constexpr int kRowsPerBlock = kThreads / 32;
  const RowIndex at(form);
  const int64_t count = form.rowCount(), rows = numElements(at.outerShape);
  const std::string decomposeRow = decomposeIndex(at.rowShape, at.rowNames);
  const std::string value = form.valueAt(indexNames(form.shape.size()));
  std::string statistics;
  for (const CudaRowStatistic& s : form.statistics)
    statistics += fmt::format(
        "    {type} {name};\n    {{\n    {type} _acc = {init};\n"
        "    for (tcx::i64 _f = _lane; _f < {F}LL; _f += 32) {{\n      const tcx::i64 i = _f;\n{decomposeRow}"
        "      const _T _v = {value};\n      const {type} _m = {map};\n      _acc = {fold};\n    }}\n"
        "    for (int _s = 16; _s > 0; _s /= 2) {{\n      const {type} _m = __shfl_xor_sync(0xffffffffu, _acc, _s);\n"
        "      _acc = {fold};\n    }}\n    {name} = {finish};\n    }}\n",
        fmt::arg("type", s.type), fmt::arg("name", s.name), fmt::arg("init", s.init), fmt::arg("F", count),
        fmt::arg("decomposeRow", decomposeRow), fmt::arg("value", value), fmt::arg("map", s.map),
        fmt::arg("fold", s.fold), fmt::arg("finish", s.finish));
  code_ += fmt::format(
      "extern \"C\" __global__ void __launch_bounds__({T}) {name}(Buffers b) {{\n"
      "  {types}"
      "  const int _lane = threadIdx.x % 32;\n"
      "  for (tcx::i64 _r = blockIdx.x * {W}LL + threadIdx.x / 32; _r < {R}LL; _r += gridDim.x * {W}LL) {{\n"
      "    const tcx::i64 i = _r;\n{decomposeOuter}"
      "    const long long _count = {F};\n{statistics}"
      "    for (tcx::i64 _f = _lane; _f < {F}LL; _f += 32) {{\n"
      "      const tcx::i64 i = _f;\n{decomposeRow}"
      "      {outType} out;\n      {{\n{element}      }}\n{store}"
      "    }}\n"
      "  }}\n}}\n\n",
      fmt::arg("T", kThreads), fmt::arg("name", entry), fmt::arg("types", form.types), fmt::arg("W", kRowsPerBlock),
      fmt::arg("R", rows), fmt::arg("decomposeOuter", decomposeIndex(at.outerShape, at.outerNames)),
      fmt::arg("F", count), fmt::arg("statistics", statistics), fmt::arg("decomposeRow", decomposeRow),
      fmt::arg("outType", outType), fmt::arg("element", form.element), fmt::arg("store", store));
  addLaunch1d(planKernel, entry, (rows + kRowsPerBlock - 1) / kRowsPerBlock, kThreads, std::move(what));
}

const char* const ModuleBuilder::kRowTileValue = "_tile[_tr * _tileStride + _f]";

void ModuleBuilder::addInterleavedRowKernel(int planKernel, const std::string& entry, const CudaRowForm& form,
                                            const RowTile& tile, const std::string& outType,
                                            const std::string& store, std::string what) {
  // A block takes 32 rows into a shared tile, a row a lane, so that each load
  // is one coalesced access across the warp (its warps split the row's
  // elements). The statistics fold from the tile: part p of kParts folds
  // elements p, p + kParts, ... of its lane's row, and the parts combine
  // through shared memory in part order. The elements then go out with
  // consecutive threads on consecutive elements of a row, so that the
  // stores are coalesced where the output's rows are dense.
  constexpr int kParts = kThreads / 32;
  const RowIndex at(form);
  const int64_t count = form.rowCount(), rows = numElements(at.outerShape);
  const std::string decomposeRow = decomposeIndex(at.rowShape, at.rowNames);
  const std::string value = form.valueAt(indexNames(form.shape.size()));
  std::string shared, statistics, restate;
  for (size_t j = 0; j < form.statistics.size(); ++j) {
    const CudaRowStatistic& s = form.statistics[j];
    shared += fmt::format("  __shared__ {0} _part{1}[{2}][32];\n  __shared__ {0} _stat{1}[32];\n", s.type, j, kParts);
    statistics += fmt::format(
        "    {type} {name};\n    {{\n    {type} _acc = {init};\n"
        "    for (tcx::i64 _f = _p; _f < {F}LL; _f += {P}) {{\n"
        "      const _T _v = {value};\n      const {type} _m = {map};\n      _acc = {fold};\n    }}\n"
        "    _part{j}[_p][_lane] = _acc;\n    __syncthreads();\n    _acc = _part{j}[0][_lane];\n"
        "    for (int _q = 1; _q < {P}; ++_q) {{\n      const {type} _m = _part{j}[_q][_lane];\n"
        "      _acc = {fold};\n    }}\n    {name} = {finish};\n    }}\n",
        fmt::arg("type", s.type), fmt::arg("name", s.name), fmt::arg("init", s.init), fmt::arg("F", count),
        fmt::arg("P", kParts), fmt::arg("value", value), fmt::arg("map", s.map), fmt::arg("fold", s.fold),
        fmt::arg("j", j), fmt::arg("finish", s.finish));
    statistics += fmt::format("    if (_p == 0) _stat{}[_lane] = {};\n", j, s.name);
    restate += fmt::format("      const {} {} = _stat{}[_tr];\n", s.type, s.name, j);
  }
  // Lanes past the last row load the last row again, and store nothing.
  code_ += fmt::format(
      "extern \"C\" __global__ void __launch_bounds__({T}) {name}(Buffers b) {{\n"
      "  {types}"
      "  extern __shared__ __align__(16) unsigned char _smem[];\n"
      "  {tileType}* const _tile = reinterpret_cast<{tileType}*>(_smem);\n"
      "  constexpr int _tileStride = {F} + 1;\n{shared}"
      "  const int _lane = threadIdx.x % 32, _p = threadIdx.x / 32;\n"
      "  for (tcx::i64 _base = blockIdx.x * 32LL; _base < {R}LL; _base += gridDim.x * 32LL) {{\n"
      "    {{\n"
      "    const tcx::i64 i = _base + _lane < {R}LL ? _base + _lane : {R}LL - 1;\n{decomposeOuter}"
      "    for (tcx::i64 _f = _p; _f < {F}LL; _f += {P}) {{\n"
      "      const tcx::i64 i = _f;\n{decomposeRow}"
      "      _tile[_lane * _tileStride + _f] = {load};\n"
      "    }}\n"
      "    }}\n"
      "    __syncthreads();\n"
      "    {{\n    const int _tr = _lane;\n    const long long _count = {F};\n{statistics}    }}\n"
      "    __syncthreads();\n"
      "    for (tcx::i64 _e = threadIdx.x; _e < 32LL * {F}LL && _base + _e / {F}LL < {R}LL; _e += {T}) {{\n"
      "      const int _tr = static_cast<int>(_e / {F}LL);\n      const tcx::i64 _f = _e % {F}LL;\n"
      "      const tcx::i64 i = _base + _tr;\n{decomposeOuter}"
      "      {{\n      const tcx::i64 i = _f;\n{decomposeRow}"
      "      const long long _count = {F};\n{restate}"
      "      {outType} out;\n      {{\n{element}      }}\n{store}"
      "      }}\n"
      "    }}\n"
      "    __syncthreads();\n"
      "  }}\n}}\n\n",
      fmt::arg("T", kThreads), fmt::arg("name", entry), fmt::arg("types", form.types),
      fmt::arg("tileType", tile.type), fmt::arg("shared", shared), fmt::arg("R", rows),
      fmt::arg("decomposeOuter", decomposeIndex(at.outerShape, at.outerNames)), fmt::arg("F", count),
      fmt::arg("P", kParts), fmt::arg("decomposeRow", decomposeRow), fmt::arg("load", tile.load),
      fmt::arg("statistics", statistics), fmt::arg("restate", restate), fmt::arg("outType", outType),
      fmt::arg("element", form.element), fmt::arg("store", store));
  const unsigned grid[3] = {static_cast<unsigned>(std::clamp<int64_t>((rows + 31) / 32, 1, kMaxBlocks)), 1, 1};
  const unsigned block[3] = {kThreads, 1, 1};
  addLaunch(planKernel, entry, grid, block, static_cast<unsigned>(rowTileBytes(count, tile.elementBytes)),
            std::move(what));
}

int64_t ModuleBuilder::rowTileBytes(int64_t rowCount, int elementBytes) { return 32 * (rowCount + 1) * elementBytes; }

void ModuleBuilder::addElementKernel(int planKernel, const std::string& entry, const Shape& shape,
                                     const std::string& body, std::string what) {
  const int64_t count = numElements(shape);
  const std::string decompose = decomposeIndex(shape, indexNames(shape.size()));
  code_ += fmt::format("extern \"C\" __global__ void __launch_bounds__({T}) {name}(Buffers b) {{\n"
                       "  for (tcx::i64 i = blockIdx.x * {T}LL + threadIdx.x; i < {N}LL; i += gridDim.x * {T}LL) {{\n"
                       "{decompose}{body}  }}\n}}\n\n",
                       fmt::arg("T", kThreads), fmt::arg("name", entry), fmt::arg("N", count),
                       fmt::arg("decompose", decompose), fmt::arg("body", body));
  addLaunch1d(planKernel, entry, (count + kThreads - 1) / kThreads, kThreads, std::move(what));
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
  launch.grid = {static_cast<unsigned>(std::clamp<int64_t>(blocks, 1, kMaxBlocks)), 1, 1};
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
  for (size_t a = alternativeStart_; a < plan_.vendorAlternatives.size(); ++a)
    launches.push_back(&plan_.vendorAlternatives[a].epilogue);
  return launches;
}

std::string ModuleBuilder::kernelPrefix(int planKernel) { return fmt::format("k{}_", planKernel); }

std::string ModuleBuilder::bufferRef(int buffer, int64_t byteOffset) { return unboundBufferRef(buffer, byteOffset); }

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
