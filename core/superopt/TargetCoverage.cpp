#include "superopt/TargetCoverage.h"

#include "superopt/ExprNormalForm.h"

namespace tcx::superopt {

namespace {

// A summand's product of factors, its sum size left out.
std::string productKey(const NfTerm& t) {
  std::string product;
  for (const NfAtom& a : t.factors) product += a.key + "*";
  return product;
}

// The pieces of a normal form that a later operator can build on, without
// their sum sizes: each summand's product of factors, each factor, and the
// same of its denominator. A block's partial sum over a tile then matches
// the target's whole one, and attention's numerator, exp(q k) v, matches
// whichever side of the division it sits on in the reference.
void collect(const NormalForm& form, std::unordered_set<std::string>& out) {
  for (const NfTerm& t : form.terms()) {
    for (const NfAtom& a : t.factors) out.insert(a.key);
    out.insert(productKey(t));
    if (t.denominator) collect(*t.denominator, out);
  }
}

bool summandsIn(const NormalForm& form, const std::unordered_set<std::string>& pieces) {
  for (const NfTerm& t : form.terms())
    if (!pieces.count(productKey(t)) || (t.denominator && !summandsIn(*t.denominator, pieces))) return false;
  return true;
}

} // namespace

TargetCoverage::TargetCoverage(const ExprRef& target) {
  if (std::optional<NormalFormRef> form = normalForm(target)) collect(**form, pieces_);
}

Coverage TargetCoverage::of(std::span<const ExprRef> exprs) const {
  std::unordered_set<std::string> seen;
  Coverage c;
  for (const ExprRef& e : exprs) {
    std::optional<NormalFormRef> form = normalForm(e);
    if (!form) continue;
    collect(**form, seen);
    for (const NfTerm& t : (*form)->terms())
      if (pieces_.count(productKey(t))) c.reduced += t.size;
  }
  for (const std::string& s : seen) c.pieces += pieces_.count(s) > 0;
  return c;
}

bool TargetCoverage::holdsTargetSummands(const ExprRef& e) const {
  std::optional<NormalFormRef> form = normalForm(e);
  return form && summandsIn(**form, pieces_);
}

} // namespace tcx::superopt
