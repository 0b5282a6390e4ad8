#include "cost/CostModel.h"

#include "ops/OpDef.h"
#include "plan/StridedView.h"

#include <algorithm>
#include <cmath>

namespace tcx {

namespace {

// Elements of the virtual index space on which a piece holds, counting each
// constraint that is affine in one variable exactly and others as halving.
double pieceElements(const MappingPiece& p, const Shape& shape) {
  std::vector<double> count(shape.begin(), shape.end());
  std::vector<std::pair<int64_t, int64_t>> range(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) range[d] = {0, shape[d]};
  double factor = 1;
  for (const IndexConstraint& c : p.where) {
    int var = -1, vars = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      if (c.expr.mentions(static_cast<int>(d))) {
        var = static_cast<int>(d);
        ++vars;
      }
    int64_t a = var >= 0 ? c.expr.coefficientOf(var) : 0;
    if (vars == 1 && a > 0 && c.expr.isAffine()) {
      int64_t lo = (c.lo - c.expr.constant() + a - 1) / a, hi = (c.hi - c.expr.constant() + a - 1) / a;
      range[var] = {std::max(range[var].first, lo), std::min(range[var].second, hi)};
    } else {
      factor *= 0.5;
    }
  }
  double n = factor;
  for (const auto& [lo, hi] : range) n *= static_cast<double>(std::max<int64_t>(hi - lo, 0));
  return n;
}

// A chain can end in a dimension split by div/mod, which x_d enters through
// atoms such as floor(x_d / k) and x_d mod k (a Reshape that splits it, then
// a Transpose that moves its outer part away, as a multi-head projection's
// output written into q, k and v): stretches of consecutive x_d are then
// consecutive addresses `stride` apart. Returns the shortest whole stretch
// among the first 4096 x_d (the other variables at 0), or 1 where no atom
// holds x_d or one mixes it with another variable.
int64_t modularRun(const IndexExpr& offset, int d, int rank, int64_t extent, int64_t stride) {
  bool split = false;
  for (const IndexExpr::Term& t : offset.terms())
    if (t.atom->kind != IndexExpr::Atom::Kind::Var && t.atom->operand.mentions(d)) {
      split = true;
      for (int other = 0; other < rank; ++other)
        if (other != d && t.atom->operand.mentions(other)) return 1;
    }
  if (!split) return 1; // a plain stride other than `stride`: no two neighbours are adjacent

  std::vector<int64_t> x(static_cast<size_t>(rank), 0);
  const int64_t limit = std::min<int64_t>(extent, 4096);
  int64_t shortest = limit, length = 1, previous = offset.evaluate(x.data());
  for (int64_t i = 1; i < limit; ++i) {
    x[static_cast<size_t>(d)] = i;
    const int64_t next = offset.evaluate(x.data());
    if (next - previous == stride) {
      ++length;
    } else {
      shortest = std::min(shortest, length);
      length = 1;
    }
    previous = next;
  }
  return shortest == limit ? length : shortest; // the last stretch may be cut short by the limit
}

// The longest run of consecutive addresses a kernel can read in some order
// of the piece's dimensions: tiled kernels (GEMM, attention, convolution)
// load along whichever dimension is contiguous, so unlike VTC's Definition 4
// (which fixes the logical order) any chain of strides 1, n1, n1*n2, ...
// counts. It may end in a dimension split by div/mod (modularRun).
int64_t bestRunElements(const MappingPiece& p, const Shape& shape) {
  IndexExpr bias = p.offset.nonAffinePart();
  int64_t run = 1;
  std::vector<bool> used(shape.size(), false);
  while (true) {
    int next = -1;
    for (size_t d = 0; d < shape.size(); ++d)
      if (!used[d] && shape[d] > 1 && p.offset.coefficientOf(static_cast<int>(d)) == run && !bias.mentions(static_cast<int>(d)))
        next = static_cast<int>(d);
    if (next < 0) {
      int64_t split = 1;
      for (size_t d = 0; d < shape.size(); ++d)
        if (!used[d] && shape[d] > 1)
          split = std::max(split, modularRun(p.offset, static_cast<int>(d), static_cast<int>(shape.size()), shape[d], run));
      return run * split;
    }
    used[next] = true;
    run *= shape[next];
  }
}

// A contraction with an operand that is no strided view (a window partition
// folded into its mapping function, say) cannot take the library's
// tensor-core kernels: codegen's element form computes one output per
// thread, each reading its operands through the cache with the mapping's
// index arithmetic. Swin-T's window-partitioned q/k/v projections ran so at
// 1.2 to 5.4 TFLOP/s on an H100 (docs/benchmarks.md), about 1/24 of its fp32
// SIMT peak.
constexpr double kElementContractionEfficiency = 1.0 / 24;

// Whether every operand of `node` that the kernel reads from memory is a
// strided view, as the library kernels need.
bool operandsAreStridedViews(const PlanKernel& kernel, const Node& node) {
  for (const Value* v : node.inputs())
    for (const TensorAccess& a : kernel.inputs)
      if (v && a.value == v && !hasStridedView(a)) return false;
  return true;
}

double sectorPenalty(double runBytes, int sectorBytes) {
  if (runBytes >= 4.0 * sectorBytes) return 1.0;
  return std::ceil(runBytes / sectorBytes) * sectorBytes / runBytes;
}

} // namespace

double CostModel::accessBytes(const TensorAccess& access) const {
  const Shape& shape = access.mapping.virtualShape();
  const size_t es = dtypeSize(access.value->type().dtype);
  double bytes = 0;
  // A piecewise mapping makes every access pick its piece first (a branch
  // per element or block); one piece is a plain strided access.
  const double pieceOverhead = 1.0 + 0.05 * static_cast<double>(access.mapping.pieces().size() - 1);
  for (const MappingPiece& p : access.mapping.pieces()) {
    if (p.source == MappingPiece::kFill) continue;
    // Repeated reads of one element (a broadcast view) come from cache:
    // DRAM sees at most the source buffer once.
    double elements = pieceElements(p, shape);
    double sourceElements = static_cast<double>(numElements(access.mapping.sourceShapes()[p.source]));
    double unique = std::min(elements, sourceElements);
    double run = static_cast<double>(std::min<int64_t>(bestRunElements(p, shape), static_cast<int64_t>(elements)));
    bytes += unique * static_cast<double>(es) * sectorPenalty(run * static_cast<double>(es), preset_.sectorBytes) * pieceOverhead;
  }
  return bytes;
}

double CostModel::flopSeconds(const PlanKernel& kernel, double* flops) const {
  double tensorFlops = 0, simtFlops = 0, elementContractionFlops = 0;
  DType dtype = DType::F32;
  for (const Node* n : kernel.fused->nodes) {
    const OpDef& op = n->op();
    if (!op.flops) continue; // moves data, or is folded away
    if (op.opClass == OpClass::Contraction && !operandsAreStridedViews(kernel, *n)) {
      elementContractionFlops += op.flops(*n);
    } else if (op.opClass == OpClass::Contraction) {
      tensorFlops += op.flops(*n);
      dtype = n->input(0)->type().dtype;
    } else {
      simtFlops += op.flops(*n);
    }
  }
  *flops = tensorFlops + simtFlops + elementContractionFlops;
  double peak = dtype == DType::F16 || dtype == DType::BF16 ? preset_.tensorFlops16
                : dtype == DType::F32                        ? preset_.tensorFlopsTf32
                                                             : preset_.simtFlops32 / 2;
  return tensorFlops / (peak * preset_.computeEfficiency) + simtFlops / preset_.simtFlops32 +
         elementContractionFlops / (preset_.simtFlops32 * kElementContractionEfficiency);
}

KernelEstimate CostModel::estimate(const PlanKernel& kernel) const {
  KernelEstimate e;
  if (kernel.kind == PlanKernel::Kind::CopyRegions) {
    for (size_t i = 0; i < kernel.outputs.size(); ++i) {
      e.bytes += accessBytes(kernel.copyFrom[i]);
      // The write covers the copied region only.
      TensorAccess written = kernel.outputs[i];
      double fraction = 0;
      for (const MappingPiece& p : kernel.copyFrom[i].mapping.pieces())
        fraction += pieceElements(p, kernel.copyFrom[i].mapping.virtualShape());
      double total = static_cast<double>(numElements(kernel.copyFrom[i].mapping.virtualShape()));
      e.bytes += accessBytes(written) * (total > 0 ? std::min(1.0, fraction / total) : 0);
    }
  } else {
    for (const TensorAccess& a : kernel.inputs) e.bytes += accessBytes(a);
    for (const TensorAccess& a : kernel.outputs) e.bytes += accessBytes(a);
  }
  double memory = e.bytes / (preset_.hbmBytesPerSecond * preset_.bandwidthEfficiency);
  double compute = kernel.kind == PlanKernel::Kind::CopyRegions ? 0 : flopSeconds(kernel, &e.flops);
  e.memoryBound = memory >= compute;
  e.seconds = std::max(memory, compute) + preset_.launchSeconds;
  return e;
}

} // namespace tcx
