#include "superopt/ExprNormalForm.h"

#include "support/Error.h"

#include <algorithm>
#include <numeric>

namespace tcx::superopt {

namespace {

using Kind = AbstractExpr::Kind;

std::optional<int64_t> times(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// The denominator of a product of two summands: the product of theirs.
std::optional<NormalFormRef> productDenominator(const NormalFormRef& a, const NormalFormRef& b) {
  if (!a) return b;
  if (!b) return a;
  return multiply(*a, *b);
}

} // namespace

std::string NfTerm::key() const {
  std::string k = "t(" + std::to_string(size) + ",(";
  for (size_t i = 0; i < factors.size(); ++i) k += (i ? "," : "") + factors[i].key;
  k += ")";
  if (denominator) k += "," + denominator->key();
  return k + ")";
}

NormalForm::NormalForm(std::vector<NfTerm> terms) : terms_(std::move(terms)) {
  for (NfTerm& t : terms_)
    std::sort(t.factors.begin(), t.factors.end(), [](const NfAtom& a, const NfAtom& b) { return a.key < b.key; });
  std::vector<std::pair<std::string, size_t>> order;
  for (size_t i = 0; i < terms_.size(); ++i) order.emplace_back(terms_[i].key(), i);
  std::sort(order.begin(), order.end());
  std::vector<NfTerm> sorted;
  key_ = "n(";
  for (size_t i = 0; i < order.size(); ++i) {
    sorted.push_back(std::move(terms_[order[i].second]));
    key_ += (i ? "," : "") + order[i].first;
  }
  key_ += ")";
  terms_ = std::move(sorted);
}

int64_t NormalForm::commonSize() const {
  int64_t g = 0;
  for (const NfTerm& t : terms_) g = std::gcd(g, t.size);
  return std::max<int64_t>(g, 1);
}

NormalFormRef NormalForm::withSizesDividedBy(int64_t divisor) const {
  std::vector<NfTerm> terms = terms_;
  for (NfTerm& t : terms) {
    TCX_CHECK(t.size % divisor == 0, ErrorKind::Internal, "dividing sum size {} by {}", t.size, divisor);
    t.size /= divisor;
  }
  return std::make_shared<const NormalForm>(std::move(terms));
}

NormalFormRef monomial(int64_t size, std::vector<NfAtom> factors) {
  NfTerm t;
  t.size = size;
  t.factors = std::move(factors);
  return std::make_shared<const NormalForm>(std::vector<NfTerm>{std::move(t)});
}

std::optional<NormalFormRef> multiply(const NormalForm& a, const NormalForm& b) {
  std::vector<NfTerm> terms;
  for (const NfTerm& x : a.terms())
    for (const NfTerm& y : b.terms()) {
      NfTerm t;
      std::optional<int64_t> size = times(x.size, y.size);
      std::optional<NormalFormRef> den = productDenominator(x.denominator, y.denominator);
      if (!size || !den) return std::nullopt;
      t.size = *size;
      t.denominator = *den;
      t.factors = x.factors;
      t.factors.insert(t.factors.end(), y.factors.begin(), y.factors.end());
      terms.push_back(std::move(t));
    }
  return std::make_shared<const NormalForm>(std::move(terms));
}

std::optional<NormalFormRef> divide(const NormalForm& a, const NormalFormRef& b) {
  std::vector<NfTerm> terms = a.terms();
  for (NfTerm& t : terms) {
    std::optional<NormalFormRef> den = productDenominator(t.denominator, b);
    if (!den) return std::nullopt;
    t.denominator = *den;
  }
  return std::make_shared<const NormalForm>(std::move(terms));
}

std::optional<NormalFormRef> normalForm(const ExprRef& e) {
  switch (e->kind()) {
  case Kind::Input:
  case Kind::Constant: return monomial(1, {{e->str(), nullptr}});
  case Kind::Exp:
  case Kind::Sqrt: {
    std::optional<NormalFormRef> arg = normalForm(e->lhs());
    if (!arg) return std::nullopt;
    return monomial(1, {{(e->kind() == Kind::Exp ? "exp(" : "sqrt(") + (*arg)->key() + ")", *arg}});
  }
  case Kind::Sum: {
    std::optional<NormalFormRef> arg = normalForm(e->lhs());
    if (!arg) return std::nullopt;
    std::vector<NfTerm> terms = (*arg)->terms();
    for (NfTerm& t : terms) {
      std::optional<int64_t> size = times(t.size, e->size());
      if (!size) return std::nullopt;
      t.size = *size;
    }
    return std::make_shared<const NormalForm>(std::move(terms));
  }
  case Kind::Add:
  case Kind::Mul:
  case Kind::Div: {
    std::optional<NormalFormRef> l = normalForm(e->lhs()), r = normalForm(e->rhs());
    if (!l || !r) return std::nullopt;
    if (e->kind() == Kind::Mul) return multiply(**l, **r);
    if (e->kind() == Kind::Div) return divide(**l, *r);
    std::vector<NfTerm> terms = (*l)->terms();
    terms.insert(terms.end(), (*r)->terms().begin(), (*r)->terms().end());
    return std::make_shared<const NormalForm>(std::move(terms));
  }
  }
  raise(ErrorKind::Internal, "unknown abstract expression kind");
}

} // namespace tcx::superopt
