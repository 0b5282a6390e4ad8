#include "exec/AccessCopy.h"

#include "ir/Dispatch.h"
#include "vt/RowWalker.h"

#include <cstring>

namespace tcx {

namespace {

void writeFill(std::byte* dst, DType dtype, double value) {
  dispatchDType(dtype, [&]<typename T>() {
    T v = static_cast<T>(static_cast<ComputeType<T>>(value));
    std::memcpy(dst, &v, sizeof(T));
  });
}

// Copies segment elements between a contiguous row (`row`, element t at
// row + t*es) and a strided source/destination in `buffer`.
template <bool kToRow>
void moveSegment(std::byte* row, std::byte* buffer, const RowSegment& s, size_t es) {
  if (s.stride == 1) {
    std::byte* strided = buffer + (s.base + s.lo) * static_cast<int64_t>(es);
    size_t bytes = static_cast<size_t>(s.hi - s.lo) * es;
    if constexpr (kToRow)
      std::memcpy(row + s.lo * static_cast<int64_t>(es), strided, bytes);
    else
      std::memcpy(strided, row + s.lo * static_cast<int64_t>(es), bytes);
    return;
  }
  for (int64_t t = s.lo; t < s.hi; ++t) {
    std::byte* strided = buffer + (s.base + s.stride * t) * static_cast<int64_t>(es);
    if constexpr (kToRow)
      std::memcpy(row + t * static_cast<int64_t>(es), strided, es);
    else
      std::memcpy(strided, row + t * static_cast<int64_t>(es), es);
  }
}

} // namespace

void gatherAccess(const TensorAccess& access, const std::vector<Tensor>& buffers, Tensor& out) {
  const size_t es = dtypeSize(out.dtype());
  RowWalker walker(access.mapping);
  walker.forEachRow([&](int64_t row, const std::vector<int64_t>&, const std::vector<RowSegment>& segments) {
    std::byte* dst = out.raw() + row * walker.rowLength() * static_cast<int64_t>(es);
    for (const RowSegment& s : segments) {
      if (s.source == MappingPiece::kFill) {
        for (int64_t t = s.lo; t < s.hi; ++t) writeFill(dst + t * static_cast<int64_t>(es), out.dtype(), s.fillValue);
        continue;
      }
      auto* src = const_cast<std::byte*>(buffers[access.buffers[s.source]].raw());
      moveSegment<true>(dst, src, s, es);
    }
  });
}

void scatterAccess(const TensorAccess& access, std::vector<Tensor>& buffers, const Tensor& in) {
  const size_t es = dtypeSize(in.dtype());
  RowWalker walker(access.mapping);
  walker.forEachRow([&](int64_t row, const std::vector<int64_t>&, const std::vector<RowSegment>& segments) {
    auto* src = const_cast<std::byte*>(in.raw()) + row * walker.rowLength() * static_cast<int64_t>(es);
    for (const RowSegment& s : segments)
      if (s.source != MappingPiece::kFill) moveSegment<false>(src, buffers[access.buffers[s.source]].raw(), s, es);
  });
}

void copyRegion(const TensorAccess& from, const TensorAccess& to, std::vector<Tensor>& buffers) {
  const DType dtype = to.value->type().dtype;
  const size_t es = dtypeSize(dtype);
  RowWalker src(from.mapping), dst(to.mapping);
  // Both walks cover the same index space row by row: stage each row in a
  // contiguous scratch row, then write back only what `from` covers.
  std::vector<std::byte> scratch(static_cast<size_t>(src.rowLength()) * es);
  std::vector<int64_t> x(std::max<size_t>(from.mapping.virtualShape().size(), 1), 0);
  std::vector<RowSegment> srcSegments, dstSegments;
  for (int64_t row = 0, rows = src.numRows(); row < rows; ++row, src.nextRow(x)) {
    src.segmentsOfRow(x, srcSegments);
    if (srcSegments.empty()) continue;
    dst.segmentsOfRow(x, dstSegments);
    for (const RowSegment& s : srcSegments) {
      if (s.source == MappingPiece::kFill)
        for (int64_t t = s.lo; t < s.hi; ++t) writeFill(scratch.data() + t * static_cast<int64_t>(es), dtype, s.fillValue);
      else
        moveSegment<true>(scratch.data(), buffers[from.buffers[s.source]].raw(), s, es);
    }
    for (const RowSegment& covered : srcSegments)
      for (RowSegment d : dstSegments) {
        d.lo = std::max(d.lo, covered.lo);
        d.hi = std::min(d.hi, covered.hi);
        if (d.lo < d.hi && d.source != MappingPiece::kFill)
          moveSegment<false>(scratch.data(), buffers[to.buffers[d.source]].raw(), d, es);
      }
  }
}

} // namespace tcx
