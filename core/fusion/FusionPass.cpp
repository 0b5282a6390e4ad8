#include "fusion/FusionPass.h"

#include "ops/OpDef.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace tcx {

namespace {

// Constants up to this many elements are compiled into kernels (scales,
// epsilons, shapes); larger ones are buffers the kernel reads.
constexpr int64_t kInlineConstantElements = 16;

FusionRole role(const Node* n) { return n->op().fusionRole; }
bool isElementwise(const Node* n) { return n->op().opClass == OpClass::Elementwise; }
bool isMatrixProduct(const Node* n) { return role(n) == FusionRole::MatrixProduct; }

// A softmax, or the sum that ends one written out (Exp, ReduceSum, Div):
// attention's score path holds exactly one.
bool endsSoftmax(const Node* n) {
  return role(n) == FusionRole::Softmax || role(n) == FusionRole::LogSoftmax || role(n) == FusionRole::SumReduction;
}

// What may lie between attention's two matrix products.
bool onScorePath(const Node* n) { return isElementwise(n) || endsSoftmax(n) || role(n) == FusionRole::MaxReduction; }

// The kernel a contraction anchors.
KernelKind contractionKind(const Node* n) {
  switch (role(n)) {
  case FusionRole::MatrixProduct:
  case FusionRole::GeneralMatrixProduct: return KernelKind::Gemm;
  case FusionRole::Convolution:
  case FusionRole::TransposedConvolution: return KernelKind::Conv;
  case FusionRole::None:
  case FusionRole::Softmax:
  case FusionRole::LogSoftmax:
  case FusionRole::SumReduction:
  case FusionRole::MaxReduction:
  case FusionRole::TypeConversion: break;
  }
  raise(ErrorKind::Internal, "contraction {} is neither a matrix product nor a convolution", n->opType());
}

KernelKind initialKind(const Node* n) {
  switch (n->op().opClass) {
  case OpClass::DataMovement: return KernelKind::DataMovement;
  case OpClass::Contraction: return contractionKind(n);
  case OpClass::Reduction:
  case OpClass::Normalization: return KernelKind::Reduction;
  case OpClass::Pooling: return KernelKind::Pooling;
  case OpClass::Elementwise:
  case OpClass::Metadata: return KernelKind::Elementwise;
  }
  return KernelKind::Elementwise;
}

struct Group {
  KernelKind kind;
  Node* anchor;
  std::vector<Node*> nodes;
  // Elements one pass of the kernel covers: an epilogue must iterate over
  // as many (a normalization's tail iterates over the reduction's input).
  int64_t iterationElements;
  bool alive = true;
};

class Fuser {
public:
  explicit Fuser(const Graph& graph) : graph_(graph), order_(graph.nodes()) {
    for (size_t i = 0; i < order_.size(); ++i) {
      Node* n = order_[i];
      position_[n] = i;
      const Value* iter = n->op().opClass == OpClass::Reduction || n->op().opClass == OpClass::Normalization
                              ? n->input(0)
                              : n->output(0);
      groups_.push_back({initialKind(n), n, {n}, iter ? iter->type().numElements() : 0});
      groupOf_[n] = i;
    }
  }

  KernelGraph run() {
    fuseAttention();
    for (Node* n : order_) fuseEpilogue(n);
    for (Node* n : order_) fusePrologue(n);
    return build();
  }

private:
  size_t group(const Node* n) const { return groupOf_.at(n); }

  void merge(size_t into, size_t from) {
    if (into == from) return;
    Group& g = groups_[from];
    for (Node* n : g.nodes) {
      groupOf_[n] = into;
      groups_[into].nodes.push_back(n);
    }
    g.nodes.clear();
    g.alive = false;
  }

  // Groups whose results `n` reads (constants and inputs excluded).
  std::vector<size_t> producerGroups(const Node* n) const {
    std::vector<size_t> out;
    for (const Value* in : n->inputs())
      if (in && in->producer()) out.push_back(group(in->producer()));
    return out;
  }

  // Whether group `to` is reachable from group `from` through other groups.
  bool reaches(size_t from, size_t to) const {
    std::vector<size_t> stack{from};
    std::unordered_set<size_t> seen{from};
    while (!stack.empty()) {
      size_t g = stack.back();
      stack.pop_back();
      for (const Node* n : groups_[g].nodes)
        for (const Value* out : n->outputs())
          for (const Use& u : out->uses()) {
            size_t next = group(u.user);
            if (next == to) return true;
            if (seen.insert(next).second) stack.push_back(next);
          }
    }
    return false;
  }

  // Merging `a` and `b` is safe when no path leaves one and re-enters the
  // other through a third group.
  bool mergeKeepsAcyclic(size_t a, size_t b) const {
    for (size_t g : {a, b}) {
      size_t other = g == a ? b : a;
      for (const Node* n : groups_[g].nodes)
        for (const Value* out : n->outputs())
          for (const Use& u : out->uses()) {
            size_t next = group(u.user);
            if (next != a && next != b && reaches(next, other)) return false;
          }
    }
    return true;
  }

  // Rule 1. From the second MatMul back along its first operand: element-
  // wise ops and exactly one softmax (Softmax, or Exp followed by a
  // ReduceSum and Div) down to the first MatMul; every intermediate result
  // stays inside the pattern.
  void fuseAttention() {
    for (Node* m2 : order_) {
      if (!isMatrixProduct(m2) || !m2->input(0) || !m2->input(0)->producer()) continue;
      std::vector<Node*> chain;
      Node* m1 = nullptr;
      int softmaxes = 0;
      bool ok = true;
      std::vector<Node*> stack{m2->input(0)->producer()};
      std::unordered_set<Node*> seen;
      while (!stack.empty() && ok) {
        Node* n = stack.back();
        stack.pop_back();
        if (!seen.insert(n).second) continue;
        if (isMatrixProduct(n)) {
          ok = m1 == nullptr || m1 == n;
          m1 = n;
          continue;
        }
        if (!onScorePath(n) || group(n) != position_.at(n)) {
          ok = false;
          break;
        }
        softmaxes += endsSoftmax(n);
        chain.push_back(n);
        for (const Value* in : n->inputs())
          if (in && in->producer() && !in->isConstant()) {
            Node* p = in->producer();
            // Operands from outside the score path (a mask) stay inputs.
            if (isMatrixProduct(p) || onScorePath(p)) stack.push_back(p);
          }
      }
      if (!ok || !m1 || softmaxes != 1 || group(m1) != position_.at(m1)) continue;
      std::unordered_set<const Node*> members(chain.begin(), chain.end());
      members.insert(m1);
      members.insert(m2);
      bool internal = true;
      for (const Node* n : members)
        if (n != m2)
          for (const Value* out : n->outputs()) {
            internal &= !out->isGraphOutput();
            for (const Use& u : out->uses()) internal &= members.count(u.user) != 0;
          }
      if (!internal) continue;
      size_t g = group(m2);
      merge(g, group(m1));
      for (Node* n : chain) merge(g, group(n));
      groups_[g].kind = KernelKind::Attention;
      groups_[g].anchor = m2;
    }
  }

  // Rule 2: an element-wise node joins the group of the producer of one of
  // its operands when it iterates over as many elements as that operand or
  // as the group (a normalization's tail after its reduced statistics).
  void fuseEpilogue(Node* n) {
    if (!isElementwise(n) || groups_[group(n)].nodes.size() != 1) return;
    int64_t elements = n->output(0)->type().numElements();
    for (const Value* in : n->inputs()) {
      if (!in || !in->producer()) continue;
      size_t g = group(in->producer());
      const Group& pg = groups_[g];
      bool sameElements = pg.iterationElements == elements || in->type().numElements() == elements;
      if (pg.kind == KernelKind::DataMovement || !sameElements) continue;
      if (!mergeKeepsAcyclic(g, group(n))) continue;
      merge(g, group(n));
      return;
    }
  }

  // Rule 3: an element-wise group whose results only a reduction reads
  // becomes that reduction's prologue.
  void fusePrologue(Node* r) {
    if (groups_[group(r)].kind != KernelKind::Reduction || r != groups_[group(r)].anchor) return;
    for (const Value* in : r->inputs()) {
      if (!in || !in->producer()) continue;
      size_t p = group(in->producer());
      if (p == group(r) || groups_[p].kind != KernelKind::Elementwise) continue;
      bool onlyForR = true;
      for (const Node* n : groups_[p].nodes)
        for (const Value* out : n->outputs()) {
          onlyForR &= !out->isGraphOutput();
          for (const Use& u : out->uses()) onlyForR &= group(u.user) == p || group(u.user) == group(r);
        }
      if (onlyForR && mergeKeepsAcyclic(p, group(r))) merge(group(r), p);
    }
  }

  // Kahn's algorithm over the group DAG (fusion kept it acyclic), stable in
  // the order of each group's first node.
  std::vector<size_t> topologicalOrder(std::vector<size_t> live) const {
    std::sort(live.begin(), live.end(), [&](size_t a, size_t b) {
      return position_.at(groups_[a].nodes.front()) < position_.at(groups_[b].nodes.front());
    });
    std::unordered_map<size_t, std::unordered_set<size_t>> preds;
    for (size_t g : live)
      for (const Node* n : groups_[g].nodes)
        for (size_t p : producerGroups(n))
          if (p != g) preds[g].insert(p);
    std::vector<size_t> order;
    std::unordered_set<size_t> done;
    while (order.size() < live.size()) {
      for (size_t g : live) {
        if (done.count(g)) continue;
        bool ready = true;
        for (size_t p : preds[g]) ready &= done.count(p) != 0;
        if (!ready) continue;
        order.push_back(g);
        done.insert(g);
        break;
      }
    }
    return order;
  }

  KernelGraph build() {
    KernelGraph kg(graph_);
    std::vector<size_t> live;
    for (size_t g = 0; g < groups_.size(); ++g)
      if (groups_[g].alive) {
        std::sort(groups_[g].nodes.begin(), groups_[g].nodes.end(),
                  [&](const Node* a, const Node* b) { return position_.at(a) < position_.at(b); });
        live.push_back(g);
      }
    live = topologicalOrder(live);
    for (size_t g : live) {
      const Group& grp = groups_[g];
      FusedKernel k;
      k.kind = grp.kind;
      k.anchor = grp.anchor;
      k.nodes = grp.nodes;
      k.name = grp.anchor->name();
      std::unordered_set<const Node*> members(grp.nodes.begin(), grp.nodes.end());
      for (Node* n : grp.nodes) {
        for (Value* in : n->inputs()) {
          if (!in || (in->producer() && members.count(in->producer()))) continue;
          if (in->isConstant() && in->type().numElements() <= kInlineConstantElements) continue;
          if (std::find(k.inputs.begin(), k.inputs.end(), in) == k.inputs.end()) k.inputs.push_back(in);
        }
        for (Value* out : n->outputs()) {
          bool external = out->isGraphOutput();
          for (const Use& u : out->uses()) external |= !members.count(u.user);
          if (external) k.outputs.push_back(out);
        }
      }
      kg.addKernel(std::move(k));
    }
    return kg;
  }

  const Graph& graph_;
  std::vector<Node*> order_;
  std::unordered_map<const Node*, size_t> position_;
  std::vector<Group> groups_;
  std::unordered_map<const Node*, size_t> groupOf_;
};

} // namespace

KernelGraph fuseOperators(const Graph& graph) { return Fuser(graph).run(); }

} // namespace tcx
