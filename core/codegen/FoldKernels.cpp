// ModuleBuilder's kernels that fold: a block or a warp per element of a
// reduction (CudaBlockFold), and a row form's statistics (CudaRowForm) a
// block, a warp or a lane per row.

#include "codegen/KernelText.h"
#include "codegen/ModuleBuilder.h"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <utility>

namespace tcx {

namespace {

// The threads of a block folding `count` elements: a power of two for the
// tree, enough for the elements, up to a full block.
unsigned foldThreads(int64_t count) {
  unsigned threads = 32;
  while (threads < kKernelThreads && threads < count) threads *= 2;
  return threads;
}

// A loop folding elements `first`, + step, ... below `count` (whose index
// `decompose` splits from `i`) into `_acc`: each element's `value` (of
// valueType) as `_v`, mapped to `_m` (of accType), folded in.
std::string strideFoldCode(const std::string& first, int64_t step, int64_t count, const std::string& decompose,
                           const std::string& valueType, const std::string& accType, const std::string& map,
                           const std::string& fold, const std::string& value) {
  return fmt::format("    for (tcx::i64 _f = {first}; _f < {F}LL; _f += {step}) {{\n      const tcx::i64 i = _f;\n"
                     "{decompose}      const {VT} _v = {value};\n      const {AT} _m = {map};\n      _acc = {fold};\n"
                     "    }}\n",
                     fmt::arg("first", first), fmt::arg("F", count), fmt::arg("step", step),
                     fmt::arg("decompose", decompose), fmt::arg("VT", valueType), fmt::arg("AT", accType),
                     fmt::arg("value", value), fmt::arg("map", map), fmt::arg("fold", fold));
}

// Statements that fold `count` elements into `_part[0]` with the block's
// `threads` threads: each folds elements threadIdx.x, + threads, ... (whose
// index `decompose` splits from `i`) into `_acc`, then a tree in shared
// memory folds the threads' accumulators. `_acc` and `_part` (of accType)
// are declared by the caller; `_v` is `value`, of valueType.
std::string blockFoldCode(unsigned threads, int64_t count, const std::string& decompose, const std::string& valueType,
                          const std::string& accType, const std::string& init, const std::string& map,
                          const std::string& fold, const std::string& value) {
  return fmt::format("    _acc = {init};\n", fmt::arg("init", init)) +
         strideFoldCode("threadIdx.x", threads, count, decompose, valueType, accType, map, fold, value) +
         fmt::format("    _part[threadIdx.x] = _acc;\n    __syncthreads();\n"
                     "    for (unsigned _s = {T} / 2; _s > 0; _s /= 2) {{\n"
                     "      if (threadIdx.x < _s) {{\n        const {AT} _m = _part[threadIdx.x + _s];\n"
                     "        _acc = _part[threadIdx.x];\n        _part[threadIdx.x] = {fold};\n      }}\n"
                     "      __syncthreads();\n    }}\n",
                     fmt::arg("T", threads), fmt::arg("AT", accType), fmt::arg("fold", fold));
}

// Statements that fold `count` elements into `_acc` (of accType, declared
// here) with the 32 lanes of a warp: lane `_lane` folds elements _lane,
// _lane + 32, ... (whose index `decompose` splits from `i`), then shuffles
// fold the lanes' accumulators, so every lane ends with the whole fold.
std::string warpFoldCode(int64_t count, const std::string& decompose, const std::string& accType,
                         const std::string& init, const std::string& map, const std::string& fold,
                         const std::string& value) {
  return fmt::format("    {} _acc = {};\n", accType, init) +
         strideFoldCode("_lane", 32, count, decompose, "_T", accType, map, fold, value) +
         fmt::format("    for (int _s = 16; _s > 0; _s /= 2) {{\n"
                     "      const {AT} _m = __shfl_xor_sync(0xffffffffu, _acc, _s);\n      _acc = {fold};\n    }}\n",
                     fmt::arg("AT", accType), fmt::arg("fold", fold));
}

// The names and extents of `dims` of `shape` (index variables x<d>).
void namedDims(const Shape& shape, const std::vector<size_t>& dims, Shape& extents, std::vector<std::string>& names) {
  for (size_t d : dims) {
    extents.push_back(shape[d]);
    names.push_back(fmt::format("x{}", d));
  }
}

// The statements that split a fold's element index `i` into its folded
// axes' variables.
struct FoldedIndex {
  Shape shape;
  std::vector<std::string> names;
  explicit FoldedIndex(const CudaBlockFold& fold) {
    for (const auto& [var, extent] : fold.folded) {
      shape.push_back(extent);
      names.push_back(var);
    }
  }
  std::string decompose() const { return decomposeIndex(shape, names); }
};

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
  const FoldedIndex folded(fold);
  const int64_t outputs = numElements(shape);
  // The folded index decomposes from `i` as well: a block scope of its own.
  code_ += fmt::format(
      "{open}"
      "  {types}"
      "  __shared__ _A _part[{T}];\n"
      "  for (tcx::i64 _o = blockIdx.x; _o < {N}LL; _o += gridDim.x) {{\n"
      "    const tcx::i64 i = _o;\n{decompose}"
      "    _A _acc;\n{fold}"
      "    if (threadIdx.x == 0) {{\n      const long long _count = {F};\n      _acc = _part[0];\n"
      "      const _T out = {finish};\n{store}    }}\n"
      "    __syncthreads();\n"
      "  }}\n}}\n\n",
      fmt::arg("open", kernelOpening(fmt::to_string(threads), entry)),
      fmt::arg("T", threads), fmt::arg("types", fold.types), fmt::arg("N", outputs),
      fmt::arg("decompose", decomposeIndex(shape, indexNames(shape.size()))), fmt::arg("F", fold.count),
      fmt::arg("fold", blockFoldCode(threads, fold.count, folded.decompose(), "_T", "_A",
                                     fold.init, fold.map, fold.fold, fold.value)),
      fmt::arg("finish", fold.finish), fmt::arg("store", store));
  addLaunch1d(planKernel, entry, outputs, threads, std::move(what));
}

void ModuleBuilder::addWarpFoldKernel(int planKernel, const std::string& entry, const Shape& shape,
                                      const CudaBlockFold& fold, const std::string& store, std::string what) {
  // An element a warp, kKernelThreads / 32 elements a block: the lanes fold
  // elements lane, lane + 32, ... and combine through shuffles, with no
  // barrier; lane 0 stores.
  constexpr int kPerBlock = kKernelThreads / 32;
  const FoldedIndex folded(fold);
  const int64_t outputs = numElements(shape);
  code_ += fmt::format(
      "{open}"
      "  {types}"
      "  const int _lane = threadIdx.x % 32;\n"
      "  for (tcx::i64 _o = blockIdx.x * {W}LL + threadIdx.x / 32; _o < {N}LL; _o += gridDim.x * {W}LL) {{\n"
      "    const tcx::i64 i = _o;\n{decompose}"
      "{fold}"
      "    if (_lane == 0) {{\n      const long long _count = {F};\n      const _T out = {finish};\n{store}    }}\n"
      "  }}\n}}\n\n",
      fmt::arg("open", kernelOpening(fmt::to_string(kKernelThreads), entry)),
      fmt::arg("T", kKernelThreads), fmt::arg("types", fold.types), fmt::arg("W", kPerBlock),
      fmt::arg("N", outputs), fmt::arg("decompose", decomposeIndex(shape, indexNames(shape.size()))),
      fmt::arg("fold", warpFoldCode(fold.count, folded.decompose(), "_A", fold.init, fold.map, fold.fold, fold.value)),
      fmt::arg("F", fold.count), fmt::arg("finish", fold.finish), fmt::arg("store", store));
  addLaunch1d(planKernel, entry, (outputs + kPerBlock - 1) / kPerBlock, kKernelThreads, std::move(what));
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
      "{open}"
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
      fmt::arg("open", kernelOpening(fmt::to_string(threads), entry)),
      fmt::arg("T", threads), fmt::arg("types", form.types), fmt::arg("shared", shared),
      fmt::arg("R", rows), fmt::arg("decomposeOuter", decomposeIndex(at.outerShape, at.outerNames)), fmt::arg("F", count),
      fmt::arg("statistics", statistics), fmt::arg("decomposeRow", decomposeRow), fmt::arg("outType", outType),
      fmt::arg("element", form.element), fmt::arg("store", store));
  addLaunch1d(planKernel, entry, rows, threads, std::move(what));
}

void ModuleBuilder::addWarpRowKernel(int planKernel, const std::string& entry, const CudaRowForm& form,
                                     const std::string& outType, const std::string& store, std::string what) {
  // A row a warp, kKernelThreads / 32 rows a block: the lanes fold consecutive
  // elements and combine through shuffles, with no barrier.
  constexpr int kRowsPerBlock = kKernelThreads / 32;
  const RowIndex at(form);
  const int64_t count = form.rowCount(), rows = numElements(at.outerShape);
  const std::string decomposeRow = decomposeIndex(at.rowShape, at.rowNames);
  const std::string value = form.valueAt(indexNames(form.shape.size()));
  std::string statistics;
  for (const CudaRowStatistic& s : form.statistics)
    statistics += fmt::format("    {type} {name};\n    {{\n{fold}    {name} = {finish};\n    }}\n",
                              fmt::arg("type", s.type), fmt::arg("name", s.name),
                              fmt::arg("fold", warpFoldCode(count, decomposeRow, s.type, s.init, s.map, s.fold, value)),
                              fmt::arg("finish", s.finish));
  code_ += fmt::format(
      "{open}"
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
      fmt::arg("open", kernelOpening(fmt::to_string(kKernelThreads), entry)),
      fmt::arg("T", kKernelThreads), fmt::arg("types", form.types), fmt::arg("W", kRowsPerBlock),
      fmt::arg("R", rows), fmt::arg("decomposeOuter", decomposeIndex(at.outerShape, at.outerNames)),
      fmt::arg("F", count), fmt::arg("statistics", statistics), fmt::arg("decomposeRow", decomposeRow),
      fmt::arg("outType", outType), fmt::arg("element", form.element), fmt::arg("store", store));
  addLaunch1d(planKernel, entry, (rows + kRowsPerBlock - 1) / kRowsPerBlock, kKernelThreads, std::move(what));
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
  constexpr int kParts = kKernelThreads / 32;
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
      "{open}"
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
      fmt::arg("open", kernelOpening(fmt::to_string(kKernelThreads), entry)),
      fmt::arg("T", kKernelThreads), fmt::arg("types", form.types),
      fmt::arg("tileType", tile.type), fmt::arg("shared", shared), fmt::arg("R", rows),
      fmt::arg("decomposeOuter", decomposeIndex(at.outerShape, at.outerNames)), fmt::arg("F", count),
      fmt::arg("P", kParts), fmt::arg("decomposeRow", decomposeRow), fmt::arg("load", tile.load),
      fmt::arg("statistics", statistics), fmt::arg("restate", restate), fmt::arg("outType", outType),
      fmt::arg("element", form.element), fmt::arg("store", store));
  const unsigned grid[3] = {static_cast<unsigned>(std::clamp<int64_t>((rows + 31) / 32, 1, kMaxGridBlocks)), 1, 1};
  const unsigned block[3] = {kKernelThreads, 1, 1};
  addLaunch(planKernel, entry, grid, block, static_cast<unsigned>(rowTileBytes(count, tile.elementBytes)),
            std::move(what));
}

int64_t ModuleBuilder::rowTileBytes(int64_t rowCount, int elementBytes) { return 32 * (rowCount + 1) * elementBytes; }

} // namespace tcx
