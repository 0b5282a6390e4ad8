#include "index/Regions.h"

#include <random>

namespace tcx {

namespace {

// Candidate values per dimension: both ends of the range and the values on
// either side of every constraint boundary that is affine in that variable.
std::vector<std::vector<int64_t>> boundaryCandidates(const Shape& shape, const std::vector<const MappingFunction*>& maps) {
  std::vector<std::vector<int64_t>> candidates(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) candidates[d] = {0, shape[d] - 1};
  for (const MappingFunction* m : maps)
    for (const MappingPiece& p : m->pieces())
      for (const IndexConstraint& c : p.where)
        for (size_t d = 0; d < shape.size(); ++d) {
          int64_t coef = c.expr.coefficientOf(static_cast<int>(d));
          if (coef == 0) continue;
          for (int64_t bound : {c.lo, c.hi})
            for (int64_t delta : {-1, 0, 1}) {
              int64_t v = (bound - c.expr.constant()) / coef + delta;
              if (v >= 0 && v < shape[d]) candidates[d].push_back(v);
            }
        }
  return candidates;
}

int coverageAt(const std::vector<const MappingFunction*>& maps, const int64_t* x) {
  int n = 0;
  for (const MappingFunction* m : maps)
    for (const MappingPiece& p : m->pieces()) n += p.holdsAt(x);
  return n;
}

// Calls pred on sample points until it returns false; returns whether it
// held everywhere.
template <typename Pred> bool forSamples(const Shape& shape, const std::vector<const MappingFunction*>& maps, Pred pred) {
  for (int64_t d : shape)
    if (d == 0) return true;
  auto candidates = boundaryCandidates(shape, maps);
  std::vector<int64_t> x(shape.size(), 0);
  std::mt19937_64 rng(12345);
  for (int trial = 0; trial < 1024; ++trial) {
    for (size_t d = 0; d < shape.size(); ++d)
      x[d] = trial < 512 ? candidates[d][rng() % candidates[d].size()]
                         : static_cast<int64_t>(rng() % static_cast<uint64_t>(shape[d]));
    if (!pred(x.data())) return false;
  }
  return true;
}

} // namespace

bool regionsOverlap(const MappingFunction& a, const MappingFunction& b) {
  std::vector<const MappingFunction*> maps{&a, &b};
  return !forSamples(a.virtualShape(), maps, [&](const int64_t* x) {
    bool inA = false, inB = false;
    for (const MappingPiece& p : a.pieces()) inA |= p.holdsAt(x);
    for (const MappingPiece& p : b.pieces()) inB |= p.holdsAt(x);
    return !(inA && inB);
  });
}

bool coverExactlyOnce(const std::vector<const MappingFunction*>& mappings) {
  if (mappings.empty()) return false;
  return forSamples(mappings.front()->virtualShape(), mappings,
                    [&](const int64_t* x) { return coverageAt(mappings, x) == 1; });
}

} // namespace tcx
