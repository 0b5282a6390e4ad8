#include "ops/nn/Pooling.h"

#include "ir/Attribute.h"

namespace tcx::nn {

std::vector<AttrSpec> poolAttrSpecs() {
  std::vector<AttrSpec> specs = windowAttrSpecs();
  specs.push_back({"ceil_mode", AttrKind::Int});
  return specs;
}

PoolPlan planPool(const Shape& x, const AttrMap& attrs) {
  const std::vector<int64_t> inSize = spatialDims(x, "X");
  const WindowAttrs w = readWindowAttrs(attrs, static_cast<int64_t>(inSize.size()));
  const WindowPlacement place = placeWindow(w, inSize, attrs.getInt("ceil_mode", 0) != 0);
  PoolPlan p;
  p.planes = x[0] * x[1];
  p.inputSize = toDims3(inSize, 1);
  p.outputSize = toDims3(place.outputSize, 1);
  p.kernel = toDims3(w.kernel, 1);
  p.strides = toDims3(w.strides, 1);
  p.dilations = toDims3(w.dilations, 1);
  p.padsBegin = toDims3(place.padsBegin, 0);
  p.padsEnd = toDims3(place.padsEnd, 0);
  p.output = {x[0], x[1]};
  p.output.insert(p.output.end(), place.outputSize.begin(), place.outputSize.end());
  return p;
}

} // namespace tcx::nn
