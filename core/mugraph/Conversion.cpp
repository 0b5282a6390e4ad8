#include "mugraph/Conversion.h"

#include "ops/OpDef.h"
#include "support/Error.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace tcx::mugraph {

namespace {

bool isScalarConstant(const Value* v) { return v && v->isConstant() && v->constant().numElements() == 1; }

// The registry's μGraph forms (OpDef::muGraph) build through this: handles
// are indices into the kernel graph's tensors that the conversion made.
class Converter final : public MuGraphBuilder {
public:
  explicit Converter(KernelGraph& k) : k_(k) {}

  // Graph values enter as inputs (weights included), or as Constant
  // operators when they hold one element.
  Handle value(const Value* v) override {
    if (auto it = handles_.find(v); it != handles_.end()) return it->second;
    Handle h = make(isScalarConstant(v) ? k_.constant(v->constant().elementAsDouble(0))
                                        : k_.input(v->name(), v->type().shape, v->type().dtype));
    handles_[v] = h;
    return h;
  }

  void convert(const Node& n) {
    try {
      NodeClass c = classifyNode(n);
      if (!c.convertible) raise(ErrorKind::Unsupported, "{}", c.reason);
      Handle result = n.op().muGraph.lower(n, *this);
      handles_[n.output(0)] = result;
    } catch (const Error& e) {
      throw e.withContext(n.describe());
    }
  }

  TensorRef ref(const Value* v) const { return at(handles_.at(v)); }

  Handle constant(double value) override { return make(k_.constant(value)); }
  Handle add(Handle x, Handle y) override { return make(k_.add(at(x), at(y))); }
  Handle mul(Handle x, Handle y) override { return make(k_.mul(at(x), at(y))); }
  Handle div(Handle x, Handle y) override { return make(k_.div(at(x), at(y))); }
  Handle exp(Handle x) override { return make(k_.exp(at(x))); }
  Handle sqrt(Handle x) override { return make(k_.sqrt(at(x))); }
  Handle square(Handle x) override { return make(k_.square(at(x))); }
  Handle sum(Handle x, int dim, int64_t group) override { return make(k_.sum(at(x), dim, group)); }
  Handle reshape(Handle x, Shape shape) override { return make(k_.reshape(at(x), std::move(shape))); }
  Handle repeat(Handle x, Shape factors) override { return make(k_.repeat(at(x), std::move(factors))); }
  Handle matmul(Handle x, Handle y) override { return make(k_.matmul(at(x), at(y))); }

private:
  Handle make(TensorRef t) {
    refs_.push_back(t);
    return static_cast<Handle>(refs_.size() - 1);
  }
  TensorRef at(Handle h) const { return refs_.at(static_cast<size_t>(h)); }

  KernelGraph& k_;
  std::vector<TensorRef> refs_;
  std::unordered_map<const Value*, Handle> handles_;
};

} // namespace

NodeClass classifyNode(const Node& node) {
  const MuGraphForm& form = node.op().muGraph;
  if (!form.lower) return {false, false, 0, node.opType() + " has no μGraph operator"};
  if (form.unsupported)
    if (std::optional<std::string> why = form.unsupported(node)) return {false, false, 0, *why};
  if (!form.lax) return {true, false, form.exps, node.opType() + " is not LAX"};
  return {true, true, form.exps, ""};
}

KernelGraph toMuGraph(std::span<const Node* const> nodes, const std::string& name) {
  KernelGraph k(name);
  Converter c(k);
  std::set<const Node*> inside(nodes.begin(), nodes.end());
  for (const Node* n : nodes) {
    for (size_t i = 0; i < std::min(n->numInputs(), n->op().muGraph.dataOperands); ++i)
      if (const Value* v = n->input(i); !v->producer() || !inside.count(v->producer())) c.value(v);
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
