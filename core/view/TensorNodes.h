#pragma once
// Tensor nodes as the VTOG and points-to views draw them.

#include "view/DisplayGraph.h"

namespace tcx {
class Value;
}

namespace tcx::view {

// GraphInput, GraphOutput, Constant or Tensor.
NodeStyle tensorStyle(const Value& v);
// Labelled with name and type, referring to the Value.
DisplayNode tensorNode(const Value& v, NodeStyle style, const std::string& note = {});

} // namespace tcx::view
