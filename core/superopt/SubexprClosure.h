#pragma once
// Every abstract subexpression of one target, precomputed as normal forms
// (ExprNormalForm.h), so that a pruning query is answered by normalising the
// query and looking it up.
//
// subexpr(E, T) holds when T is equal, under A_eq, to a term with E as an
// operand (A_sub), or transitively so. In normal form the operands of the
// terms equal to T are:
//   - any part of its summands (T = add(X, Y));
//   - a product of factors common to every summand, and what is left
//     (T = mul(X, Y));
//   - the numerator and the denominator of summands sharing one
//     (T = div(X, Y)), and a split of a one-summand denominator
//     (x / (y z) = div(div(x, y), z));
//   - exp's and sqrt's argument;
//   - T with its sums shortened: sum(i, X) for X = T / sum(k) and i <= k
//     (the sum axiom, and the lemma that a partial sum is part of the whole).
// The last rule makes sizes a bound rather than part of the key: each form
// is stored once with its sizes divided by their common divisor, with the
// largest common sum size k for which sum(k, form) is a subexpression.
//
// The closure proves, it never refutes: it leaves out factorisations into
// two sums ((a + b)(c + d)), which the solver may still find. A target whose
// closure outgrows `maxForms` keeps what was found, still sound.

#include "superopt/AbstractExpr.h"
#include "superopt/ExprNormalForm.h"

#include <cstddef>
#include <string>
#include <unordered_map>

namespace tcx::superopt {

class SubexprClosure {
public:
  explicit SubexprClosure(const ExprRef& target, size_t maxForms = 100'000);
  // True only if A_eq ∪ A_sub ⊨ subexpr(e, target).
  bool proves(const ExprRef& e) const;
  size_t size() const { return scale_.size(); }
  bool truncated() const { return truncated_; }

private:
  void add(const NormalFormRef& form, int64_t scale);
  void expand(const NormalForm& form, int64_t scale);

  // Key of a form with sizes divided by their common divisor → the largest
  // common sum size it is a subexpression under.
  std::unordered_map<std::string, int64_t> scale_;
  std::vector<std::pair<NormalFormRef, int64_t>> work_;
  size_t maxForms_;
  bool truncated_ = false;
};

} // namespace tcx::superopt
