#include "exec/Compare.h"

#include <algorithm>
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

} // namespace tcx
