// Abstract expressions (Mirage Table 1): terms and their text, the
// expressions of the test programs (Figure 6), and the fused operators
// against the terms the ONNX conversion writes for their definitions.
#include "Exprs.h"
#include "Programs.h"

#include "ops/GraphBuilder.h"
#include "ir/Tensor.h"
#include "mugraph/Conversion.h"
#include "superopt/AbstractExpr.h"
#include "superopt/ExprNormalForm.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::mugraph;
using namespace tcx::superopt;
using namespace tcx::superopt::exprs;

namespace {

using E = AbstractExpr;


} // namespace

TEST_CASE("abstract expressions print unambiguously and hash structurally", "[superopt][expr]") {
  ExprRef q = E::input("q"), k = E::input("k_t");
  CHECK(E::sum(64, E::mul(q, k))->str() == "sum(64,mul(q,k_t))");
  CHECK(E::div(E::exp(q), E::sqrt(k))->str() == "div(exp(q),sqrt(k_t))");
  CHECK(E::constant(-1)->str() == "#-1");
  CHECK(E::constant(0.1)->str() == "#0.10000000000000001");
  // Names that look like terms or constants are escaped.
  CHECK(E::input("#1")->str() == "\\#1");
  CHECK(E::input("add(a,b)")->str() == "add\\(a\\,b\\)");
  CHECK(E::input("add(a,b)")->str() != E::add(E::input("a"), E::input("b"))->str());
  // Operand order is kept: the solver, not the printer, knows add commutes.
  CHECK(E::add(q, k)->str() == "add(q,k_t)");
  CHECK(E::add(k, q)->str() == "add(k_t,q)");

  CHECK(E::sum(1, q) == q);
  CHECK_THROWS_AS(E::sum(0, q), Error);
  CHECK(E::mul(q, k)->hash() == E::mul(E::input("q"), E::input("k_t"))->hash());
  CHECK(E::mul(q, k)->hash() != E::mul(k, q)->hash());
  CHECK(E::sum(8, q)->hash() != E::sum(16, q)->hash());
  CHECK(E::constant(1)->hash() != E::constant(2)->hash());
}

TEST_CASE("attention's tensors have Figure 6's expressions", "[superopt][expr]") {
  KernelGraph k = testing::attention({1, 1, 64, 64, 64});
  std::vector<std::vector<ExprRef>> exprs = exprsOf(k);
  REQUIRE(exprs.size() == k.ops().size());
  const std::string s = "sum(64,mul(q,k_t))";
  const std::string p = "div(exp(" + s + "),sum(64,exp(" + s + ")))";
  CHECK(exprs[0][0]->str() == "q");
  CHECK(exprs[3][0]->str() == s);
  CHECK(exprs[4][0]->str() == "exp(" + s + ")");
  CHECK(exprs[5][0]->str() == "sum(64,exp(" + s + "))");
  CHECK(exprs[6][0]->str() == p);
  CHECK(outputExpr(k)->str() == "sum(64,mul(" + p + ",v))");
}

TEST_CASE("Repeat and Reshape keep the expression (GQA attention)", "[superopt][expr]") {
  CHECK(outputExpr(testing::attention({4, 2, 1, 8, 4}))->str() ==
        outputExpr(testing::attention({4, 4, 1, 8, 4}))->str());
}

TEST_CASE("graph-defined operators are inlined, accumulators sum their for-loop", "[superopt][expr]") {
  // Kernel 1 splits 8 keys into 2 chunks (grid, concatenated) x 2 iterations
  // (accumulated) of 2; kernel 2 sums the chunks.
  KernelGraph k = testing::flashDecoding({2, 2, 1, 8, 4}, 2, 2);
  std::vector<std::vector<ExprRef>> exprs = exprsOf(k);
  const std::string e = "exp(sum(4,mul(q,k_t)))";
  const int block = 3;
  REQUIRE(k.op(block).type == OpType::GraphDefined);
  REQUIRE(exprs[block].size() == 2);
  CHECK(exprs[block][0]->str() == "sum(2,sum(2,mul(" + e + ",v)))");
  CHECK(exprs[block][1]->str() == "sum(2,sum(2," + e + "))");
  CHECK(outputExpr(k)->str() ==
        "div(sum(2,sum(2,sum(2,mul(" + e + ",v)))),sum(2,sum(2,sum(2," + e + "))))");
  CHECK(outputExpr(k)->str() != outputExpr(testing::attention({2, 2, 1, 8, 4}))->str());

  // Thread graphs nest the same way: FlashAttention's exp runs in one.
  CHECK(outputExpr(testing::flashAttention({2, 2, 4, 8, 4}, 2, 2))->str() ==
        "div(sum(2,sum(4,mul(" + e + ",v))),sum(2,sum(4," + e + ")))");
}

TEST_CASE("one operator's expression from its operands' (the search's incremental use)", "[superopt][expr]") {
  KernelGraph k("ops");
  TensorRef x = k.input("x", {4, 8});
  TensorRef w = k.input("w", {8, 6});
  TensorRef a = k.input("a", {4, 2});
  TensorRef b = k.input("b", {2, 6});
  TensorRef cm = k.concatMatmul(x, a, w, b);
  TensorRef s = k.sum(k.square(x), 1, 4);
  ExprRef X = E::input("x"), W = E::input("w"), A = E::input("a"), B = E::input("b");
  CHECK(exprsOf(k, k.op(cm.op), std::vector{X, A, W, B})[0]->str() ==
        "add(sum(8,mul(x,w)),sum(2,mul(a,b)))");
  CHECK(exprsOf(k, k.op(s.op), std::vector{X})[0]->str() == "sum(4,x)");
  CHECK(exprsOf(k, k.op(s.op - 1), std::vector{X})[0]->str() == "mul(x,x)");
  CHECK(exprsOf(k, k.op(k.constant(0.5).op), {})[0]->str() == "#0.5");
  CHECK_THROWS_AS(exprsOf(k, k.op(cm.op), std::vector{X}), Error);
}

TEST_CASE("SiLU's expression is that of the ONNX x * Sigmoid(x) conversion", "[superopt][expr]") {
  // By hand, the chain Conversion writes for Sigmoid.
  KernelGraph chain("chain");
  TensorRef x = chain.input("x", {4, 8});
  TensorRef sig = chain.div(chain.constant(1),
                            chain.add(chain.constant(1), chain.exp(chain.mul(x, chain.constant(-1)))));
  chain.markOutput(chain.mul(x, sig));

  // Through the conversion itself.
  GraphBuilder b("gated_mlp_like");
  Value* in = b.input("x", DType::F32, {4, 8});
  b.output(b.op("Mul", {in, b.op("Sigmoid", {in})}));
  KernelGraph converted = toMuGraph(b.finish());

  KernelGraph fused("fused");
  fused.markOutput(fused.silu(fused.input("x", {4, 8})));

  const std::string expected = "mul(x,div(#1,add(#1,exp(mul(x,#-1)))))";
  CHECK(outputExpr(chain)->str() == expected);
  CHECK(outputExpr(converted)->str() == expected);
  CHECK(outputExpr(fused)->str() == expected);
}

TEST_CASE("RMSNorm's expression is that of the ONNX Pow/ReduceMean/Add/Sqrt/Div conversion", "[superopt][expr]") {
  GraphBuilder b("rmsnorm_like");
  Value* x = b.input("x", DType::F32, {4, 16});
  Value* sq = b.op("Pow", {x, b.constant("two", Tensor::filled(DType::F32, {}, 2.0))});
  Value* ms = b.op("ReduceMean", {sq, b.ints("axes", {-1})}, attrs({{"keepdims", 1}}));
  ms = b.op("Add", {ms, b.constant("eps", Tensor::filled(DType::F32, {}, 0.5))});
  b.output(b.op("Div", {x, b.op("Sqrt", {ms})}));
  KernelGraph converted = toMuGraph(b.finish());

  KernelGraph fused("fused");
  fused.markOutput(fused.rmsNorm(fused.input("x", {4, 16}), 0.5));

  const std::string expected = "div(x,sqrt(add(div(sum(16,mul(x,x)),#16),#0.5)))";
  CHECK(outputExpr(converted)->str() == expected);
  CHECK(outputExpr(fused)->str() == expected);
}

TEST_CASE("for-loop accumulations: RMSNorm's denominator over the loop, a division after it", "[superopt][expr]") {
  KernelGraph fused = testing::rmsNormFused({.tokens = 4, .in = 16, .out = 8, .epsilon = 0.5}, 2, 4);
  const PartitionedGraph& body = *fused.ops().back().body;
  // The loop's 4 iterations of 4 columns make RMSNorm's mean over 16.
  std::vector<ExprRef> x = {E::input("x")};
  CHECK(exprsOf(body, body.op(3), x)[0]->str() == "sqrt(add(div(sum(16,mul(x,x)),#16),#0.5))");
  // The output accumulator stores the division once: no sum over the loop.
  CHECK(outputExpr(fused)->str() ==
        "div(sum(4,sum(4,mul(mul(x,gamma),w))),sqrt(add(div(sum(16,mul(x,x)),#16),#0.5)))");
  CHECK((*normalForm(outputExpr(fused)))->key() ==
        (*normalForm(outputExpr(testing::rmsNormMatmul({.tokens = 4, .in = 16, .out = 8, .epsilon = 0.5}))))->key());
}
