#include "vt/Contiguity.h"
#include "index/MappingFunction.h"
#include "vt/RowWalker.h"

#include <catch2/catch.hpp>

using namespace tcx;

namespace {

// The GQA key path of a Llama decode step: cache [B,S,KV,D] -> Unsqueeze(3)
// -> Expand(rep) -> Reshape [B,S,H,D] -> Transpose(0,2,3,1) = [B,H,D,S].
MappingFunction gqaKeys(int64_t b, int64_t s, int64_t kv, int64_t rep, int64_t d) {
  Shape cache{b, s, kv, d}, unsq{b, s, kv, 1, d}, expanded{b, s, kv, rep, d}, heads{b, s, kv * rep, d}, kT{b, kv * rep, d, s};
  auto unsqueeze = MappingFunction::reshape(unsq, cache);
  std::vector<std::vector<int64_t>> eye(5, std::vector<int64_t>(5, 0));
  for (int i : {0, 1, 2, 4}) eye[i][i] = 1;
  auto expand = MappingFunction::affine(expanded, unsq, eye, {0, 0, 0, 0, 0});
  auto reshape = MappingFunction::reshape(heads, expanded);
  auto transpose = MappingFunction::affine(kT, heads, {{1, 0, 0, 0}, {0, 0, 0, 1}, {0, 1, 0, 0}, {0, 0, 1, 0}}, {0, 0, 0, 0});
  return transpose.composeSources({reshape}).composeSources({expand}).composeSources({unsqueeze});
}

// The piece of a [rows, cols] mapping for columns [lo, hi) reading source
// `source` at (x0, x1 - shift): one part of a concatenation along axis 1.
MappingPiece columns(int source, int64_t lo, int64_t hi, int64_t shift) {
  MappingPiece p;
  p.where = {{IndexExpr::var(1), lo, hi}};
  p.source = source;
  p.index = {IndexExpr::var(0), IndexExpr::var(1) - shift};
  return p;
}

} // namespace

TEST_CASE("composing GQA's data movement gives one mapping onto the cache", "[mapping]") {
  MappingFunction f = gqaKeys(2, 6, 2, 4, 3);
  REQUIRE(f.pieces().size() == 1);
  // kT[b, h, d, s] = cache[b, s, h / 4, d]
  const Shape& src = f.sourceShapes()[f.pieces()[0].source];
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t h = 0; h < 8; ++h)
      for (int64_t d = 0; d < 3; ++d)
        for (int64_t s = 0; s < 6; ++s) {
          int64_t x[] = {b, h, d, s};
          auto t = f.evaluate(x);
          REQUIRE(t.offset == ((b * src[1] + s) * src[2] + h / 4) * src[3] + d);
        }
  // The index-dependent bias is the head division; the last dimension has
  // stride KV*D, so the logical order is not contiguous at all (Type II).
  Contiguity c = analyzeContiguity(f, 2);
  CHECK(c.minContiguousDim == 4);
  CHECK_FALSE(c.full);
}

TEST_CASE("split outputs are contiguous along axis 0 and strided along others", "[mapping][contiguity]") {
  // Output 1 of Split([4, 6], axis 0) over input [10, 8]: Type I (VTC 4.4).
  auto axis0 = MappingFunction::affine({6, 8}, {10, 8}, {{1, 0}, {0, 1}}, {4, 0});
  Contiguity c0 = analyzeContiguity(axis0, 4);
  CHECK(c0.full);
  CHECK(opportunityType(c0) == OpportunityType::TypeI);
  // Split along axis 1: runs of 6 elements (24 bytes) are below 128 bytes.
  auto axis1 = MappingFunction::affine({10, 6}, {10, 8}, {{1, 0}, {0, 1}}, {0, 2});
  Contiguity c1 = analyzeContiguity(axis1, 4);
  CHECK(c1.minContiguousDim == 1);
  CHECK(c1.runElements == 6);
  CHECK_FALSE(c1.partial);
  CHECK(analyzeContiguity(MappingFunction::affine({16, 64}, {16, 128}, {{1, 0}, {0, 1}}, {0, 64}), 4).partial);
}

TEST_CASE("piecewise mappings cover once and walk row by row", "[mapping][rowwalker]") {
  // Concat of [2,3] and [2,5] along axis 1, as a mapping of the output.
  MappingFunction f({2, 8}, {{2, 3}, {2, 5}});
  const MappingPiece a = columns(0, 0, 3, 0), b = columns(1, 3, 8, 3);
  f.addPiece(a);
  f.addPiece(b);
  CHECK(f.coversExactlyOnce());
  RowWalker walker(f);
  int rows = 0;
  walker.forEachRow([&](int64_t row, const std::vector<int64_t>&, const std::vector<RowSegment>& segs) {
    REQUIRE(segs.size() == 2);
    CHECK(segs[0].lo == 0);
    CHECK(segs[0].hi == 3);
    CHECK(segs[0].base == row * 3);
    CHECK(segs[1].lo == 3);
    CHECK(segs[1].hi == 8);
    CHECK(segs[1].base + segs[1].stride * 3 == row * 5);
    ++rows;
  });
  CHECK(rows == 2);
  MappingFunction gap({2, 8}, {{2, 3}});
  gap.addPiece(a);
  CHECK_FALSE(gap.coversExactlyOnce());
}

TEST_CASE("pieces that come to read one source at one offset become one unguarded piece", "[mapping]") {
  // A concatenation [2, 8] of parts [2, 3] and [2, 5], each already a view of the columns of one [2, 8] buffer
  // (their first 3 and last 5): remapped onto that buffer, both pieces read it at 8 x0 + x1.
  MappingFunction parts({2, 8}, {{2, 8}, {2, 8}});
  parts.addPiece(columns(0, 0, 3, 0));
  parts.addPiece(columns(1, 3, 8, 0));
  const MappingFunction whole = parts.remapSources({0, 0}, {{2, 8}});
  REQUIRE(whole.pieces().size() == 1);
  CHECK(whole.pieces()[0].where.empty());
  CHECK(whole.coversExactlyOnce());
  const int64_t x[2] = {1, 5};
  CHECK(whole.evaluate(x).offset == 13);

  INFO("onto two buffers, or one at different offsets, the pieces stay");
  CHECK(parts.remapSources({0, 1}, {{2, 8}, {2, 8}}).pieces().size() == 2);
  MappingFunction shifted({2, 8}, {{2, 8}, {2, 8}});
  shifted.addPiece(columns(0, 0, 3, 0));
  shifted.addPiece(columns(1, 3, 8, 3));
  CHECK(shifted.remapSources({0, 0}, {{2, 8}}).pieces().size() == 2);
}

TEST_CASE("resolving every source at once maps each index where the outer and then the inner mapping send it",
          "[mapping]") {
  // A concatenation [2, 8] of three parts, [2, 3], [2, 2] and [2, 3]: the first a transposed view of a [3, 2] buffer,
  // the second of columns 2 and 3 of a [2, 6] buffer, the third a column of each of two [2, 2] buffers and a fill.
  MappingFunction concat({2, 8}, {{2, 3}, {2, 2}, {2, 3}});
  concat.addPiece(columns(0, 0, 3, 0));
  concat.addPiece(columns(1, 3, 5, 3));
  concat.addPiece(columns(2, 5, 8, 5));
  const MappingFunction transposed = MappingFunction::affine({2, 3}, {3, 2}, {{0, 1}, {1, 0}}, {0, 0});
  const MappingFunction middle = MappingFunction::affine({2, 2}, {2, 6}, {{1, 0}, {0, 1}}, {0, 2});
  MappingFunction split({2, 3}, {{2, 2}, {2, 2}});
  split.addPiece(columns(0, 0, 1, 0));
  split.addPiece(columns(1, 1, 2, 0));
  MappingPiece fill;
  fill.where = {{IndexExpr::var(1), 2, 3}};
  fill.source = MappingPiece::kFill;
  fill.fillValue = 1.5;
  split.addPiece(fill);

  const std::vector<MappingFunction> inners{transposed, middle, split};
  const MappingFunction once = concat.composeSources(inners);
  REQUIRE(once.sourceShapes() == std::vector<Shape>{{3, 2}, {2, 6}, {2, 2}, {2, 2}});
  CHECK(once.coversExactlyOnce());
  const int firstSource[] = {0, 1, 2}; // where each inner's sources begin among the result's
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t c = 0; c < 8; ++c) {
      INFO("x = (" << r << ", " << c << ")");
      // The reference: the concatenation's part and the index into it, then that part's own mapping.
      const int64_t x[2] = {r, c};
      const auto outer = concat.evaluate(x);
      REQUIRE(outer.source >= 0);
      const Shape& part = concat.sourceShapes()[outer.source];
      const int64_t y[2] = {outer.offset / part[1], outer.offset % part[1]};
      const auto inner = inners[outer.source].evaluate(y);
      const auto a = once.evaluate(x);
      CHECK(a.source == (inner.source == MappingPiece::kFill ? MappingPiece::kFill
                                                                 : firstSource[outer.source] + inner.source));
      CHECK(a.offset == inner.offset);
      CHECK(a.fillValue == inner.fillValue);
    }
  const int64_t first[2] = {1, 2}, middleX[2] = {0, 4}, filled[2] = {1, 7};
  CHECK(once.evaluate(first).offset == 2 * 2 + 1); // transposed: buffer [3, 2] at (2, 1)
  CHECK(once.evaluate(middleX).offset == 3);       // columns 2.. of the [2, 6] buffer: (0, 3)
  CHECK(once.evaluate(filled).source == MappingPiece::kFill);
  CHECK(once.evaluate(filled).fillValue == 1.5);
}
