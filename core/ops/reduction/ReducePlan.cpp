#include "ops/reduction/ReducePlan.h"

#include "ops/reduction/Common.h"

#include <utility>

namespace tcx::reduction {

AxisMask reduceAxesMask(const Tensor* axes, const AttrMap& attrs, int64_t rank) {
  std::vector<int64_t> list;
  if (axes) {
    TCX_CHECK(isInteger(axes->dtype()) && axes->rank() <= 1, ErrorKind::InvalidModel,
              "axes must be a 1-D integer tensor, not {}", axes->type().toString());
    list = axes->toInt64Vector();
  }
  if (list.empty()) return AxisMask(rank, attrs.getInt("noop_with_empty_axes", 0) == 0);
  AxisMask mask(rank, false);
  for (int64_t axis : list) {
    int64_t d = checkedAxis(axis, rank);
    TCX_CHECK(!mask[d], ErrorKind::ShapeInference, "axis {} appears more than once in axes", axis);
    mask[d] = true;
  }
  return mask;
}

Shape reducedShape(const Shape& in, const AxisMask& mask, bool keepdims) {
  Shape out;
  for (size_t d = 0; d < in.size(); ++d) {
    if (!mask[d])
      out.push_back(in[d]);
    else if (keepdims)
      out.push_back(1);
  }
  return out;
}

ReducePlan::ReducePlan(const Shape& in, const AxisMask& mask) {
  std::vector<std::pair<int64_t, bool>> blocks; // (size, folded), outermost first
  for (size_t d = 0; d < in.size(); ++d) {
    (mask[d] ? foldedCount : outputCount) *= in[d];
    if (in[d] == 1) continue;
    if (!blocks.empty() && blocks.back().second == mask[d])
      blocks.back().first *= in[d];
    else
      blocks.emplace_back(in[d], mask[d]);
  }
  if (blocks.empty()) return;
  std::tie(rowLength, rowFolded) = blocks.back();
  blocks.pop_back();
  int64_t stride = rowFolded ? 1 : rowLength;
  outer.resize(blocks.size());
  outerOutputStrides.resize(blocks.size());
  for (size_t b = blocks.size(); b-- > 0;) {
    outer[b] = blocks[b].first;
    outerOutputStrides[b] = blocks[b].second ? 0 : stride;
    if (!blocks[b].second) stride *= blocks[b].first;
  }
}

} // namespace tcx::reduction
