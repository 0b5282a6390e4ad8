#include "index/MappingFunction.h"

#include "support/Error.h"
#include "index/Regions.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>

namespace tcx {

bool MappingPiece::holdsAt(const int64_t* x) const {
  for (const IndexConstraint& c : where) {
    int64_t v = c.expr.evaluate(x);
    if (v < c.lo || v >= c.hi) return false;
  }
  return true;
}

MappingFunction::MappingFunction(Shape virtualShape, std::vector<Shape> sourceShapes)
    : virtualShape_(std::move(virtualShape)), sourceShapes_(std::move(sourceShapes)) {}

MappingFunction MappingFunction::identity(const Shape& shape) {
  // Every physical tensor a lowering resolves is its own identity, and the
  // greedy's cost oracle lowers kernels thousands of times: building the
  // piece (its offset expression, its extent-1 substitutions) again each
  // time took a seventh of DenseNet-121's greedy. Kept per thread, one
  // small mapping for each shape the process has seen (a model has a few
  // hundred).
  thread_local std::map<Shape, MappingFunction> built;
  if (auto it = built.find(shape); it != built.end()) return it->second;
  MappingFunction f(shape, {shape});
  MappingPiece p;
  for (size_t d = 0; d < shape.size(); ++d) p.index.push_back(IndexExpr::var(static_cast<int>(d)));
  f.addPiece(std::move(p));
  return built.emplace(shape, std::move(f)).first->second;
}

MappingFunction MappingFunction::affine(const Shape& virtualShape, const Shape& sourceShape,
                                        const std::vector<std::vector<int64_t>>& strides,
                                        const std::vector<int64_t>& offsets) {
  MappingFunction f(virtualShape, {sourceShape});
  MappingPiece p;
  for (size_t k = 0; k < sourceShape.size(); ++k) {
    IndexExpr y = offsets[k];
    for (size_t d = 0; d < virtualShape.size(); ++d) y.addScaled(IndexExpr::var(static_cast<int>(d)), strides[k][d]);
    p.index.push_back(y);
  }
  f.addPiece(std::move(p));
  return f;
}

MappingFunction MappingFunction::reshape(const Shape& virtualShape, const Shape& sourceShape) {
  TCX_CHECK(numElements(virtualShape) == numElements(sourceShape), ErrorKind::Internal, "reshape {} to {}",
            shapeToString(sourceShape), shapeToString(virtualShape));
  MappingFunction f(virtualShape, {sourceShape});
  VarExtents ext = virtualShape;
  std::vector<int64_t> vs = contiguousStrides(virtualShape);
  IndexExpr linear = 0;
  for (size_t d = 0; d < virtualShape.size(); ++d) linear = linear + IndexExpr::var(static_cast<int>(d)) * vs[d];
  MappingPiece p;
  p.index = unflattenOffset(linear, sourceShape, ext);
  f.addPiece(std::move(p));
  return f;
}

std::vector<IndexExpr> unflattenOffset(const IndexExpr& offset, const Shape& shape, const VarExtents& ext) {
  if (numElements(shape) == 0) return std::vector<IndexExpr>(shape.size(), IndexExpr(0));
  std::vector<int64_t> strides = contiguousStrides(shape);
  std::vector<IndexExpr> index;
  for (size_t k = 0; k < shape.size(); ++k) {
    IndexExpr y = IndexExpr::floorDiv(offset, strides[k], ext);
    if (k > 0) y = IndexExpr::mod(y, shape[k], ext);
    index.push_back(y);
  }
  return index;
}

void MappingFunction::addPiece(MappingPiece piece) {
  VarExtents ext = extents();
  // A dimension of extent 1 has index 0: substitute it so that
  // Unsqueeze-like dimensions leave no trace in the expressions.
  if (std::find(ext.begin(), ext.end(), 1) != ext.end()) {
    std::vector<IndexExpr> vars;
    for (size_t d = 0; d < ext.size(); ++d) vars.push_back(ext[d] == 1 ? IndexExpr(0) : IndexExpr::var(static_cast<int>(d)));
    for (IndexConstraint& c : piece.where) c.expr = c.expr.substitute(vars, ext);
    for (IndexExpr& y : piece.index) y = y.substitute(vars, ext);
  }
  std::vector<IndexConstraint> kept;
  for (IndexConstraint& c : piece.where) {
    Interval r = c.expr.range(ext);
    if (r.hi < c.lo || r.lo >= c.hi) return; // never holds
    if (r.lo >= c.lo && r.hi < c.hi) continue; // always holds
    if (std::find(kept.begin(), kept.end(), c) == kept.end()) kept.push_back(std::move(c));
  }
  piece.where = std::move(kept);
  for (int64_t d : virtualShape_)
    if (d == 0) return;
  if (piece.source != MappingPiece::kFill) {
    const Shape& src = sourceShapes_.at(piece.source);
    TCX_CHECK(piece.index.size() == src.size(), ErrorKind::Internal, "mapping piece has {} indices for a rank-{} source",
              piece.index.size(), src.size());
    std::vector<int64_t> strides = contiguousStrides(src);
    piece.offset = 0;
    for (size_t k = 0; k < src.size(); ++k) piece.offset.addScaled(piece.index[k], strides[k]);
  }
  pieces_.push_back(std::move(piece));
}

namespace {

// Adds to f piece p (over virtual extents ext) composed with each of inner's
// pieces; inner's source k becomes f's source base + k.
void addComposed(MappingFunction& f, const MappingPiece& p, const MappingFunction& inner, int base,
                 const VarExtents& ext) {
  for (const MappingPiece& q : inner.pieces()) {
    MappingPiece r;
    r.where = p.where;
    for (const IndexConstraint& c : q.where) r.where.push_back({c.expr.substitute(p.index, ext), c.lo, c.hi});
    r.source = q.source == MappingPiece::kFill ? MappingPiece::kFill : base + q.source;
    r.fillValue = q.fillValue;
    for (const IndexExpr& y : q.index) r.index.push_back(y.substitute(p.index, ext));
    f.addPiece(std::move(r));
  }
}

} // namespace

MappingFunction MappingFunction::composeSources(const std::vector<MappingFunction>& inners) const {
  TCX_CHECK(inners.size() == sourceShapes_.size(), ErrorKind::Internal, "composing {} mappings onto {} sources",
            inners.size(), sourceShapes_.size());
  std::vector<Shape> shapes;
  std::vector<int> base;
  for (size_t j = 0; j < inners.size(); ++j) {
    TCX_CHECK(inners[j].virtualShape() == sourceShapes_[j], ErrorKind::Internal,
              "composing a mapping of shape {} onto a source of shape {}", shapeToString(inners[j].virtualShape()),
              shapeToString(sourceShapes_[j]));
    base.push_back(static_cast<int>(shapes.size()));
    shapes.insert(shapes.end(), inners[j].sourceShapes().begin(), inners[j].sourceShapes().end());
  }
  MappingFunction f(virtualShape_, shapes);
  VarExtents ext = extents();
  for (const MappingPiece& p : pieces_) {
    if (p.source == MappingPiece::kFill)
      f.addPiece(p);
    else
      addComposed(f, p, inners[p.source], base[p.source], ext);
  }
  return f;
}

MappingFunction MappingFunction::remapSources(const std::vector<int>& newIndex, const std::vector<Shape>& newShapes) const {
  MappingFunction f(virtualShape_, newShapes);
  for (MappingPiece p : pieces_) {
    if (p.source != MappingPiece::kFill) p.source = newIndex.at(p.source);
    f.addPiece(std::move(p));
  }
  // Pieces that now read one source at one offset differ in their guards
  // alone, and the pieces cover the index space: they are one piece, read
  // without a guard (a concatenation whose parts are stored side by side in
  // the buffer of a later one, read whole: DenseNet's features so far).
  const std::vector<MappingPiece>& pieces = f.pieces_;
  const bool oneOffset = pieces.size() > 1 && std::ranges::all_of(pieces, [&](const MappingPiece& p) {
    return p.source != MappingPiece::kFill && p.source == pieces[0].source && p.offset == pieces[0].offset;
  });
  if (oneOffset) {
    MappingPiece whole = pieces[0];
    whole.where.clear();
    f.pieces_ = {std::move(whole)};
  }
  return f;
}

MappingFunction::Target MappingFunction::evaluate(const int64_t* x) const {
  for (const MappingPiece& p : pieces_)
    if (p.holdsAt(x)) return {p.source, p.source == MappingPiece::kFill ? 0 : p.offset.evaluate(x), p.fillValue};
  raise(ErrorKind::Internal, "mapping function has no piece for an index");
}

bool MappingFunction::coversExactlyOnce() const { return coverExactlyOnce({this}); }

bool MappingFunction::isIdentity() const {
  if (pieces_.size() != 1 || sourceShapes_.size() != 1 || sourceShapes_[0] != virtualShape_) return false;
  const MappingPiece& p = pieces_[0];
  if (!p.where.empty() || p.source != 0) return false;
  for (size_t d = 0; d < p.index.size(); ++d)
    if (!(p.index[d] == IndexExpr::var(static_cast<int>(d)))) return false;
  return true;
}

std::string MappingFunction::toString(const std::vector<std::string>& sourceNames) const {
  std::vector<std::string> vars;
  for (size_t d = 0; d < virtualShape_.size(); ++d) vars.push_back(fmt::format("x{}", d));
  VarExtents ext = extents();
  std::string s;
  for (const MappingPiece& p : pieces_) {
    if (!s.empty()) s += "; ";
    if (p.source == MappingPiece::kFill) {
      s += fmt::format("{}", p.fillValue);
    } else {
      std::string name = p.source < static_cast<int>(sourceNames.size()) ? sourceNames[p.source] : fmt::format("P{}", p.source);
      std::vector<std::string> idx;
      for (const IndexExpr& e : p.index) idx.push_back(e.toString(vars, ext));
      s += fmt::format("{}[{}]", name, fmt::join(idx, ", "));
    }
    std::vector<std::string> conds;
    for (const IndexConstraint& c : p.where) conds.push_back(fmt::format("{} <= {} < {}", c.lo, c.expr.toString(vars, ext), c.hi));
    if (!conds.empty()) s += fmt::format(" if {}", fmt::join(conds, " and "));
  }
  return s;
}

} // namespace tcx
