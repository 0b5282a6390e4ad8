#include "codegen/VendorCall.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>

namespace tcx {

namespace {

// Alignment of an operand's address as the libraries pick kernels by it.
int64_t alignment(const BufferBinding& binding) {
  for (int64_t a : {16, 8, 4})
    if (binding.byteOffset % a == 0) return a;
  return 2;
}

} // namespace

std::optional<BlasOperand> blasOperand(int64_t rows, int64_t cols, int64_t rowStride, int64_t colStride) {
  // A size-1 dimension's stride is never used: any leading dimension that
  // BLAS accepts serves.
  auto valid = [](int64_t ld, int64_t extent) { return ld >= std::max<int64_t>(extent, 1) && ld <= INT32_MAX; };
  if (colStride == 1 || cols == 1) {
    const int64_t ld = rows == 1 ? std::max<int64_t>(cols, 1) : rowStride;
    if (valid(ld, cols)) return BlasOperand{false, ld};
  }
  if (rowStride == 1 || rows == 1) {
    const int64_t ld = cols == 1 ? std::max<int64_t>(rows, 1) : colStride;
    if (valid(ld, rows)) return BlasOperand{true, ld};
  }
  return std::nullopt;
}

ElemType vendorCallType(const VendorCall& call) {
  return std::visit([](const auto& c) { return c.type; }, call);
}

std::string describeVendorCall(const VendorCall& call) {
  if (const auto* g = std::get_if<VendorGemm>(&call))
    return fmt::format("cuBLAS gemm {}x{}x{} (batch {}, {})", g->m, g->n, g->k, g->batch, cudaTypeName(g->type));
  const auto& c = std::get<VendorConv>(call);
  return fmt::format("cuDNN conv {}x{} {}->{}{} on {}x{}x{} (stride {}, {}{})", c.kh, c.kw, c.cin, c.cout,
                     c.groups > 1 ? fmt::format(" in {} groups", c.groups) : "", c.batch, c.h, c.w, c.strideH,
                     cudaTypeName(c.type), c.channelsLastResult ? ", NHWC result" : "");
}

std::string vendorCallKey(const VendorCall& call) {
  if (const auto* g = std::get_if<VendorGemm>(&call))
    return fmt::format("gemm {} {} {} {} {} a {} {} b {} {}", cudaTypeName(g->type), g->batch, g->m, g->n, g->k,
                       g->aStrides, alignment(g->a), g->bStrides, alignment(g->b));
  const auto& c = std::get<VendorConv>(call);
  return fmt::format("conv {} n{} c{} {}x{} k{} {}x{} o{}x{} p{},{} s{},{} d{},{} g{} x {} {} w {}{}", cudaTypeName(c.type),
                     c.batch, c.cin, c.h, c.w, c.cout, c.kh, c.kw, c.oh, c.ow, c.padH, c.padW, c.strideH, c.strideW,
                     c.dilationH, c.dilationW, c.groups, c.xStrides, alignment(c.x), alignment(c.weight),
                     c.channelsLastResult ? " y nhwc" : "");
}

} // namespace tcx
