#include "ir/TensorType.h"

namespace tcx {

std::string TensorType::toString() const { return std::string(dtypeName(dtype)) + shapeToString(shape); }

} // namespace tcx
