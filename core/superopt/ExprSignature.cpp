#include "superopt/ExprSignature.h"

#include <algorithm>

namespace tcx::superopt {

namespace {

using Leaves = ExprSignature::Leaves;
using Kind = AbstractExpr::Kind;

bool isLeaf(const ExprRef& e) { return e->kind() == Kind::Input || e->kind() == Kind::Constant; }

// Fills `s` for `e`, adding `e`'s content to `zone` (the zone it sits in);
// returns the leaves below `e` and its exp depth.
std::pair<Leaves, int> walk(const ExprRef& e, ExprSignature::Summary& s, size_t zone) {
  s.symbols.insert(static_cast<int>(e->kind()));
  if (isLeaf(e)) {
    s.zones[zone].leaves.insert(e->str());
    return {{e->str()}, 0};
  }
  if (e->kind() == Kind::Exp) {
    s.zones.emplace_back();
    auto [inner, depth] = walk(e->lhs(), s, s.zones.size() - 1);
    s.zones[zone].exps.push_back(inner);
    return {inner, depth + 1};
  }
  auto [left, dl] = walk(e->lhs(), s, zone);
  Leaves right;
  int dr = 0;
  if (e->rhs()) std::tie(right, dr) = walk(e->rhs(), s, zone);
  if (e->kind() == Kind::Mul || e->kind() == Kind::Div)
    for (const std::string& a : left)
      for (const std::string& b : right) s.products.insert(std::minmax(a, b));
  left.insert(right.begin(), right.end());
  return {left, std::max(dl, dr)};
}

ExprSignature::Summary summarize(const ExprRef& e) {
  ExprSignature::Summary s;
  s.zones.emplace_back();
  std::tie(s.leaves, s.expDepth) = walk(e, s, 0);
  return s;
}

template <typename Set> bool subset(const Set& a, const Set& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

bool fitsIn(const ExprSignature::Zone& e, const ExprSignature::Zone& z) {
  if (!subset(e.leaves, z.leaves)) return false;
  return std::all_of(e.exps.begin(), e.exps.end(), [&](const Leaves& x) {
    return std::find(z.exps.begin(), z.exps.end(), x) != z.exps.end();
  });
}

} // namespace

ExprSignature::ExprSignature(const ExprRef& target) : target_(summarize(target)) {}

bool ExprSignature::admits(const ExprRef& e) const {
  Summary s = summarize(e);
  if (s.expDepth > target_.expDepth || !subset(s.leaves, target_.leaves) || !subset(s.symbols, target_.symbols) ||
      !subset(s.products, target_.products))
    return false;
  return std::any_of(target_.zones.begin(), target_.zones.end(), [&](const Zone& z) { return fitsIn(s.zones[0], z); });
}

} // namespace tcx::superopt
