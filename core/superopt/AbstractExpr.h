#pragma once
// Abstract expressions (Mirage §4.3, Table 1): first-order terms that abstract
// the function a μGraph tensor computes by ignoring which element of an input
// an output element reads. They keep the operators and the sizes of
// reductions, which is what pruning needs: a prefix whose expression cannot
// be part of the reference program's expression cannot lead to it.
//
// Terms are immutable and shared; each carries a structural hash and a
// canonical string (the solver cache's key). Sum sizes are kept as written
// (sum(4096, x)); the solver works with their base-2 logarithms so that
// nested sums add (sum(i, sum(j, x)) = sum(i*j, x) becomes linear).
//
// Beyond Table 1: Sqrt is an uninterpreted function (it is outside LAX, but
// RMSNorm programs still search); Square is mul(x, x); SiLU and RMSNorm are
// expanded to the terms of their definitions, so a program written with the
// fused operator and one written with its parts get the same expression.

#include "mugraph/MuGraph.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tcx::superopt {

class AbstractExpr;
using ExprRef = std::shared_ptr<const AbstractExpr>;

class AbstractExpr {
public:
  enum class Kind : uint8_t { Input, Constant, Add, Mul, Div, Exp, Sqrt, Sum };

  Kind kind() const { return kind_; }
  const std::string& name() const { return name_; } // Input
  double value() const { return value_; }           // Constant
  int64_t size() const { return size_; }            // Sum: how many terms are summed
  const ExprRef& lhs() const { return lhs_; }       // the only operand of Exp, Sqrt and Sum
  const ExprRef& rhs() const { return rhs_; }
  uint64_t hash() const { return hash_; }
  // Canonical text, e.g. "sum(4096,mul(q,k_t))": equal strings, equal terms.
  const std::string& str() const { return str_; }

  static ExprRef input(std::string name);
  static ExprRef constant(double value);
  static ExprRef add(ExprRef a, ExprRef b);
  static ExprRef mul(ExprRef a, ExprRef b);
  static ExprRef div(ExprRef a, ExprRef b);
  static ExprRef exp(ExprRef a);
  static ExprRef sqrt(ExprRef a);
  // sum(1, x) is x (Table 2's identity reduction, applied when building).
  static ExprRef sum(int64_t size, ExprRef a);

  AbstractExpr(Kind kind, std::string name, double value, int64_t size, ExprRef lhs, ExprRef rhs);

private:
  Kind kind_;
  std::string name_;
  double value_ = 0;
  int64_t size_ = 0;
  ExprRef lhs_, rhs_;
  uint64_t hash_ = 0;
  std::string str_;
};

// The expression of each output of `op`, appended to `graph` (whose
// descriptors give the sizes Table 1 needs: Matmul's reduction extent, an
// accumulator's for-loop extent), from the expressions of its operands.
// InputIterator: the caller passes the parent input's expression as the one
// operand. GraphDefined: the body is inlined (its iterators read `operands`).
// Input operators are named by their input name.
std::vector<ExprRef> exprsOf(const mugraph::OperatorGraph& graph, const mugraph::Operator& op,
                             std::span<const ExprRef> operands);

// The expression of every output of every operator of `graph`, indexed like
// graph.ops() then output; inputs are Input terms named after the inputs.
std::vector<std::vector<ExprRef>> exprsOf(const mugraph::KernelGraph& graph);

// The expression of the graph's first output.
ExprRef outputExpr(const mugraph::KernelGraph& graph);

} // namespace tcx::superopt
