#include "exec/Compare.h"

#include "ops/OpDef.h"

#include <algorithm>
#include <fmt/format.h>
#include <cmath>
#include <limits>

namespace tcx {

double scaledError(const Tensor& got, const Tensor& ref) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  if (got.type() != ref.type()) return kInfinity;
  double worst = 0, scale = 0;
  for (int64_t i = 0; i < ref.numElements(); ++i) {
    const double a = got.elementAsDouble(i), b = ref.elementAsDouble(i);
    if (std::isnan(b)) continue;
    if (std::isnan(a)) return kInfinity;
    if (!std::isinf(b)) scale = std::max(scale, std::fabs(b));
    if (a != b) worst = std::max(worst, std::fabs(a - b));
  }
  return worst == 0 ? 0 : worst / std::max(scale, std::numeric_limits<double>::min());
}

double gpuTolerance(DType dtype, bool tf32) {
  // f64 never runs on tensor cores.
  switch (dtype) {
  case DType::BF16: return 2e-2;
  case DType::F16: return 4e-3;
  case DType::F32: return tf32 ? 4e-3 : 1e-4;
  case DType::F64: return 1e-10;
  case DType::I64:
  case DType::I32:
  case DType::I8:
  case DType::U8:
  case DType::Bool: return 0;
  }
  return 0;
}

bool usesTf32(const Graph& graph) {
  for (const Node* node : graph.nodes()) {
    const FusionRole role = node->op().fusionRole;
    if (role == FusionRole::Convolution || role == FusionRole::TransposedConvolution) return true;
  }
  return false;
}

std::string GpuCheck::describe() const {
  if (passed) return fmt::format("check passed: max error {:.3g} of the output's scale", error);
  return fmt::format("check FAILED: output '{}' is off by {:.3g} of its scale, over the tolerance {:.3g}", output, error,
                     tolerance);
}

GpuCheck checkGpuOutputs(const Graph& graph, const std::vector<Tensor>& got, const std::vector<Tensor>& ref) {
  GpuCheck check;
  const bool tf32 = usesTf32(graph);
  for (size_t i = 0; i < ref.size() && check.passed; ++i) {
    const double error = i < got.size() ? scaledError(got[i], ref[i]) : std::numeric_limits<double>::infinity();
    const double tolerance = gpuTolerance(ref[i].dtype(), tf32);
    if (error > tolerance || error >= check.error)
      check = {.passed = error <= tolerance, .error = error, .tolerance = tolerance, .output = graph.outputs()[i]->name()};
  }
  return check;
}

} // namespace tcx
