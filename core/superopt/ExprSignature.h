#pragma once
// Cheap, sound refutations of subexpr(E, target), asked before the solver.
//
// Z3 proves subexpressions in milliseconds but almost never refutes one: a
// false query runs to its resource limit. Yet most prefixes the search
// builds are refuted by properties no axiom of Table 2 changes:
//   - the leaves (inputs, constants) and function symbols a term contains,
//     and how deeply its exponentials nest;
//   - which pairs of leaves meet across a product or a quotient
//     (distributivity and the div/mul associativities move factors around
//     but keep them multiplied, counting a denominator as a factor);
//   - zones: no axiom moves a term into or out of an exponential's argument.
//     A subexpression therefore lies within one zone of the target (outside
//     every exp, or inside one exp's argument): the leaves it holds outside
//     its own exps must occur directly in that zone, and each of its exps
//     must have the leaves of an exp directly in that zone.
// A term failing any of these is not a subexpression; one passing all goes
// to the solver.

#include "superopt/AbstractExpr.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tcx::superopt {

class ExprSignature {
public:
  explicit ExprSignature(const ExprRef& target);
  // False only if `e` is certainly not a subexpression of the target.
  bool admits(const ExprRef& e) const;

  using Leaves = std::set<std::string>;
  struct Zone {
    Leaves leaves;             // occurring outside the zone's nested exps
    std::vector<Leaves> exps;  // the leaves of each exp directly in the zone
  };
  struct Summary {
    Leaves leaves;
    std::set<int> symbols;
    std::set<std::pair<std::string, std::string>> products;
    int expDepth = 0;
    std::vector<Zone> zones; // zones[0] is the root's
  };

private:
  Summary target_;
};

} // namespace tcx::superopt
