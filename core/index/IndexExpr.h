#pragma once
// Quasi-affine integer index expressions: the language of mapping functions.
//
// An IndexExpr is a sum  c0 + sum_i c_i * atom_i  where an atom is a
// variable x_d (a virtual-tensor index, with known range [0, extent_d)), or
// floor(e / k) or e mod k of another expression e for a constant k > 0.
// This is exactly what compositions of Reshape, Transpose, Slice, Expand,
// Tile, Split and Concat produce (VTC Remark 1: f(I) = S.I + b(I), with the
// div/mod atoms making up the index-dependent bias b).
//
// Expressions are kept simplified on construction, using the variables'
// ranges: floor((k*A + r) / k) = A + floor(r / k), floor(r / k) = 0 when
// 0 <= r < k, (k*A + r) mod k = r mod k, nested div/mod folding. That is
// what turns "merge two dims then split them again" back into the plain
// indices, and keeps generated CUDA free of needless divisions.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcx {

// Ranges of the variables an expression may mention: x_d in [0, extents[d]).
using VarExtents = std::vector<int64_t>;

struct Interval {
  int64_t lo, hi; // inclusive
};

class IndexExpr {
public:
  IndexExpr() : IndexExpr(0) {}
  IndexExpr(int64_t constant); // NOLINT: constants convert implicitly
  static IndexExpr var(int d);

  bool isConstant() const;
  int64_t constant() const; // the constant term c0
  // The coefficient of the plain variable x_d (0 if it only occurs inside
  // div/mod atoms or not at all).
  int64_t coefficientOf(int d) const;
  // Whether x_d occurs anywhere, also inside atoms.
  bool mentions(int d) const;
  // Whether the expression is c0 + sum c_d x_d (no div/mod atoms).
  bool isAffine() const;
  // The expression without its plain-variable terms and constant: the
  // index-dependent bias b(I) of VTC Remark 1.
  IndexExpr nonAffinePart() const;

  Interval range(const VarExtents& extents) const;
  int64_t evaluate(const int64_t* vars) const;

  // Replaces x_d by replacements[d] (whose variables range over `extents`)
  // and simplifies.
  IndexExpr substitute(const std::vector<IndexExpr>& replacements, const VarExtents& extents) const;

  // Simplified arithmetic. `extents` lets division and modulo use ranges.
  friend IndexExpr operator+(const IndexExpr& a, const IndexExpr& b);
  friend IndexExpr operator-(const IndexExpr& a, const IndexExpr& b);
  friend IndexExpr operator*(const IndexExpr& a, int64_t k);
  friend IndexExpr operator*(int64_t k, const IndexExpr& a) { return a * k; }
  // *this = *this + a * k, the same expression those operators give,
  // without their temporaries: sums of many terms (a piece's offset, a
  // substitution) are built this way.
  void addScaled(const IndexExpr& a, int64_t k);
  static IndexExpr floorDiv(const IndexExpr& a, int64_t k, const VarExtents& extents);
  static IndexExpr mod(const IndexExpr& a, int64_t k, const VarExtents& extents);

  bool operator==(const IndexExpr& other) const;
  // C syntax over the given variable names, e.g. "x1 / 4 * 128 + x3".
  // Division and modulo of operands that `extents` prove non-negative print
  // as C's / and %; others as tcx::floordiv()/tcx::floormod() (kernels/include/tcx/types.cuh and
  // the CPU evaluator define them with floor semantics).
  std::string toString(const std::vector<std::string>& varNames, const VarExtents& extents) const;
  std::string toString() const; // for diagnostics: x0, x1, ..., always floordiv/floormod

  struct Atom;
  struct Term {
    int64_t coef;
    std::shared_ptr<const Atom> atom;
  };
  const std::vector<Term>& terms() const { return terms_; }

private:
  static IndexExpr fromAtom(std::shared_ptr<const Atom> atom);
  static IndexExpr makeDivMod(bool isDiv, const IndexExpr& a, int64_t k, const VarExtents& extents);
  void canonicalize();
  void recombineDivMod();

  int64_t constant_ = 0;
  std::vector<Term> terms_; // sorted, no zero coefficients, no duplicate atoms
};

struct IndexExpr::Atom {
  enum class Kind { Var, FloorDiv, Mod } kind;
  int var = -1;      // Kind::Var
  IndexExpr operand; // FloorDiv, Mod
  int64_t divisor = 1;

  bool operator==(const Atom& other) const;
  // A strict order so sums have one canonical form.
  bool operator<(const Atom& other) const;
};

} // namespace tcx
