#include "ops/nn/Pooling.h"

#include "ir/Attribute.h"
#include "ir/Graph.h"

namespace tcx::nn {

std::vector<AttrSpec> poolAttrSpecs() {
  std::vector<AttrSpec> specs = windowAttrSpecs();
  specs.push_back({"ceil_mode", AttrKind::Int});
  return specs;
}

double poolFlops(const Node& node) {
  double taps = 1;
  for (int64_t k : node.attrs().getInts("kernel_shape")) taps *= static_cast<double>(k);
  return taps * static_cast<double>(node.output(0)->type().numElements());
}

PoolPlan planPool(const Shape& x, const AttrMap& attrs) {
  const std::vector<int64_t> inSize = spatialDims(x, "X");
  const WindowAttrs w = readWindowAttrs(attrs, static_cast<int64_t>(inSize.size()));
  const WindowPlacement place = placeWindow(w, inSize, attrs.getInt("ceil_mode", 0) != 0);
  PoolPlan p;
  static_cast<WindowGeometry&>(p) = windowGeometry(w, inSize, place.outputSize, place.padsBegin);
  p.planes = x[0] * x[1];
  p.padsEnd = toDims3(place.padsEnd, 0);
  p.output = {x[0], x[1]};
  p.output.insert(p.output.end(), place.outputSize.begin(), place.outputSize.end());
  return p;
}

} // namespace tcx::nn
