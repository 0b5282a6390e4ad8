#include "index/IndexExpr.h"

#include "support/Error.h"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <numeric>

namespace tcx {

namespace {

int64_t floorDivInt(int64_t a, int64_t k) { return a >= 0 ? a / k : -((-a + k - 1) / k); }
int64_t floorModInt(int64_t a, int64_t k) { return a - floorDivInt(a, k) * k; }

int compareExpr(const IndexExpr& a, const IndexExpr& b);

int compareAtom(const IndexExpr::Atom& a, const IndexExpr::Atom& b) {
  if (a.kind != b.kind) return a.kind < b.kind ? -1 : 1;
  if (a.kind == IndexExpr::Atom::Kind::Var) return a.var == b.var ? 0 : (a.var < b.var ? -1 : 1);
  if (a.divisor != b.divisor) return a.divisor < b.divisor ? -1 : 1;
  return compareExpr(a.operand, b.operand);
}

int compareExpr(const IndexExpr& a, const IndexExpr& b) {
  if (a.constant() != b.constant()) return a.constant() < b.constant() ? -1 : 1;
  const auto &ta = a.terms(), &tb = b.terms();
  for (size_t i = 0; i < std::min(ta.size(), tb.size()); ++i) {
    if (int c = compareAtom(*ta[i].atom, *tb[i].atom)) return c;
    if (ta[i].coef != tb[i].coef) return ta[i].coef < tb[i].coef ? -1 : 1;
  }
  return ta.size() == tb.size() ? 0 : (ta.size() < tb.size() ? -1 : 1);
}

} // namespace

bool IndexExpr::Atom::operator==(const Atom& other) const { return compareAtom(*this, other) == 0; }
bool IndexExpr::Atom::operator<(const Atom& other) const { return compareAtom(*this, other) < 0; }

IndexExpr::IndexExpr(int64_t constant) : constant_(constant) {}

IndexExpr IndexExpr::fromAtom(std::shared_ptr<const Atom> atom) {
  IndexExpr e;
  e.terms_.push_back({1, std::move(atom)});
  return e;
}

IndexExpr IndexExpr::var(int d) {
  auto a = std::make_shared<Atom>();
  a->kind = Atom::Kind::Var;
  a->var = d;
  return fromAtom(std::move(a));
}

bool IndexExpr::isConstant() const { return terms_.empty(); }
int64_t IndexExpr::constant() const { return constant_; }

int64_t IndexExpr::coefficientOf(int d) const {
  for (const Term& t : terms_)
    if (t.atom->kind == Atom::Kind::Var && t.atom->var == d) return t.coef;
  return 0;
}

bool IndexExpr::mentions(int d) const {
  for (const Term& t : terms_) {
    if (t.atom->kind == Atom::Kind::Var ? t.atom->var == d : t.atom->operand.mentions(d)) return true;
  }
  return false;
}

bool IndexExpr::isAffine() const {
  return std::all_of(terms_.begin(), terms_.end(), [](const Term& t) { return t.atom->kind == Atom::Kind::Var; });
}

IndexExpr IndexExpr::nonAffinePart() const {
  IndexExpr e;
  for (const Term& t : terms_)
    if (t.atom->kind != Atom::Kind::Var) e.terms_.push_back(t);
  return e;
}

void IndexExpr::canonicalize() {
  std::sort(terms_.begin(), terms_.end(), [](const Term& a, const Term& b) { return *a.atom < *b.atom; });
  // Like terms merged in place: the greedy's lowerings build expressions by
  // the million, and a second vector here was a fifth of their allocations.
  size_t kept = 0;
  for (size_t i = 0; i < terms_.size(); ++i) {
    if (kept > 0 && *terms_[kept - 1].atom == *terms_[i].atom)
      terms_[kept - 1].coef += terms_[i].coef;
    else if (kept++ != i)
      terms_[kept - 1] = std::move(terms_[i]);
  }
  terms_.resize(kept);
  std::erase_if(terms_, [](const Term& t) { return t.coef == 0; });
  recombineDivMod();
}

// c*k*floor(e/k) + c*(e mod k) = c*e, whatever e's range: what a reshape
// that splits a dimension and one that merges it back leave behind.
void IndexExpr::recombineDivMod() {
  for (size_t i = 0; i < terms_.size(); ++i) {
    const Atom& div = *terms_[i].atom;
    if (div.kind != Atom::Kind::FloorDiv || terms_[i].coef % div.divisor != 0) continue;
    const int64_t c = terms_[i].coef / div.divisor;
    for (size_t j = 0; j < terms_.size(); ++j) {
      const Atom& mod = *terms_[j].atom;
      if (mod.kind != Atom::Kind::Mod || mod.divisor != div.divisor || terms_[j].coef != c ||
          !(mod.operand == div.operand))
        continue;
      IndexExpr e = div.operand * c;
      terms_.erase(terms_.begin() + static_cast<std::ptrdiff_t>(std::max(i, j)));
      terms_.erase(terms_.begin() + static_cast<std::ptrdiff_t>(std::min(i, j)));
      *this = *this + e;
      return;
    }
  }
}

IndexExpr operator+(const IndexExpr& a, const IndexExpr& b) {
  // Adding a constant leaves the terms canonical.
  if (b.terms_.empty() || a.terms_.empty()) {
    IndexExpr e = a.terms_.empty() ? b : a;
    e.constant_ = a.constant_ + b.constant_;
    return e;
  }
  IndexExpr e(a.constant_ + b.constant_);
  e.terms_.reserve(a.terms_.size() + b.terms_.size());
  e.terms_.insert(e.terms_.end(), a.terms_.begin(), a.terms_.end());
  e.terms_.insert(e.terms_.end(), b.terms_.begin(), b.terms_.end());
  e.canonicalize();
  return e;
}

IndexExpr operator-(const IndexExpr& a, const IndexExpr& b) { return a + b * -1; }

void IndexExpr::addScaled(const IndexExpr& a, int64_t k) {
  if (&a == this) {
    const IndexExpr copy = a;
    return addScaled(copy, k);
  }
  if (k == 0) return;
  constant_ += a.constant_ * k;
  if (a.terms_.empty()) return;
  const bool wasConstant = terms_.empty();
  terms_.reserve(terms_.size() + a.terms_.size());
  for (const Term& t : a.terms_) terms_.push_back({t.coef * k, t.atom});
  // a's terms times k are canonical on their own (operator+ above).
  if (!wasConstant) canonicalize();
}

IndexExpr operator*(const IndexExpr& a, int64_t k) {
  if (k == 0) return IndexExpr(0);
  IndexExpr e = a;
  e.constant_ *= k;
  for (IndexExpr::Term& t : e.terms_) t.coef *= k;
  return e;
}

Interval IndexExpr::range(const VarExtents& extents) const {
  Interval r{constant_, constant_};
  for (const Term& t : terms_) {
    Interval a{0, 0};
    switch (t.atom->kind) {
    case Atom::Kind::Var:
      TCX_CHECK(t.atom->var >= 0 && static_cast<size_t>(t.atom->var) < extents.size(), ErrorKind::Internal,
                "index variable x{} has no extent", t.atom->var);
      a = {0, extents[t.atom->var] - 1};
      break;
    case Atom::Kind::FloorDiv: {
      Interval o = t.atom->operand.range(extents);
      a = {floorDivInt(o.lo, t.atom->divisor), floorDivInt(o.hi, t.atom->divisor)};
      break;
    }
    case Atom::Kind::Mod: {
      Interval o = t.atom->operand.range(extents);
      bool inside = o.lo >= 0 && o.hi < t.atom->divisor;
      a = inside ? o : Interval{0, t.atom->divisor - 1};
      break;
    }
    }
    if (t.coef >= 0)
      r = {r.lo + t.coef * a.lo, r.hi + t.coef * a.hi};
    else
      r = {r.lo + t.coef * a.hi, r.hi + t.coef * a.lo};
  }
  return r;
}

int64_t IndexExpr::evaluate(const int64_t* vars) const {
  int64_t v = constant_;
  for (const Term& t : terms_) {
    int64_t a = 0;
    switch (t.atom->kind) {
    case Atom::Kind::Var: a = vars[t.atom->var]; break;
    case Atom::Kind::FloorDiv: a = floorDivInt(t.atom->operand.evaluate(vars), t.atom->divisor); break;
    case Atom::Kind::Mod: a = floorModInt(t.atom->operand.evaluate(vars), t.atom->divisor); break;
    }
    v += t.coef * a;
  }
  return v;
}

IndexExpr IndexExpr::makeDivMod(bool isDiv, const IndexExpr& a, int64_t k, const VarExtents& extents) {
  TCX_CHECK(k > 0, ErrorKind::Internal, "index division by {}", k);
  if (k == 1) return isDiv ? a : IndexExpr(0);
  // Multiples of k leave the division (floor((k*A + r) / k) = A + floor(r/k))
  // and vanish under the modulo; this holds for any integer A.
  IndexExpr out = 0, rest = floorModInt(a.constant_, k);
  if (isDiv) out = floorDivInt(a.constant_, k);
  for (const Term& t : a.terms_) {
    if (t.coef % k == 0) {
      if (isDiv) out = out + fromAtom(t.atom) * (t.coef / k);
    } else {
      rest = rest + fromAtom(t.atom) * t.coef;
    }
  }
  Interval r = rest.range(extents);
  if (floorDivInt(r.lo, k) == floorDivInt(r.hi, k)) // the quotient is known
    return isDiv ? out + floorDivInt(r.lo, k) : rest - floorDivInt(r.lo, k) * k;

  // Mixed-radix split: take the terms with the largest coefficients as
  // `big`, g = gcd of their coefficients. When g divides k and the other
  // terms (`small`, with the constant) lie in [0, g):
  //   floor(a / k) = floor((big/g) / (k/g)),  a mod k = g*((big/g) mod (k/g)) + small.
  // These identities undo reshapes that merge and then split dimensions.
  std::vector<Term> terms = rest.terms_;
  std::stable_sort(terms.begin(), terms.end(), [](const Term& x, const Term& y) { return std::abs(x.coef) > std::abs(y.coef); });
  for (size_t nBig = 1; nBig < terms.size(); ++nBig) {
    int64_t g = 0;
    for (size_t i = 0; i < nBig; ++i) g = std::gcd(g, std::abs(terms[i].coef));
    if (g <= 1 || k % g != 0) continue;
    IndexExpr small = rest.constant_, big = 0;
    for (size_t i = nBig; i < terms.size(); ++i) small = small + fromAtom(terms[i].atom) * terms[i].coef;
    Interval sr = small.range(extents);
    if (sr.lo < 0 || sr.hi >= g) continue;
    for (size_t i = 0; i < nBig; ++i) big = big + fromAtom(terms[i].atom) * (terms[i].coef / g);
    if (isDiv) return out + makeDivMod(true, big, k / g, extents);
    return makeDivMod(false, big, k / g, extents) * g + small;
  }

  // Nested forms: floor(floor(e/m)/k) = floor(e/(m*k));
  // floor((e mod m)/k) = floor(e/k) mod (m/k) when k divides m;
  // (e mod m) mod k = e mod k when k divides m.
  if (rest.constant_ == 0 && rest.terms_.size() == 1 && rest.terms_[0].coef == 1) {
    const Atom& inner = *rest.terms_[0].atom;
    if (isDiv && inner.kind == Atom::Kind::FloorDiv) return out + makeDivMod(true, inner.operand, inner.divisor * k, extents);
    if (isDiv && inner.kind == Atom::Kind::Mod && inner.divisor % k == 0)
      return out + makeDivMod(false, makeDivMod(true, inner.operand, k, extents), inner.divisor / k, extents);
    if (!isDiv && inner.kind == Atom::Kind::Mod && inner.divisor % k == 0) return makeDivMod(false, inner.operand, k, extents);
  }
  auto atom = std::make_shared<Atom>();
  atom->kind = isDiv ? Atom::Kind::FloorDiv : Atom::Kind::Mod;
  atom->operand = rest;
  atom->divisor = k;
  return isDiv ? out + fromAtom(std::move(atom)) : fromAtom(std::move(atom));
}

IndexExpr IndexExpr::floorDiv(const IndexExpr& a, int64_t k, const VarExtents& extents) {
  return makeDivMod(true, a, k, extents);
}

IndexExpr IndexExpr::mod(const IndexExpr& a, int64_t k, const VarExtents& extents) {
  return makeDivMod(false, a, k, extents);
}

IndexExpr IndexExpr::substitute(const std::vector<IndexExpr>& replacements, const VarExtents& extents) const {
  IndexExpr e = constant_;
  for (const Term& t : terms_) {
    switch (t.atom->kind) {
    case Atom::Kind::Var:
      TCX_CHECK(static_cast<size_t>(t.atom->var) < replacements.size(), ErrorKind::Internal,
                "no replacement for index variable x{}", t.atom->var);
      e.addScaled(replacements[t.atom->var], t.coef);
      break;
    case Atom::Kind::FloorDiv:
      e.addScaled(floorDiv(t.atom->operand.substitute(replacements, extents), t.atom->divisor, extents), t.coef);
      break;
    case Atom::Kind::Mod:
      e.addScaled(mod(t.atom->operand.substitute(replacements, extents), t.atom->divisor, extents), t.coef);
      break;
    }
  }
  return e;
}

bool IndexExpr::operator==(const IndexExpr& other) const { return compareExpr(*this, other) == 0; }

namespace {

std::string render(const IndexExpr& e, const std::vector<std::string>& names, const VarExtents* extents) {
  std::string s;
  for (const IndexExpr::Term& t : e.terms()) {
    const IndexExpr::Atom& a = *t.atom;
    std::string atom;
    if (a.kind == IndexExpr::Atom::Kind::Var) {
      atom = names[a.var];
    } else {
      bool nonNegative = extents && a.operand.range(*extents).lo >= 0;
      std::string operand = render(a.operand, names, extents);
      bool div = a.kind == IndexExpr::Atom::Kind::FloorDiv;
      bool simple = a.operand.terms().size() == 1 && a.operand.constant() == 0 && a.operand.terms()[0].coef == 1;
      if (!simple) operand = "(" + operand + ")";
      if (nonNegative)
        atom = fmt::format("({} {} {})", operand, div ? '/' : '%', a.divisor);
      else
        // In code (extents given) they are the kernel library's functions.
        atom = fmt::format("{}{}({}, {})", extents ? "tcx::" : "", div ? "floordiv" : "floormod", operand, a.divisor);
    }
    std::string term = t.coef == 1 ? atom : t.coef == -1 ? "-" + atom : fmt::format("{} * {}", t.coef, atom);
    if (s.empty())
      s = term;
    else if (term[0] == '-')
      s += " - " + term.substr(1);
    else
      s += " + " + term;
  }
  if (s.empty()) return std::to_string(e.constant());
  if (e.constant() > 0) s += " + " + std::to_string(e.constant());
  if (e.constant() < 0) s += " - " + std::to_string(-e.constant());
  return s;
}

} // namespace

std::string IndexExpr::toString(const std::vector<std::string>& varNames, const VarExtents& extents) const {
  return render(*this, varNames, &extents);
}

std::string IndexExpr::toString() const {
  int maxVar = -1;
  std::function<void(const IndexExpr&)> scan = [&](const IndexExpr& e) {
    for (const Term& t : e.terms_)
      t.atom->kind == Atom::Kind::Var ? void(maxVar = std::max(maxVar, t.atom->var)) : scan(t.atom->operand);
  };
  scan(*this);
  std::vector<std::string> names;
  for (int i = 0; i <= maxVar; ++i) names.push_back(fmt::format("x{}", i));
  return render(*this, names, nullptr);
}

} // namespace tcx
