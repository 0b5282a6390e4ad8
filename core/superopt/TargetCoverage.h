#pragma once
// How much of the reference a kernel-graph prefix has computed: how many
// pieces of the target's normal form (ExprNormalForm.h: its summands'
// products, their factors, and the same of a denominator), sum sizes
// ignored, occur in the normal forms of a set of tensors.
//
// The search orders the kernel graphs that one partition's block graphs
// close into by the coverage of their new outputs, most first. Depth first
// under a time limit, the one partition holding FlashDecoding's split of the
// keys closes into hundreds of kernel graphs, each opening a space that
// takes seconds to exhaust; the block storing the partial numerator and
// denominator (all four pieces of attention's form) is then extended before
// one storing raw scores or a sum of V. The order changes what a limited
// search reaches first, never what an exhaustive one finds.

#include "superopt/AbstractExpr.h"

#include <compare>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_set>

namespace tcx::superopt {

// Compared pieces first; among equals, the one whose summands reduce more
// elements (a block's partial sums over a tile before one that sums
// nothing), since abstract expressions forget which index a sum runs over
// and cannot tell the two apart otherwise.
struct Coverage {
  int pieces = 0;
  int64_t reduced = 0; // the sum sizes of the summands that are pieces of the target
  auto operator<=>(const Coverage&) const = default;
};

class TargetCoverage {
public:
  explicit TargetCoverage(const ExprRef& target);
  Coverage of(std::span<const ExprRef> exprs) const;
  // Whether every summand of `e`'s normal form, and of its denominators, is
  // a product the target's normal form sums, sum sizes ignored: a partial or
  // whole result of the target, not just a term pruning lets through.
  bool holdsTargetSummands(const ExprRef& e) const;

private:
  std::unordered_set<std::string> pieces_;
};

} // namespace tcx::superopt
