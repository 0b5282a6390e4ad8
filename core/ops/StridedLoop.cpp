#include "ops/StridedLoop.h"

namespace tcx {

std::vector<int64_t> broadcastStrides(const Shape& in, const Shape& out) {
  std::vector<int64_t> strides(out.size(), 0);
  std::vector<int64_t> inStrides = contiguousStrides(in);
  size_t offset = out.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i)
    strides[offset + i] = in[i] == 1 ? 0 : inStrides[i];
  return strides;
}

} // namespace tcx
