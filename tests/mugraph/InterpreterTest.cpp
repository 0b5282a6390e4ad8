// The float interpreter runs the hand-written μGraphs of Mirage Figure 4 to
// the same values as the plain attention program.
#include "Programs.h"

#include "mugraph/FloatDomain.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::mugraph::testing;


TEST_CASE("plain attention matches a direct softmax", "[mugraph][interpreter]") {
  AttentionShape s{1, 1, 1, 4, 2};
  FloatDomain d;
  DenseTensor<double> q({1, 1, 2}, 0), kt({1, 2, 4}, 0), v({1, 4, 2}, 0);
  q.data = {1, 2};
  kt.data = {1, 0, -1, 0.5, 0, 1, 0, -1};
  v.data = {1, 2, 3, 4, 5, 6, 7, 8};
  auto out = Interpreter<FloatDomain>(d).run(attention(s), {q, kt, v});
  double scores[4] = {1, 2, -1, -1.5}, z = 0, o0 = 0, o1 = 0;
  for (int j = 0; j < 4; ++j) z += std::exp(scores[j]);
  for (int j = 0; j < 4; ++j) {
    o0 += std::exp(scores[j]) / z * v.data[2 * j];
    o1 += std::exp(scores[j]) / z * v.data[2 * j + 1];
  }
  REQUIRE(out[0].shape == Shape{1, 1, 2});
  CHECK(out[0].data[0] == Approx(o0));
  CHECK(out[0].data[1] == Approx(o1));
}

TEST_CASE("FlashDecoding (Figure 4b) computes attention", "[mugraph][interpreter]") {
  AttentionShape s{2, 2, 1, 8, 4};
  CHECK(maxDifference(flashDecoding(s, 2, 2), attention(s)) < 1e-12);
  CHECK(maxDifference(flashDecoding(s, 4, 2), attention(s)) < 1e-12);
  CHECK(maxDifference(flashDecoding(s, 1, 8), attention(s)) < 1e-12);
}

TEST_CASE("Mirage's GQA μGraph (Figure 4c) computes grouped-query attention", "[mugraph][interpreter]") {
  AttentionShape s{8, 2, 1, 8, 4};
  CHECK(maxDifference(mirageGqa(s, 2, 2), attention(s)) < 1e-12);
  AttentionShape spec{4, 1, 2, 8, 4}; // speculative decoding: 2 query tokens
  CHECK(maxDifference(mirageGqa(spec, 4, 1), attention(spec)) < 1e-12);
}

TEST_CASE("Matmul broadcasts batch dims: GQA's query heads meet their one key head", "[mugraph][interpreter]") {
  AttentionShape s{8, 2, 1, 32, 4};
  CHECK(maxDifference(gqaFlashAttention(s, 4), attention(s)) < 1e-12);
  AttentionShape spec{4, 1, 2, 16, 4};
  CHECK(maxDifference(gqaFlashAttention(spec, 2), attention(spec)) < 1e-12);

  KernelGraph k("broadcast");
  TensorRef x = k.input("x", {2, 1, 3, 4});
  TensorRef y = k.input("y", {1, 5, 4, 6});
  CHECK(k.desc(k.matmul(x, y)).shape == Shape{2, 5, 3, 6});
  CHECK_THROWS_WITH(k.matmul(x, k.input("z", {3, 5, 4, 6})), Catch::Contains("batch dims differ"));
}

TEST_CASE("FlashAttention with a thread graph computes attention", "[mugraph][interpreter]") {
  AttentionShape s{2, 2, 8, 16, 4};
  CHECK(maxDifference(flashAttention(s, 2, 4), attention(s)) < 1e-12);
  CHECK(maxDifference(flashAttention(s, 8, 1), attention(s)) < 1e-12);
}

TEST_CASE("the float interpreter tells the mutants apart", "[mugraph][interpreter]") {
  AttentionShape s{2, 2, 1, 8, 4};
  for (Mutation m : {Mutation::WrongImap, Mutation::SwappedOperands, Mutation::MisalignedPartition})
    CHECK(maxDifference(flashDecoding(s, 2, 2, m), attention(s)) > 1e-3);
  CHECK(maxDifference(loraConcat({}), lora({})) < 1e-12);
  CHECK(maxDifference(loraConcat({}, Mutation::DroppedTerm), lora({})) > 1e-3);
}
