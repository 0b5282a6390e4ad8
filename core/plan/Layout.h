#pragma once
// A physical tensor's layout (VTensor's PTensor): the order its buffer
// stores the tensor's dimensions in, outermost first. Kernels never see it:
// lowering composes it into every access of the tensor as one more mapping
// function (logical index -> the buffer's index), so a producer's stores
// and its consumers' loads agree and no transform kernel is needed where
// VTensor would insert one.

#include "index/MappingFunction.h"

#include <string>
#include <vector>

namespace tcx {

// How plan lowering picks layouts (VTensor's layout resolution, plan/LayoutChoice.h).
enum class LayoutPolicy {
  AsExported,   // every tensor as the model states it (NCHW for an ONNX convolution)
  ChannelsLast, // 4-D tensors that convolutions read or write store channels innermost
  Auto,         // ChannelsLast where the model's convolutions favour it (plan/LayoutChoice.cpp), else AsExported
};
const char* layoutPolicyName(LayoutPolicy policy);

struct Layout {
  std::vector<int> order; // buffer dimension i holds logical dimension order[i]; empty: as stated

  bool isIdentity() const;
  // NCHW stored as NHWC: (0, 2, 3, 1), for any rank >= 3.
  static Layout channelsLast(int rank);
  // "NHWC" for a 4-D channels-last layout, "as stated" for the identity, else the order ("0,2,3,1").
  std::string toString() const;
  bool operator==(const Layout&) const = default;
};

// The buffer's shape: `shape` with its dimensions in `layout`'s order.
Shape storedShape(const Shape& shape, const Layout& layout);

// Logical index -> the buffer's index (a transpose): what lowering composes
// into each access of a tensor stored in `layout`.
MappingFunction storageMapping(const Shape& shape, const Layout& layout);

} // namespace tcx
