#pragma once
// Normal forms of abstract expressions modulo Mirage's equivalence axioms
// A_eq (Table 2): two terms the axioms make equal get the same normal form.
//
// The axioms let products distribute over sums, let a sum over a product
// attach to any factor (sum(i, x y) = sum(i, x) y), merge nested sums
// (sum(i, sum(j, x)) = sum(i j, x)) and pull divisions outward
// (x (y / z) = (x y) / z, (x / y) / z = x / (y z), x / z + y / z = (x + y) / z).
// Applied left to right they flatten every term into a multiset of summands,
//
//   Σ  sum(size, f1 · f2 · ... · fm) / denominator,
//
// where the factors f are atoms no axiom of A_eq looks into (inputs,
// constants, exp and sqrt of a normal form) and the denominator, if any, is
// itself a normal form. Summands are never merged (A_eq has no x + x = 2x),
// so the multiset keeps its multiplicities.
//
// The canonical key of a normal form is a string: equal keys, equal forms.

#include "superopt/AbstractExpr.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcx::superopt {

class NormalForm;
using NormalFormRef = std::shared_ptr<const NormalForm>;

// A factor: a leaf (argument null) or exp/sqrt of a normal form.
struct NfAtom {
  std::string key;
  NormalFormRef argument;
};

// One summand: sum(size, product of factors) / denominator.
struct NfTerm {
  int64_t size = 1;
  std::vector<NfAtom> factors;   // sorted by key, with repeats (x x is Square)
  NormalFormRef denominator;     // null: none
  std::string key() const;
};

class NormalForm {
public:
  explicit NormalForm(std::vector<NfTerm> terms); // sorts them
  const std::vector<NfTerm>& terms() const { return terms_; }
  const std::string& key() const { return key_; }
  // The greatest common divisor of the summands' sizes: the form is
  // sum(commonSize(), withSizesDividedBy(commonSize())).
  int64_t commonSize() const;
  NormalFormRef withSizesDividedBy(int64_t divisor) const;

private:
  std::vector<NfTerm> terms_;
  std::string key_;
};

// sum(size, product of `factors`): a form of one summand, no denominator.
NormalFormRef monomial(int64_t size, std::vector<NfAtom> factors);

// The normal form of `e`; nullopt when a sum size overflows 64 bits.
std::optional<NormalFormRef> normalForm(const ExprRef& e);

// Products and quotients of normal forms, as the axioms distribute them;
// nullopt on overflow as above.
std::optional<NormalFormRef> multiply(const NormalForm& a, const NormalForm& b);
std::optional<NormalFormRef> divide(const NormalForm& a, const NormalFormRef& b);

} // namespace tcx::superopt
