#include "codegen/VendorCall.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <optional>

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

std::optional<VendorGemm> convolutionAsGemm(const VendorConv& c) {
  if (c.kh != 1 || c.kw != 1 || c.strideH != 1 || c.strideW != 1 || c.padH != 0 || c.padW != 0 || c.groups != 1)
    return std::nullopt;
  // x's pixels, innermost (column) first, then rows and, with `images`, the
  // images: one run where each dim steps at the stride the one inside it
  // ends at. Size-1 dims drop out.
  struct Run {
    int64_t size = 1, stride = 0;
  };
  auto pixels = [&](bool images) -> std::optional<Run> {
    Run run;
    for (int d : {3, 2, 0}) {
      const int64_t size = d == 3 ? c.w : d == 2 ? c.h : images ? c.batch : 1;
      if (size == 1) continue;
      if (run.size > 1 && c.xStrides[d] != run.size * run.stride) return std::nullopt;
      if (run.size == 1) run.stride = c.xStrides[d];
      run.size *= size;
    }
    // One pixel: its stride is never used, and any that BLAS accepts serves.
    if (run.size == 1) run.stride = int64_t{c.cin} * c.xStrides[1];
    if (run.size > INT32_MAX) return std::nullopt;
    return run;
  };
  const std::optional<Run> image = pixels(false);
  if (!image) return std::nullopt;
  const int64_t channel = c.xStrides[1];
  VendorGemm g{.type = c.type, .k = c.cin, .tf32 = true};
  if (c.channelsLastResult) {
    // staged[image][pixel][cout] = sum_c x[image][c][pixel] * w[cout][c].
    g.a = c.x;
    g.b = c.weight;
    g.n = c.cout;
    g.bStrides = {0, 1, c.cin};
    if (const std::optional<Run> all = pixels(true)) {
      g.m = int(all->size);
      g.aStrides = {0, all->stride, channel};
    } else {
      g.batch = c.batch;
      g.m = int(image->size);
      g.aStrides = {c.xStrides[0], image->stride, channel};
    }
  } else {
    // staged[image][cout][pixel] = sum_c w[cout][c] * x[image][c][pixel].
    g.a = c.weight;
    g.b = c.x;
    g.batch = c.batch;
    g.m = c.cout;
    g.n = int(image->size);
    g.aStrides = {0, c.cin, 1};
    g.bStrides = {c.xStrides[0], channel, image->stride};
  }
  if (!blasOperand(g.m, g.k, g.aStrides[1], g.aStrides[2]) || !blasOperand(g.k, g.n, g.bStrides[1], g.bStrides[2]))
    return std::nullopt;
  return g;
}

ElemType vendorCallType(const VendorCall& call) {
  return std::visit([](const auto& c) { return c.type; }, call);
}

std::string describeVendorCall(const VendorCall& call) {
  if (const auto* g = std::get_if<VendorGemm>(&call))
    return fmt::format("cuBLAS gemm {}x{}x{} (batch {}, {}{})", g->m, g->n, g->k, g->batch, cudaTypeName(g->type),
                       g->tf32 ? ", tf32" : "");
  const auto& c = std::get<VendorConv>(call);
  return fmt::format("cuDNN conv {}x{} {}->{}{} on {}x{}x{} (stride {}, {}{})", c.kh, c.kw, c.cin, c.cout,
                     c.groups > 1 ? fmt::format(" in {} groups", c.groups) : "", c.batch, c.h, c.w, c.strideH,
                     cudaTypeName(c.type), c.channelsLastResult ? ", NHWC result" : "");
}

std::string vendorCallKey(const VendorCall& call) {
  if (const auto* g = std::get_if<VendorGemm>(&call))
    return fmt::format("gemm {} {} {} {} {} a {} {} b {} {}{}", cudaTypeName(g->type), g->batch, g->m, g->n, g->k,
                       g->aStrides, alignment(g->a), g->bStrides, alignment(g->b), g->tf32 ? " tf32" : "");
  const auto& c = std::get<VendorConv>(call);
  return fmt::format("conv {} n{} c{} {}x{} k{} {}x{} o{}x{} p{},{} s{},{} d{},{} g{} x {} {} w {}{}", cudaTypeName(c.type),
                     c.batch, c.cin, c.h, c.w, c.cout, c.kh, c.kw, c.oh, c.ow, c.padH, c.padW, c.strideH, c.strideW,
                     c.dilationH, c.dilationW, c.groups, c.xStrides, alignment(c.x), alignment(c.weight),
                     c.channelsLastResult ? " y nhwc" : "");
}

} // namespace tcx
