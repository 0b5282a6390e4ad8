#include "mugraph/Conversion.h"

#include "ir/Tensor.h"
#include "support/Error.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace tcx::mugraph {

namespace {

bool isScalarConstant(const Value* v) { return v && v->isConstant() && v->constant().numElements() == 1; }

const std::set<std::string> kLaxOps = {"MatMul",  "Add",     "Sub",       "Mul",        "Div",     "Exp",
                                       "Sigmoid", "Softmax", "ReduceSum", "ReduceMean", "Reshape", "Unsqueeze",
                                       "Squeeze", "Flatten", "Expand",    "Identity",   "Cast"};

// Operands past these are shapes and axes (Reshape's shape, ReduceSum's
// axes, Pow's exponent): attributes in a μGraph, not tensors.
size_t dataOperands(const Node& n) {
  static const std::set<std::string> binary = {"MatMul", "Add", "Sub", "Mul", "Div"};
  return std::min(n.numInputs(), binary.count(n.opType()) ? size_t{2} : size_t{1});
}

class Converter {
public:
  explicit Converter(KernelGraph& k) : k_(k) {}

  TensorRef operand(const Value* v) {
    if (auto it = refs_.find(v); it != refs_.end()) return it->second;
    TensorRef t = isScalarConstant(v) ? k_.constant(v->constant().elementAsDouble(0))
                                      : k_.input(v->name(), v->type().shape, v->type().dtype);
    refs_[v] = t;
    return t;
  }

  void convert(const Node& n) {
    try {
      refs_[n.output(0)] = lower(n);
    } catch (const Error& e) {
      throw e.withContext(n.describe());
    }
  }

  TensorRef ref(const Value* v) const { return refs_.at(v); }

private:
  TensorRef in(const Node& n, size_t i) { return operand(n.input(i)); }
  const Shape& outShape(const Node& n) const { return n.output(0)->type().shape; }

  // Reduce over `axes` (all of them, keeping dims), then drop them if asked.
  TensorRef reduce(const Node& n, bool mean) {
    const Shape& shape = n.input(0)->type().shape;
    std::vector<int64_t> axes;
    if (n.input(1) && n.input(1)->isConstant())
      for (int64_t i = 0; i < n.input(1)->constant().numElements(); ++i)
        axes.push_back(static_cast<int64_t>(n.input(1)->constant().elementAsDouble(i)));
    else
      axes = n.attrs().getInts("axes", {});
    if (axes.empty())
      for (size_t d = 0; d < shape.size(); ++d) axes.push_back(static_cast<int64_t>(d));
    TensorRef t = in(n, 0);
    int64_t count = 1;
    for (int64_t a : axes) {
      int64_t d = normalizeAxis(a, static_cast<int64_t>(shape.size()));
      t = k_.sum(t, static_cast<int>(d), shape[d]);
      count *= shape[d];
    }
    if (mean) t = k_.div(t, k_.constant(static_cast<double>(count)));
    return k_.desc(t).shape == outShape(n) ? t : k_.reshape(t, outShape(n));
  }

  TensorRef negate(TensorRef x) { return k_.mul(x, k_.constant(-1)); }

  TensorRef lower(const Node& n) {
    const std::string& op = n.opType();
    if (op == "MatMul") return matmul(in(n, 0), in(n, 1), outShape(n));
    if (op == "Add") return k_.add(in(n, 0), in(n, 1));
    if (op == "Sub") return k_.add(in(n, 0), negate(in(n, 1)));
    if (op == "Mul") return k_.mul(in(n, 0), in(n, 1));
    if (op == "Div") return k_.div(in(n, 0), in(n, 1));
    if (op == "Exp") return k_.exp(in(n, 0));
    if (op == "Sqrt") return k_.sqrt(in(n, 0));
    if (op == "Pow") return k_.square(in(n, 0)); // classifyNode admits exponent 2 only
    if (op == "Sigmoid") {                       // 1 / (1 + e^-x)
      TensorRef one = k_.constant(1);
      return k_.div(one, k_.add(one, k_.exp(negate(in(n, 0)))));
    }
    if (op == "Softmax") { // over the last axis (classifyNode checks)
      TensorRef e = k_.exp(in(n, 0));
      const Shape& s = outShape(n);
      return k_.div(e, k_.sum(e, static_cast<int>(s.size()) - 1, s.back()));
    }
    if (op == "ReduceSum" || op == "ReduceMean") return reduce(n, op == "ReduceMean");
    if (op == "Reshape" || op == "Unsqueeze" || op == "Squeeze" || op == "Flatten")
      return k_.reshape(in(n, 0), outShape(n));
    if (op == "Identity" || op == "Cast") return in(n, 0);
    if (op == "Expand") return expand(n);
    raise(ErrorKind::Unsupported, "{} has no μGraph operator", op);
  }

  TensorRef matmul(TensorRef x, TensorRef y, const Shape& out) {
    Shape xs = k_.desc(x).shape, ys = k_.desc(y).shape;
    if (xs.size() == ys.size()) return k_.matmul(x, y);
    TCX_CHECK(ys.size() == 2 && xs.size() > 2, ErrorKind::Unsupported, "MatMul with batch broadcasting");
    // [..., m, k] x [k, n]: fold the batch into the rows.
    TensorRef rows = k_.reshape(x, {numElements(xs) / xs.back(), xs.back()});
    return k_.reshape(k_.matmul(rows, y), out);
  }

  TensorRef expand(const Node& n) {
    const Shape& out = outShape(n);
    Shape s = n.input(0)->type().shape;
    TensorRef t = in(n, 0);
    if (s.size() < out.size()) {
      s.insert(s.begin(), out.size() - s.size(), 1);
      t = k_.reshape(t, s);
    }
    Shape factors(out.size());
    for (size_t d = 0; d < out.size(); ++d) factors[d] = s[d] == out[d] ? 1 : out[d];
    return k_.repeat(t, factors);
  }

  KernelGraph& k_;
  std::unordered_map<const Value*, TensorRef> refs_;
};

} // namespace

NodeClass classifyNode(const Node& node) {
  const std::string& op = node.opType();
  if (op == "Sqrt") return {true, false, 0, "Sqrt is not LAX"};
  if (op == "Pow") {
    const Value* e = node.input(1);
    if (isScalarConstant(e) && e->constant().elementAsDouble(0) == 2.0) return {true, true, 0, ""};
    return {false, false, 0, "Pow with an exponent other than a constant 2 has no μGraph operator"};
  }
  if (op == "Softmax") {
    int64_t rank = static_cast<int64_t>(node.input(0)->type().shape.size());
    if (normalizeAxis(node.attrs().getInt("axis", -1), rank) != rank - 1)
      return {false, false, 0, "Softmax over an axis other than the last has no μGraph operator"};
  }
  if (!kLaxOps.count(op)) return {false, false, 0, op + " has no μGraph operator"};
  int exps = op == "Exp" || op == "Sigmoid" || op == "Softmax" ? 1 : 0;
  return {true, true, exps, ""};
}

KernelGraph toMuGraph(std::span<const Node* const> nodes, const std::string& name) {
  KernelGraph k(name);
  Converter c(k);
  std::set<const Node*> inside(nodes.begin(), nodes.end());
  for (const Node* n : nodes) {
    for (size_t i = 0; i < dataOperands(*n); ++i)
      if (const Value* v = n->input(i); !v->producer() || !inside.count(v->producer())) c.operand(v);
    c.convert(*n);
  }
  for (const Node* n : nodes) {
    const Value* v = n->output(0);
    bool usedOutside = v->isGraphOutput() || std::any_of(v->uses().begin(), v->uses().end(),
                                                         [&](const Use& u) { return !inside.count(u.user); });
    if (usedOutside) k.markOutput(c.ref(v));
  }
  return k;
}

KernelGraph toMuGraph(const Graph& graph) {
  std::vector<Node*> nodes = graph.nodes();
  std::vector<const Node*> all(nodes.begin(), nodes.end());
  return toMuGraph(all, graph.name);
}

} // namespace tcx::mugraph
