#pragma once
// Abstract expressions of test programs' tensors, shared by the superopt tests.
#include "superopt/AbstractExpr.h"

namespace tcx::superopt::exprs {

inline const ExprRef& exprOf(const std::vector<std::vector<ExprRef>>& exprs, mugraph::TensorRef t) {
  return exprs.at(static_cast<size_t>(t.op)).at(static_cast<size_t>(t.output));
}

} // namespace tcx::superopt::exprs
