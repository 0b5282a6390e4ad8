#include "fusion/FusionPass.h"

#include "ops/OpDef.h"

#include <algorithm>
#include <functional>
#include <queue>
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
  case FusionRole::TypeConversion:
  case FusionRole::NanTest:
  case FusionRole::Select:
  case FusionRole::Reshape:
  case FusionRole::Product:
  case FusionRole::Quotient: break;
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
  std::vector<size_t> members; // positions in the topological order
  // Elements one pass of the kernel covers: an epilogue must iterate over
  // as many (a normalization's tail iterates over the reduction's input).
  int64_t iterationElements;
  bool alive = true;
};

class Fuser {
public:
  explicit Fuser(const Graph& graph)
      : graph_(graph), order_(graph.nodes()), users_(order_.size()), groupAt_(order_.size()), seen_(order_.size()) {
    for (size_t i = 0; i < order_.size(); ++i) {
      Node* n = order_[i];
      position_[n] = i;
      const Value* iter = n->op().opClass == OpClass::Reduction || n->op().opClass == OpClass::Normalization
                              ? n->input(0)
                              : n->output(0);
      groups_.push_back({initialKind(n), n, {i}, iter ? iter->type().numElements() : 0});
      groupAt_[i] = i;
    }
    for (size_t i = 0; i < order_.size(); ++i)
      for (const Value* out : order_[i]->outputs())
        for (const Use& u : out->uses()) users_[i].push_back(position_.at(u.user));
  }

  KernelGraph run() {
    fuseAttention();
    for (Node* n : order_) fuseEpilogue(n);
    for (Node* n : order_) fusePrologue(n);
    for (Node* n : order_) fuseChannelPrologue(n);
    return build();
  }

private:
  size_t group(const Node* n) const { return groupAt_[position_.at(n)]; }

  void merge(size_t into, size_t from) {
    if (into == from) return;
    Group& g = groups_[from];
    for (size_t m : g.members) {
      groupAt_[m] = into;
      groups_[into].members.push_back(m);
    }
    g.members.clear();
    g.alive = false;
  }

  // Merging `a` and `b` is safe when no path leaves one and re-enters the
  // other through a third group.
  bool mergeKeepsAcyclic(size_t a, size_t b) { return !reentersThroughThird(a, b) && !reentersThroughThird(b, a); }

  // Whether a path from group `from` through some third group reaches `to`.
  // One walk over the groups downstream of `from`, each visited once: the
  // check runs for every candidate merge, and a walk per user (the first
  // version) made fusing a 10,000-op chain take 30 s.
  bool reentersThroughThird(size_t from, size_t to) {
    const unsigned stamp = ++stamp_;
    std::vector<size_t> stack;
    auto visit = [&](size_t g) {
      if (seen_[g] != stamp) {
        seen_[g] = stamp;
        stack.push_back(g);
      }
    };
    // The direct edges between the two are what the merge joins.
    seen_[from] = seen_[to] = stamp;
    for (size_t m : groups_[from].members)
      for (size_t u : users_[m]) visit(groupAt_[u]);
    while (!stack.empty()) {
      const size_t g = stack.back();
      stack.pop_back();
      for (size_t m : groups_[g].members)
        for (size_t u : users_[m]) {
          if (groupAt_[u] == to) return true;
          visit(groupAt_[u]);
        }
    }
    return false;
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
    if (!isElementwise(n) || groups_[group(n)].members.size() != 1) return;
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
      for (size_t m : groups_[p].members)
        for (const Value* out : order_[m]->outputs()) {
          onlyForR &= !out->isGraphOutput();
          for (const Use& u : out->uses()) onlyForR &= group(u.user) == p || group(u.user) == group(r);
        }
      if (onlyForR && mergeKeepsAcyclic(p, group(r))) merge(group(r), p);
    }
  }

  // Rule 4: a group of element-wise and channel-affine nodes
  // (OpDef::cudaChannelAffine: BatchNormalization) whose results only a
  // float pointwise convolution reads, as its input x, becomes the
  // convolution's prologue where it maps each element of one tensor by its
  // channel alone: every other operand a model parameter (a graph input or
  // constant) read at the channel. DenseNet's BN-ReLU over the
  // concatenation of the features so far was a kernel writing a copy of the
  // concatenation for the convolution to read again; the library GEMM
  // applies it to B as it stages it (codegen/PrologueCode.h). Pointwise
  // only: a window's padding must stay zero, which the map of a zero need
  // not be.
  void fuseChannelPrologue(Node* conv) {
    const size_t g = group(conv);
    if (groups_[g].kind != KernelKind::Conv || groups_[g].anchor != conv || !isPointwiseConvolution(*conv)) return;
    const Value* x = conv->input(0);
    if (!x || !x->producer() || x->type().dtype != DType::F32) return;
    const size_t p = group(x->producer());
    if (p == g) return;
    const Shape& shape = x->type().shape;
    const Value* source = nullptr;
    for (size_t m : groups_[p].members) {
      const Node* n = order_[m];
      const bool affine = static_cast<bool>(n->op().cudaChannelAffine);
      if (!(isElementwise(n) || affine) || n->numOutputs() != 1 || n->output(0)->type().shape != shape ||
          n->output(0)->isGraphOutput())
        return;
      for (const Use& u : n->output(0)->uses())
        if (group(u.user) != p && !(u.user == conv && u.operand == 0)) return;
      for (size_t i = 0; i < n->numInputs(); ++i) {
        const Value* in = n->input(i);
        if (!in) continue;
        if (in->producer() && group(in->producer()) == p) {
          if (affine && i > 0) return; // a coefficient the chain computes
          continue;                    // the chain
        }
        // Read at the channel: a model parameter, or the prologue would wait on another kernel.
        if (readAtChannel(*n, i, shape)) {
          if (in->producer()) return;
          continue;
        }
        if ((source && source != in) || in->type().shape != shape) return;
        source = in;
      }
    }
    if (source && mergeKeepsAcyclic(p, g)) merge(g, p);
  }

  // Kahn's algorithm over the group DAG (fusion kept it acyclic), stable in
  // the order of each group's first node: of the groups ready, the one that
  // starts earliest comes first. `live` holds groups with sorted members.
  std::vector<size_t> topologicalOrder(const std::vector<size_t>& live) const {
    std::vector<std::vector<size_t>> successors(groups_.size());
    std::vector<size_t> waiting(groups_.size(), 0);
    for (size_t g : live) {
      std::unordered_set<size_t> producers;
      for (size_t m : groups_[g].members)
        for (const Value* in : order_[m]->inputs())
          if (in && in->producer()) {
            const size_t p = group(in->producer());
            if (p != g && producers.insert(p).second) {
              successors[p].push_back(g);
              ++waiting[g];
            }
          }
    }
    auto later = [&](size_t a, size_t b) { return groups_[a].members.front() > groups_[b].members.front(); };
    std::priority_queue<size_t, std::vector<size_t>, decltype(later)> ready(later);
    for (size_t g : live)
      if (waiting[g] == 0) ready.push(g);
    std::vector<size_t> order;
    while (!ready.empty()) {
      const size_t g = ready.top();
      ready.pop();
      order.push_back(g);
      for (size_t s : successors[g])
        if (--waiting[s] == 0) ready.push(s);
    }
    if (order.size() != live.size()) raise(ErrorKind::Internal, "fusion left a cycle among its kernels");
    return order;
  }

  KernelGraph build() {
    KernelGraph kg(graph_);
    std::vector<size_t> live;
    for (size_t g = 0; g < groups_.size(); ++g)
      if (groups_[g].alive) {
        std::sort(groups_[g].members.begin(), groups_[g].members.end());
        live.push_back(g);
      }
    live = topologicalOrder(live);
    for (size_t g : live) {
      const Group& grp = groups_[g];
      FusedKernel k;
      k.kind = grp.kind;
      k.anchor = grp.anchor;
      for (size_t m : grp.members) k.nodes.push_back(order_[m]);
      k.name = grp.anchor->name();
      auto inside = [&](const Node* n) { return group(n) == g; };
      for (Node* n : k.nodes) {
        for (Value* in : n->inputs()) {
          if (!in || (in->producer() && inside(in->producer()))) continue;
          if (in->isConstant() && in->type().numElements() <= kInlineConstantElements) continue;
          if (std::find(k.inputs.begin(), k.inputs.end(), in) == k.inputs.end()) k.inputs.push_back(in);
        }
        for (Value* out : n->outputs()) {
          bool external = out->isGraphOutput();
          for (const Use& u : out->uses()) external |= !inside(u.user);
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
  std::vector<std::vector<size_t>> users_; // position -> its users' positions
  std::vector<Group> groups_;
  std::vector<size_t> groupAt_; // position -> group
  std::vector<unsigned> seen_;  // group -> the walk that last visited it
  unsigned stamp_ = 0;
};

} // namespace

KernelGraph fuseOperators(const Graph& graph) { return Fuser(graph).run(); }

bool isPointwiseConvolution(const Node& conv) {
  if (conv.op().fusionRole != FusionRole::Convolution || conv.numInputs() < 2 || !conv.input(1)) return false;
  const Shape& w = conv.input(1)->type().shape;
  if (w.size() < 3 || conv.attrs().getInt("group", 1) != 1) return false;
  for (size_t d = 2; d < w.size(); ++d)
    if (w[d] != 1) return false;
  for (const char* attr : {"strides", "dilations"})
    for (int64_t v : conv.attrs().getInts(attr, {}))
      if (v != 1) return false;
  for (int64_t v : conv.attrs().getInts("pads", {}))
    if (v != 0) return false;
  return true;
}

bool readAtChannel(const Node& node, size_t operand, const Shape& shape) {
  if (node.op().cudaChannelAffine) return operand > 0;
  const Shape& in = node.input(operand)->type().shape;
  if (in.size() > shape.size()) return false;
  const size_t offset = shape.size() - in.size();
  for (size_t d = 0; d < in.size(); ++d)
    if (in[d] != 1 && d + offset != 1) return false;
  return true;
}

} // namespace tcx
