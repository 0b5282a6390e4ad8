#include "index/IndexExpr.h"

#include <catch2/catch.hpp>
#include <random>

using namespace tcx;

namespace {
IndexExpr x(int d) { return IndexExpr::var(d); }
} // namespace

TEST_CASE("merging and splitting dimensions simplifies back to the indices", "[indexexpr]") {
  VarExtents ext{4, 8};
  IndexExpr linear = x(0) * 8 + x(1);
  CHECK(IndexExpr::floorDiv(linear, 8, ext) == x(0));
  CHECK(IndexExpr::mod(linear, 8, ext) == x(1));
  // Splitting the inner dimension further keeps the outer part affine.
  CHECK(IndexExpr::floorDiv(linear, 4, ext) == x(0) * 2 + IndexExpr::floorDiv(x(1), 4, ext));
  CHECK(IndexExpr::mod(linear, 4, ext) == IndexExpr::mod(x(1), 4, ext));
  // Dividing past the whole range gives zero; nested divisions fold.
  CHECK(IndexExpr::floorDiv(linear, 32, ext) == IndexExpr(0));
  CHECK(IndexExpr::floorDiv(IndexExpr::floorDiv(x(1), 2, ext), 2, ext) == IndexExpr::floorDiv(x(1), 4, ext));
}

TEST_CASE("index expressions evaluate like the arithmetic they stand for", "[indexexpr]") {
  // Random compositions checked against direct evaluation.
  VarExtents ext{3, 5, 7};
  std::mt19937 rng(1);
  for (int trial = 0; trial < 200; ++trial) {
    int64_t a = rng() % 9 + 1, b = rng() % 5 + 1, c = rng() % 13, k = rng() % 6 + 1, m = rng() % 6 + 1;
    IndexExpr e = x(0) * a + x(1) * b + x(2) + c;
    IndexExpr d = IndexExpr::floorDiv(e, k, ext);
    IndexExpr r = IndexExpr::mod(IndexExpr::floorDiv(e, m, ext), k, ext);
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 5; ++j)
        for (int64_t l = 0; l < 7; ++l) {
          int64_t vars[] = {i, j, l};
          int64_t v = i * a + j * b + l + c;
          REQUIRE(d.evaluate(vars) == v / k);
          REQUIRE(r.evaluate(vars) == (v / m) % k);
          Interval range = d.range(ext);
          REQUIRE(range.lo <= v / k);
          REQUIRE(v / k <= range.hi);
        }
  }
}

// addScaled is how sums of many terms are built (a piece's offset, a substitution): it must give the very
// expression + and * give, terms and all, not only the same values, since generated code prints it.
TEST_CASE("addScaled gives the expression that + and * give", "[indexexpr]") {
  VarExtents ext{3, 5, 7, 4};
  std::mt19937 rng(7);
  auto randomExpr = [&] {
    IndexExpr e = int64_t(rng() % 5);
    for (int d = 0; d < 4; ++d)
      if (rng() % 2) e = e + x(d) * (int64_t(rng() % 7) - 3);
    if (rng() % 2) e = e + IndexExpr::floorDiv(x(1) * 7 + x(2), int64_t(rng() % 4 + 2), ext) * int64_t(rng() % 3 + 1);
    if (rng() % 2) e = e + IndexExpr::mod(x(1) * 7 + x(2), int64_t(rng() % 4 + 2), ext);
    return e;
  };
  for (int trial = 0; trial < 500; ++trial) {
    const IndexExpr a = randomExpr(), b = randomExpr();
    const int64_t k = int64_t(rng() % 9) - 4;
    IndexExpr sum = a;
    sum.addScaled(b, k);
    INFO(a.toString() << " + (" << b.toString() << ") * " << k << " gave " << sum.toString());
    REQUIRE(sum == a + b * k);
    REQUIRE(sum.terms().size() == (a + b * k).terms().size());
    IndexExpr twice = a;
    twice.addScaled(twice, k);
    REQUIRE(twice == a + a * k);
  }
  // The pair a reshape leaves behind recombines, as + does it: 4 * floor(e / 4) + e mod 4 = e.
  const IndexExpr e = x(1) * 7 + x(2);
  IndexExpr split = IndexExpr::floorDiv(e, 4, ext) * 4;
  split.addScaled(IndexExpr::mod(e, 4, ext), 1);
  CHECK(split == e);
}

TEST_CASE("index expressions print as C with parenthesised atoms", "[indexexpr]") {
  VarExtents ext{32};
  IndexExpr e = IndexExpr::floorDiv(x(0), 4, ext) * 128 + 5;
  CHECK(e.toString({"h"}, ext) == "128 * (h / 4) + 5");
  // An operand that may be negative needs floor semantics: the kernel
  // library's function in code, the bare name in diagnostics.
  IndexExpr reversed = IndexExpr::floorDiv(x(0) * -1, 4, ext);
  CHECK(reversed.toString({"h"}, ext).find("tcx::floordiv(") != std::string::npos);
  CHECK(reversed.toString().rfind("floordiv(", 0) == 0);
  CHECK((x(0) * 2 - 3).toString() == "2 * x0 - 3");
  CHECK(e.nonAffinePart().mentions(0));
  CHECK(e.coefficientOf(0) == 0);
  CHECK_FALSE(e.isAffine());
}
