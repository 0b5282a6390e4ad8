// The finite-field verifier: field arithmetic, the trial count, equivalent
// pairs that must pass and mutants that must be rejected.
#include "Programs.h"

#include "mugraph/Lax.h"
#include "support/Error.h"
#include "verify/ExpTerms.h"
#include "verify/FieldDomain.h"
#include "verify/FiniteFieldVerifier.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::mugraph::testing;
using namespace tcx::verify;

namespace {

bool isPrime(uint64_t n) {
  for (uint64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return n > 1;
}

VerifyResult check(const KernelGraph& a, const KernelGraph& b) {
  VerifyOptions options;
  options.seed = 42;
  return FiniteFieldVerifier(options).verify(a, b);
}

} // namespace

TEST_CASE("the fields: p and q prime, q | p - 1, ω a non-trivial q-th root of unity", "[verify]") {
  CHECK(isPrime(FiniteField::kP));
  CHECK(isPrime(FiniteField::kQ));
  std::mt19937_64 rng(7);
  FiniteField f(rng);
  CHECK(f.omega() != 1);
  CHECK(f.p().pow(f.omega(), FiniteField::kQ) == 1);
  FiniteField other(rng);
  CHECK(other.omega() != f.omega()); // fresh per trial
  for (uint64_t a : {uint64_t{1}, uint64_t{2}, FiniteField::kP - 1, uint64_t{123456789012}})
    CHECK(f.p().mul(a, f.p().inverse(a)) == 1);
  CHECK(f.p().mul(FiniteField::kP - 1, FiniteField::kP - 1) == 1); // (-1)^2, through 128-bit products
  // exp turns sums in Z_q into products in Z_p.
  FieldDomain d(f);
  FieldElement x{5, FiniteField::kQ - 3}, y{9, 10};
  CHECK(d.mul(d.exp(x), d.exp(y)) == d.exp(d.add(x, y)));
  CHECK_THROWS_AS(d.div(x, FieldElement{0, 1}), FieldDivisionByZero);
  CHECK_THROWS_WITH(d.exp(d.exp(x)), Catch::Contains("second exponentiation"));
}

TEST_CASE("trials follow t = ceil(k ln(1/δ))", "[verify]") {
  CHECK(FiniteFieldVerifier::trialsFor(0x1p-40, 1) == 28);
  CHECK(FiniteFieldVerifier::trialsFor(0x1p-40, 10) == 278);
  CHECK(FiniteFieldVerifier::trialsFor(1, 5) == 1);
  CHECK_THROWS_AS(FiniteFieldVerifier::trialsFor(0, 1), Error);
}

TEST_CASE("exponential terms are counted per output element", "[verify]") {
  CHECK(countExpTerms(lora({})) == 1);
  // sum_j e^(s_j) v_j / sum_j e^(s_j) over 8 keys: 8 x 8 terms.
  CHECK(countExpTerms(attention({1, 1, 1, 8, 2})) == 64);
  CHECK(countExpTerms(flashDecoding({2, 2, 1, 8, 4}, 2, 2)) == 64);
}

TEST_CASE("LAX: at most one exp per path, no square roots", "[verify]") {
  CHECK(checkLax(attention({})).lax);
  CHECK(checkLax(flashAttention({2, 2, 8, 16, 4}, 2, 2)).lax);
  KernelGraph twice("twice");
  twice.markOutput(twice.exp(twice.exp(twice.input("x", {4}))));
  LaxCheck c = checkLax(twice);
  CHECK_FALSE(c.lax);
  CHECK(c.reason == "op 2 (EwExp) is a second exponentiation on a path");
  KernelGraph norm("norm");
  norm.markOutput(norm.rmsNorm(norm.input("x", {2, 4}), 1e-6));
  CHECK(checkLax(norm).reason == "op 1 (RMSNorm) is not LAX");
}

TEST_CASE("equivalent pairs are verified with the requested bound", "[verify]") {
  AttentionShape dec{2, 2, 1, 8, 4};
  for (const KernelGraph& g : {flashDecoding(dec, 2, 2), flashDecoding(dec, 1, 8)}) {
    VerifyResult r = check(g, attention(dec));
    CHECK(r.verdict == Verdict::Equivalent);
    CHECK(r.k == 128);
    CHECK(r.trials == FiniteFieldVerifier::trialsFor(0x1p-40, 128));
    CHECK(r.delta <= 0x1p-40);
  }
  AttentionShape gqa{4, 2, 1, 4, 2};
  CHECK(check(mirageGqa(gqa, 2, 2), attention(gqa)).verdict == Verdict::Equivalent);
  AttentionShape pre{2, 2, 4, 4, 2};
  CHECK(check(flashAttention(pre, 2, 2), attention(pre)).verdict == Verdict::Equivalent);
  VerifyResult l = check(loraConcat({}), lora({}));
  CHECK(l.verdict == Verdict::Equivalent);
  CHECK(l.k == 2);
  CHECK(l.trials == 56);
}

TEST_CASE("algebraic rewrites are equivalent", "[verify]") {
  auto program = [](const char* name, auto body) {
    KernelGraph k(name);
    TensorRef x = k.input("x", {3, 3}), y = k.input("y", {3, 3}), z = k.input("z", {3, 3});
    k.markOutput(body(k, x, y, z));
    return k;
  };
  auto distributed = program("xz+yz", [](KernelGraph& k, TensorRef x, TensorRef y, TensorRef z) {
    return k.add(k.matmul(x, z), k.matmul(y, z));
  });
  auto factored =
      program("(x+y)z", [](KernelGraph& k, TensorRef x, TensorRef y, TensorRef z) { return k.matmul(k.add(x, y), z); });
  CHECK(check(distributed, factored).verdict == Verdict::Equivalent);
  auto expProduct =
      program("e^x e^y", [](KernelGraph& k, TensorRef x, TensorRef y, TensorRef) { return k.mul(k.exp(x), k.exp(y)); });
  auto expSum =
      program("e^(x+y)", [](KernelGraph& k, TensorRef x, TensorRef y, TensorRef) { return k.exp(k.add(x, y)); });
  CHECK(check(expProduct, expSum).verdict == Verdict::Equivalent);
  auto nested =
      program("(x/y)/z", [](KernelGraph& k, TensorRef x, TensorRef y, TensorRef z) { return k.div(k.div(x, y), z); });
  auto flat =
      program("x/(yz)", [](KernelGraph& k, TensorRef x, TensorRef y, TensorRef z) { return k.div(x, k.mul(y, z)); });
  CHECK(check(nested, flat).verdict == Verdict::Equivalent);
  auto sumAll = program("sum", [](KernelGraph& k, TensorRef x, TensorRef, TensorRef) { return k.sum(x, 1, 3); });
  auto sumSquare =
      program("x sum", [](KernelGraph& k, TensorRef x, TensorRef, TensorRef) { return k.square(k.sum(x, 1, 3)); });
  CHECK(check(sumAll, sumSquare).verdict == Verdict::NotEquivalent);
}

TEST_CASE("mutants are rejected on the first trial that differs", "[verify]") {
  AttentionShape s{2, 2, 1, 8, 4};
  for (Mutation m : {Mutation::WrongImap, Mutation::SwappedOperands, Mutation::MisalignedPartition}) {
    VerifyResult r = check(flashDecoding(s, 2, 2, m), attention(s));
    CHECK(r.verdict == Verdict::NotEquivalent);
    REQUIRE(r.firstDifference.has_value());
    CHECK(r.firstDifference->a != r.firstDifference->b);
  }
  CHECK(check(loraConcat({}, Mutation::DroppedTerm), lora({})).verdict == Verdict::NotEquivalent);
  KernelGraph swapped("yx");
  TensorRef x = swapped.input("x", {3, 3}), y = swapped.input("y", {3, 3});
  swapped.markOutput(swapped.matmul(y, x));
  KernelGraph straight("xy");
  x = straight.input("x", {3, 3});
  y = straight.input("y", {3, 3});
  straight.markOutput(straight.matmul(x, y));
  CHECK(check(swapped, straight).verdict == Verdict::NotEquivalent);
}

TEST_CASE("programs outside LAX get a float test and stay unproven", "[verify]") {
  auto norm = [](bool manual, double eps) {
    KernelGraph k("norm");
    TensorRef x = k.input("x", {2, 8});
    if (!manual) {
      k.markOutput(k.rmsNorm(x, eps));
      return k;
    }
    TensorRef ms = k.div(k.sum(k.square(x), 1, 8), k.constant(8));
    k.markOutput(k.div(x, k.sqrt(k.add(ms, k.constant(eps)))));
    return k;
  };
  VerifyResult r = check(norm(false, 1e-6), norm(true, 1e-6));
  CHECK(r.verdict == Verdict::UnprovenFloat);
  CHECK(r.delta == 1);
  CHECK_THAT(r.notLax, Catch::Contains("RMSNorm) is not LAX"));
  CHECK(check(norm(false, 1e-6), norm(true, 0.5)).verdict == Verdict::NotEquivalent);
}

TEST_CASE("inputs that make every trial divide by zero are reported", "[verify]") {
  KernelGraph k("zero");
  TensorRef x = k.input("x", {2});
  k.markOutput(k.div(x, k.add(x, k.mul(x, k.constant(-1)))));
  CHECK_THROWS_WITH(check(k, k), Catch::Contains("a denominator is identically zero"));
  CHECK_THROWS_WITH(check(k, lora({})), Catch::Contains("takes 1 inputs but 'lora' takes 4"));
}
