// Normal forms modulo Table 2's A_eq, and the closure of a target's
// subexpressions built on them: what they identify, what they keep apart,
// and the pruning queries Z3 left undecided that they prove.
#include "superopt/ExprNormalForm.h"
#include "superopt/SubexprChecker.h"
#include "superopt/SubexprClosure.h"

#include <catch2/catch.hpp>

using namespace tcx::superopt;

namespace {

using E = AbstractExpr;

std::string key(const ExprRef& e) { return (*normalForm(e))->key(); }

const ExprRef x = E::input("x"), y = E::input("y"), z = E::input("z"), w = E::input("w");

} // namespace

TEST_CASE("every equivalence axiom of Table 2 gives equal normal forms", "[superopt][subexpr]") {
  std::vector<std::pair<ExprRef, ExprRef>> axioms = {
      {E::add(x, y), E::add(y, x)},
      {E::mul(x, y), E::mul(y, x)},
      {E::add(x, E::add(y, z)), E::add(E::add(x, y), z)},
      {E::mul(x, E::mul(y, z)), E::mul(E::mul(x, y), z)},
      {E::add(E::mul(x, z), E::mul(y, z)), E::mul(E::add(x, y), z)},
      {E::add(E::div(x, z), E::div(y, z)), E::div(E::add(x, y), z)},
      {E::mul(x, E::div(y, z)), E::div(E::mul(x, y), z)},
      {E::div(E::div(x, y), z), E::div(x, E::mul(y, z))},
      {E::sum(4, E::sum(8, x)), E::sum(32, x)},
      {E::sum(4, E::add(x, y)), E::add(E::sum(4, x), E::sum(4, y))},
      {E::sum(4, E::mul(x, y)), E::mul(E::sum(4, x), y)},
      {E::sum(4, E::div(x, y)), E::div(E::sum(4, x), y)},
  };
  for (const auto& [lhs, rhs] : axioms) {
    INFO(lhs->str() << " = " << rhs->str());
    CHECK(key(lhs) == key(rhs));
  }
  // Applied inside exp and in a denominator too.
  CHECK(key(E::exp(E::sum(4, E::mul(x, y)))) == key(E::exp(E::mul(y, E::sum(4, x)))));
  CHECK(key(E::div(w, E::add(x, y))) == key(E::div(w, E::add(y, x))));
}

TEST_CASE("normal forms keep apart what no axiom relates", "[superopt][subexpr]") {
  CHECK(key(E::add(x, x)) != key(x));                                    // no x + x = 2x
  CHECK(key(E::mul(x, x)) != key(x));
  CHECK(key(E::div(x, E::add(y, z))) != key(E::add(E::div(x, y), E::div(x, z))));
  CHECK(key(E::exp(E::add(x, y))) != key(E::mul(E::exp(x), E::exp(y))));
  CHECK(key(E::sum(4, x)) != key(E::sum(8, x)));
  CHECK(key(E::div(E::mul(x, y), y)) != key(x));                         // no cancellation
  CHECK(key(E::sum(4, E::exp(x))) != key(E::exp(E::sum(4, x))));          // sums stay outside exp
}

TEST_CASE("the closure proves LoRA's tiled one-kernel form, which Z3 left undecided", "[superopt][subexpr]") {
  ExprRef a = E::input("lora_a"), b = E::input("lora_b");
  // O = X W + (X A) B at 4096 x 4096 with rank 16.
  ExprRef target = E::add(E::sum(4096, E::mul(x, w)), E::sum(16, E::mul(E::sum(4096, E::mul(x, a)), b)));
  SubexprClosure closure(target);
  CHECK_FALSE(closure.truncated());
  // One for-loop iteration of a 16-wide tile: X̄ W̄ + (X̄ Ā) B̄.
  ExprRef tile = E::add(E::sum(16, E::mul(x, w)), E::sum(16, E::mul(E::sum(16, E::mul(x, a)), b)));
  CHECK(closure.proves(tile));
  SolverOptions z3Alone;
  z3Alone.closure = false;
  SubexprChecker z3(target, z3Alone);
  CHECK_FALSE(z3.isSubexpr(tile)); // undecided within its limit, so pruned
  CHECK(z3.stats().unknown == 1);
  CHECK(closure.proves(E::sum(16, E::mul(x, a))));
  CHECK(closure.proves(E::mul(E::sum(4096, E::mul(a, x)), b)));
  // Sizes bound: a sum over more of the reduction than there is is not part.
  CHECK_FALSE(closure.proves(E::sum(8192, E::mul(x, w))));
  // Nor are tiles that do not scale together: W's sum shortened, A's not.
  CHECK_FALSE(closure.proves(E::add(E::sum(16, E::mul(x, w)), E::sum(16, E::mul(E::sum(4096, E::mul(x, a)), b)))));
  CHECK_FALSE(closure.proves(E::add(x, x)));
  CHECK_FALSE(closure.proves(E::mul(w, b)));
}

TEST_CASE("the closure proves the paper's X + Y and RMSNorm's pieces", "[superopt][subexpr]") {
  SubexprClosure paper(E::add(E::sum(64, E::mul(x, z)), E::sum(64, E::mul(y, z))));
  CHECK(paper.proves(E::add(x, y)));
  CHECK(paper.proves(E::sum(64, E::mul(E::add(x, y), z))));
  CHECK_FALSE(paper.proves(E::sum(64, E::mul(x, y))));

  // (x / sqrt(Σx²/n + ε)) g W, summed over the hidden dim.
  ExprRef g = E::input("g"), n = E::constant(4096), eps = E::constant(1e-6);
  ExprRef rms = E::sqrt(E::add(E::div(E::sum(4096, E::mul(x, x)), n), eps));
  SubexprClosure rmsnorm(E::sum(4096, E::mul(E::mul(E::div(x, rms), g), w)));
  CHECK(rmsnorm.proves(E::sum(64, E::mul(x, x))));              // a tile of the sum of squares
  CHECK(rmsnorm.proves(E::sum(64, E::mul(E::mul(x, g), w))));   // the matmul before the division
  CHECK(rmsnorm.proves(E::div(E::sum(4096, E::mul(E::mul(x, g), w)), rms))); // divided after it
  CHECK_FALSE(rmsnorm.proves(E::div(x, E::sum(4096, E::mul(x, x)))));

  // x / (y z) = (x / y) / z: part of a denominator.
  SubexprClosure quotient(E::div(x, E::mul(y, z)));
  CHECK(quotient.proves(E::div(x, y)));
  CHECK(quotient.proves(E::div(x, z)));
  CHECK_FALSE(quotient.proves(E::div(y, z)));
}
