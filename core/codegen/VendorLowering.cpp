#include "codegen/VendorLowering.h"

#include "codegen/AccessCode.h"
#include "codegen/CudaCodegen.h"
#include "codegen/KernelText.h"
#include "ops/OpDef.h"
#include "ops/nn/Window.h"
#include "plan/StridedView.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <string>

namespace tcx {

namespace {

bool fitsInt(int64_t v) { return v >= 0 && v <= std::numeric_limits<int>::max(); }

// The operand's first element as a binding, if no stride runs backwards.
std::optional<BufferBinding> binding(const StridedView& view, int elementBytes) {
  if (view.offset < 0 || view.groupedDim >= 0) return std::nullopt;
  for (int64_t s : view.strides)
    if (s < 0) return std::nullopt;
  return BufferBinding{view.buffer, view.offset * elementBytes};
}

// Records `call`, whose result has dims (batch, m, n) row-major, or (batch,
// n, m) with `mInnermost`, and the kernel that runs the plan kernel's
// epilogue functor over it in that order.
void offer(ValueCode& values, VendorCall call, int64_t batch, int64_t m, int64_t n, bool mInnermost = false,
           std::optional<GeneratedLaunch> prelude = {}) {
  ModuleBuilder& module = values.module();
  const std::string prefix = values.prefix(), entry = prefix + "vendor_epilogue";
  const int64_t elements = batch * m * n;
  const ElemType type = vendorCallType(call);
  const int staging = module.vendorStaging(elements * elemBytes(type));
  // 32-bit division by a constant costs several times less than 64-bit.
  const char* u = elements <= std::numeric_limits<unsigned>::max() ? "unsigned" : "tcx::u64";
  // i = (batch * rows + row) * inner + innermost: (m, n) with n innermost,
  // or the two the other way round with mInnermost.
  const int64_t inner = mInnermost ? m : n, rows = mInnermost ? n : m;
  const std::string mIndex = (mInnermost ? "u % " : "row % ") + std::to_string(m);
  const std::string nIndex = (mInnermost ? "row % " : "u % ") + std::to_string(n);
  // Each thread takes `perThread` elements a block's width apart, so that a
  // warp's loads and stores stay coalesced and the elements' loads are in
  // flight together (tcx/epilogue.cuh).
  const unsigned perThread = values.elementsPerThread(elements);
  const int64_t perBlock = int64_t{kKernelThreads} * perThread;
  module.append(fmt::format(
      "{open}"
      "  const {t}* staged = static_cast<const {t}*>({staging});\n"
      "  const {p}Epilogue epilogue{{b}};\n"
      "  for (tcx::i64 base = blockIdx.x * {B}LL + threadIdx.x; base < {count}LL; base += gridDim.x * {B}LL)\n"
      "    tcx::runEpilogue<{E}, {E}>(epilogue, [&](int j) {{\n"
      "      const tcx::i64 i = base + j * {T}LL;\n"
      "      const {u} u = {u}(i), row = u / {inner};\n"
      "      const bool inside = i < {count}LL;\n"
      "      return tcx::EpilogueAt{{int(row / {rows}), int({mi}), int({ni}), inside ? tcx::to_float(staged[i]) : 0.0f, "
      "inside}};\n"
      "    }});\n}}\n\n",
      fmt::arg("open", kernelOpening(fmt::to_string(kKernelThreads), entry)),
      fmt::arg("t", cudaTypeName(type)), fmt::arg("staging", ModuleBuilder::bufferRef(staging)),
      fmt::arg("count", elements), fmt::arg("u", u), fmt::arg("inner", inner), fmt::arg("rows", rows),
      fmt::arg("mi", mIndex), fmt::arg("ni", nIndex), fmt::arg("p", prefix), fmt::arg("T", kKernelThreads),
      fmt::arg("B", perBlock), fmt::arg("E", perThread)));
  const std::string what = describeVendorCall(call) + ", then its epilogue";
  module.addVendorAlternative(values.planKernelIndex(), std::move(call), staging, entry, elements, perThread, what,
                              std::move(prelude));
}

} // namespace

void offerVendorGemm(ValueCode& values, const GemmProblem& problem, const StridedView& a, const StridedView& b) {
  const int elem = elemBytes(problem.type);
  std::optional<BufferBinding> aAt = binding(a, elem), bAt = binding(b, elem);
  if (!aAt || !bAt) return;
  VendorGemm gemm{.type = problem.type, .batch = problem.batch, .m = problem.m, .n = problem.n,
                  .k = problem.k, .a = *aAt, .b = *bAt};
  for (int d = 0; d < 3; ++d) {
    gemm.aStrides[d] = problem.aStrides[d];
    gemm.bStrides[d] = problem.bStrides[d];
    if (gemm.aStrides[d] < 0 || gemm.bStrides[d] < 0) return;
  }
  if (!blasOperand(gemm.m, gemm.k, gemm.aStrides[1], gemm.aStrides[2]) ||
      !blasOperand(gemm.k, gemm.n, gemm.bStrides[1], gemm.bStrides[2]))
    return;
  offer(values, gemm, gemm.batch, gemm.m, gemm.n);
}

void offerVendorConv(ValueCode& values, const Node& conv, const StridedView& x, const StridedView& w, ElemType type,
                     std::optional<GeneratedLaunch> prelude) {
  const Shape &xs = conv.input(0)->type().shape, &ws = conv.input(1)->type().shape, &ys = conv.output(0)->type().shape;
  const int elem = elemBytes(type);
  std::optional<BufferBinding> xAt = binding(x, elem), wAt = binding(w, elem);
  if (!xAt || !wAt || xs.size() != 4 || ws.size() != 4 || ys.size() != 4) return;
  // cuDNN takes packed filters only.
  if (!hasPackedStrides(w, ws)) return;
  const nn::WindowAttrs window = nn::readWindowAttrs(conv.attrs(), 2, {ws[2], ws[3]});
  const nn::WindowPlacement placement = nn::placeWindow(window, {xs[2], xs[3]});
  VendorConv c{.type = type, .x = *xAt, .weight = *wAt};
  for (int64_t v : {xs[0], xs[1], xs[2], xs[3], ys[1], ys[2], ys[3], ws[2], ws[3]})
    if (!fitsInt(v)) return;
  c.batch = int(xs[0]), c.cin = int(xs[1]), c.h = int(xs[2]), c.w = int(xs[3]);
  c.cout = int(ys[1]), c.oh = int(ys[2]), c.ow = int(ys[3]), c.kh = int(ws[2]), c.kw = int(ws[3]);
  c.groups = int(conv.attrs().getInt("group", 1));
  c.padH = int(placement.padsBegin[0]), c.padW = int(placement.padsBegin[1]);
  c.strideH = int(window.strides[0]), c.strideW = int(window.strides[1]);
  c.dilationH = int(window.dilations[0]), c.dilationW = int(window.dilations[1]);
  // Symmetric padding gives the same output where it gives the same extent:
  // the taps an extra end row would add are never reached.
  auto extent = [](int in, int pad, int k, int stride, int dilation) {
    return (in + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  };
  if (extent(c.h, c.padH, c.kh, c.strideH, c.dilationH) != c.oh ||
      extent(c.w, c.padW, c.kw, c.strideW, c.dilationW) != c.ow)
    return;
  // A size-1 dimension's stride is never used; cuDNN wants it positive.
  for (int d = 3, inner = 1; d >= 0; inner *= int(xs[d--])) c.xStrides[d] = xs[d] == 1 ? inner : x.strides[d];
  for (int64_t s : c.xStrides)
    if (s <= 0 || !fitsInt(s)) return;
  // Staged as the kernel stores: channels innermost where every output of
  // the kernel is stored channels-last (plan/Layout.h).
  const PlanKernel& kernel = values.kernel();
  c.channelsLastResult = !kernel.outputs.empty() && std::ranges::all_of(kernel.outputs, [&](const TensorAccess& out) {
    return storeWalk(out, values.plan()) == Layout::channelsLast(4);
  });
  offer(values, c, c.batch, c.cout, int64_t(c.oh) * c.ow, c.channelsLastResult, std::move(prelude));
}

} // namespace tcx
