#include "superopt/SubexprClosure.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace tcx::superopt {

namespace {

int64_t saturatingTimes(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}

using Atoms = std::vector<NfAtom>;

// Every non-empty sub-multiset of `atoms` (sorted by key), each once.
void forEachSubMultiset(const Atoms& atoms, const std::function<void(const Atoms&, const Atoms&)>& visit) {
  std::vector<std::pair<size_t, size_t>> groups; // [first, end) of equal keys
  for (size_t i = 0; i < atoms.size();) {
    size_t j = i;
    while (j < atoms.size() && atoms[j].key == atoms[i].key) ++j;
    groups.emplace_back(i, j);
    i = j;
  }
  Atoms chosen, rest;
  std::function<void(size_t)> walk = [&](size_t g) {
    if (g == groups.size()) {
      if (!chosen.empty()) visit(chosen, rest);
      return;
    }
    auto [first, end] = groups[g];
    for (size_t take = 0; take <= end - first; ++take) {
      for (size_t k = first; k < end; ++k) (k - first < take ? chosen : rest).push_back(atoms[k]);
      walk(g + 1);
      for (size_t k = first; k < end; ++k) (k - first < take ? chosen : rest).pop_back();
    }
  };
  walk(0);
}

// The atoms every summand has, with multiplicity.
Atoms commonAtoms(const NormalForm& form) {
  Atoms common = form.terms().front().factors;
  for (const NfTerm& t : form.terms()) {
    Atoms kept;
    std::vector<bool> used(t.factors.size(), false);
    for (const NfAtom& a : common)
      for (size_t i = 0; i < t.factors.size(); ++i)
        if (!used[i] && t.factors[i].key == a.key) {
          used[i] = true;
          kept.push_back(a);
          break;
        }
    common = std::move(kept);
  }
  return common;
}

Atoms without(const Atoms& atoms, const Atoms& removed) {
  Atoms out = atoms;
  for (const NfAtom& r : removed) {
    auto it = std::find_if(out.begin(), out.end(), [&](const NfAtom& a) { return a.key == r.key; });
    out.erase(it);
  }
  return out;
}

} // namespace

SubexprClosure::SubexprClosure(const ExprRef& target, size_t maxForms) : maxForms_(maxForms) {
  std::optional<NormalFormRef> form = normalForm(target);
  if (!form) {
    truncated_ = true;
    return;
  }
  add(*form, 1);
  while (!work_.empty()) {
    auto [next, scale] = std::move(work_.back());
    work_.pop_back();
    expand(*next, scale);
  }
  work_.shrink_to_fit();
}

void SubexprClosure::add(const NormalFormRef& form, int64_t scale) {
  int64_t common = form->commonSize();
  NormalFormRef unit = common > 1 ? form->withSizesDividedBy(common) : form;
  scale = saturatingTimes(scale, common);
  auto it = scale_.find(unit->key());
  if (it != scale_.end()) {
    if (it->second >= scale) return;
    it->second = scale;
  } else {
    if (scale_.size() >= maxForms_) {
      truncated_ = true;
      return;
    }
    scale_.emplace(unit->key(), scale);
  }
  work_.emplace_back(unit, scale);
}

bool SubexprClosure::proves(const ExprRef& e) const {
  std::optional<NormalFormRef> form = normalForm(e);
  if (!form) return false;
  int64_t common = (*form)->commonSize();
  NormalFormRef unit = common > 1 ? (*form)->withSizesDividedBy(common) : *form;
  auto it = scale_.find(unit->key());
  return it != scale_.end() && it->second >= common;
}

void SubexprClosure::expand(const NormalForm& form, int64_t scale) {
  const std::vector<NfTerm>& terms = form.terms();
  // add(X, Y): any part of the summands. Past a dozen summands only single
  // summands and all-but-one are taken, which keeps the closure small.
  const size_t n = terms.size();
  auto part = [&](const std::function<bool(size_t)>& in) {
    std::vector<NfTerm> chosen;
    for (size_t i = 0; i < n; ++i)
      if (in(i)) chosen.push_back(terms[i]);
    add(std::make_shared<const NormalForm>(std::move(chosen)), scale);
  };
  if (n >= 2 && n <= 12) {
    for (uint32_t mask = 1; mask + 1 < (1u << n); ++mask) part([&](size_t i) { return (mask >> i) & 1u; });
  } else if (n > 12) {
    for (size_t k = 0; k < n; ++k) {
      part([&](size_t i) { return i == k; });
      part([&](size_t i) { return i != k; });
    }
  }

  // mul(X, Y): factors every summand shares, and the rest of each summand.
  forEachSubMultiset(commonAtoms(form), [&](const Atoms& factor, const Atoms&) {
    std::vector<NfTerm> rest = terms;
    for (NfTerm& t : rest) {
      t.factors = without(t.factors, factor);
      if (t.factors.empty()) return; // the rest would be the constant 1, which no term is
    }
    add(monomial(1, factor), scale);
    add(std::make_shared<const NormalForm>(std::move(rest)), scale);
  });

  // div(X, Y): summands over one denominator.
  const NormalFormRef& den = terms.front().denominator;
  bool shared = den && std::all_of(terms.begin(), terms.end(), [&](const NfTerm& t) {
    return t.denominator && t.denominator->key() == den->key();
  });
  if (shared) {
    std::vector<NfTerm> numerator = terms;
    for (NfTerm& t : numerator) t.denominator = nullptr;
    auto over = std::make_shared<const NormalForm>(std::move(numerator));
    add(over, scale);
    add(den, 1);
    // x / (y z) = div(div(x, y), z): either part of a one-summand
    // denominator, with its sum on either side.
    const std::vector<NfTerm>& d = den->terms();
    if (d.size() == 1 && !d[0].denominator && d[0].factors.size() >= 2)
      forEachSubMultiset(d[0].factors, [&](const Atoms& outer, const Atoms& inner) {
        if (inner.empty()) return;
        for (bool sizeInside : {true, false}) {
          std::optional<NormalFormRef> partial = divide(*over, monomial(sizeInside ? d[0].size : 1, inner));
          if (partial) add(*partial, scale);
          add(monomial(sizeInside ? 1 : d[0].size, outer), 1);
        }
      });
  }

  // exp(X), sqrt(X): the argument.
  if (n == 1 && !terms[0].denominator && terms[0].factors.size() == 1 && terms[0].factors[0].argument)
    add(terms[0].factors[0].argument, 1);
}

} // namespace tcx::superopt
