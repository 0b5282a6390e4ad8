#include "ops/movement/StridedCopy.h"

#include "ops/StridedLoop.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace tcx {

namespace {

struct Dim {
  int64_t size;
  int64_t dst;
  int64_t src;
};

// The dimensions of a copy without unit dimensions and with neighbours
// merged where both sides step contiguously from one into the other, so that
// a copy of whole rows becomes a single long run. Empty for a single
// element; nullopt when there is nothing to copy.
std::optional<std::vector<Dim>> simplify(const Shape& shape, std::span<const int64_t> dstStrides,
                                         std::span<const int64_t> srcStrides) {
  std::vector<Dim> dims;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return std::nullopt;
    if (shape[d] == 1) continue;
    Dim dim{shape[d], dstStrides[d], srcStrides[d]};
    if (!dims.empty() && dims.back().dst == dim.dst * dim.size && dims.back().src == dim.src * dim.size)
      dims.back() = {dims.back().size * dim.size, dim.dst, dim.src};
    else
      dims.push_back(dim);
  }
  return dims;
}

// Calls body(dst, src) at the start of every combination of `outer` dims.
template <typename U, typename Body>
void forEachOuter(const std::vector<Dim>& outer, U* dst, const U* src, Body&& body) {
  Shape shape;
  std::vector<int64_t> dstStrides, srcStrides;
  for (const Dim& d : outer) {
    shape.push_back(d.size);
    dstStrides.push_back(d.dst);
    srcStrides.push_back(d.src);
  }
  stridedLoop<2>(shape, {dstStrides.data(), srcStrides.data()},
                 [&](const std::array<int64_t, 2>& o) { body(dst + o[0], src + o[1]); });
}

// A transposed copy reads one dimension contiguously (`rows`) and writes
// another (`cols`). It goes tile by tile through a small buffer, so that
// both sides move whole cache lines: walking either side with a large
// (often power-of-two) stride would evict lines before they are used up.
constexpr int64_t kTileBytes = 64;

template <typename U> void copyTiled(U* dst, const U* src, const Dim& rows, const Dim& cols) {
  constexpr int64_t kTile = kTileBytes / sizeof(U) < 8 ? 8 : kTileBytes / sizeof(U);
  U tile[kTile][kTile];
  for (int64_t i0 = 0; i0 < rows.size; i0 += kTile) {
    const int64_t ni = std::min(kTile, rows.size - i0);
    for (int64_t j0 = 0; j0 < cols.size; j0 += kTile) {
      const int64_t nj = std::min(kTile, cols.size - j0);
      const U* s = src + i0 + j0 * cols.src;
      for (int64_t j = 0; j < nj; ++j)
        for (int64_t i = 0; i < ni; ++i) tile[i][j] = s[i + j * cols.src];
      U* d = dst + i0 * rows.dst + j0;
      for (int64_t i = 0; i < ni; ++i)
        for (int64_t j = 0; j < nj; ++j) d[i * rows.dst + j] = tile[i][j];
    }
  }
}

template <typename U> void copyDims(std::vector<Dim> dims, U* dst, const U* src) {
  if (dims.empty()) {
    *dst = *src;
    return;
  }
  const Dim inner = dims.back();
  dims.pop_back();
  if (inner.dst == 1 && inner.src == 1) {
    const size_t bytes = static_cast<size_t>(inner.size) * sizeof(U);
    forEachOuter(dims, dst, src, [&](U* d, const U* s) { std::memcpy(d, s, bytes); });
    return;
  }
  if (inner.dst == 1 && inner.src == 0) {
    forEachOuter(dims, dst, src, [&](U* d, const U* s) { std::fill_n(d, inner.size, *s); });
    return;
  }
  auto rows = std::find_if(dims.begin(), dims.end(), [](const Dim& d) { return d.src == 1; });
  if (inner.dst == 1 && rows != dims.end()) {
    const Dim rowDim = *rows;
    dims.erase(rows);
    forEachOuter(dims, dst, src, [&](U* d, const U* s) { copyTiled(d, s, rowDim, inner); });
    return;
  }
  forEachOuter(dims, dst, src, [&](U* d, const U* s) {
    for (int64_t i = 0; i < inner.size; ++i) d[i * inner.dst] = s[i * inner.src];
  });
}

} // namespace

StridedView contiguousView(const Shape& shape) { return {shape, contiguousStrides(shape), 0}; }

void copyView(const StridedView& view, const Tensor& input, Tensor& output) {
  TCX_CHECK(numElements(view.shape) == output.numElements() && view.strides.size() == view.shape.size() &&
                input.dtype() == output.dtype(),
            ErrorKind::Internal, "view {} does not fit output {}", shapeToString(view.shape),
            output.type().toString());
  const size_t elementSize = dtypeSize(input.dtype());
  copyStrided(view.shape, output.raw(), contiguousStrides(view.shape),
              input.raw() + view.offset * static_cast<int64_t>(elementSize), view.strides, elementSize);
}

void copyStrided(const Shape& shape, std::byte* dst, std::span<const int64_t> dstStrides, const std::byte* src,
                 std::span<const int64_t> srcStrides, size_t elementSize) {
  std::optional<std::vector<Dim>> dims = simplify(shape, dstStrides, srcStrides);
  if (!dims) return;
  dispatchElementSize(elementSize, [&]<typename U>() {
    copyDims(std::move(*dims), reinterpret_cast<U*>(dst), reinterpret_cast<const U*>(src));
  });
}

void copyAllElements(const Tensor& input, Tensor& output) {
  TCX_CHECK(input.byteSize() == output.byteSize(), ErrorKind::Internal, "copying {} into {}",
            input.type().toString(), output.type().toString());
  if (input.byteSize() != 0) std::memcpy(output.raw(), input.raw(), input.byteSize());
}

} // namespace tcx
