#include "ops/Flops.h"

#include "ir/Graph.h"

namespace tcx {

FlopsFn flopsPerOutputElement(double perElement) {
  return [perElement](const Node& node) {
    return perElement * static_cast<double>(node.output(0)->type().numElements());
  };
}

FlopsFn flopsPerInputElement(double perElement) {
  return [perElement](const Node& node) {
    return perElement * static_cast<double>(node.input(0)->type().numElements());
  };
}

} // namespace tcx
