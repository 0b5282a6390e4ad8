#include "mugraph/Canonical.h"

#include <algorithm>
#include <bit>
#include <optional>

namespace tcx::mugraph {

namespace {

class Fnv1a {
public:
  Fnv1a& bytes(const void* data, size_t n) {
    auto p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) h_ = (h_ ^ p[i]) * 1099511628211ull;
    return *this;
  }
  Fnv1a& u64(uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i)); // fixed byte order
    return bytes(b, 8);
  }
  Fnv1a& i64(int64_t v) { return u64(static_cast<uint64_t>(v)); }
  Fnv1a& f64(double v) { return u64(std::bit_cast<uint64_t>(v)); }
  Fnv1a& str(const std::string& s) { return u64(s.size()).bytes(s.data(), s.size()); }
  template <typename T> Fnv1a& list(const std::vector<T>& v) {
    u64(v.size());
    for (const T& x : v) i64(x);
    return *this;
  }
  uint64_t value() const { return h_; }

private:
  uint64_t h_ = 14695981039346656037ull;
};

uint64_t graphHash(const OperatorGraph& graph);

void hashSetAttributes(const Operator& op, Fnv1a& h) {
  h.str(op.name).u64(static_cast<uint64_t>(op.dtype)).i64(op.inputIndex).i64(op.dim).i64(op.group);
  h.list(op.shape).list(op.imap).list(op.omap).list(op.fmap).f64(op.value);
}

// What a rank compares besides the operands: the attributes an operator
// has before it is appended. Its outputs are inferred from them, so an
// operator a search is about to append ranks as it will once appended.
uint64_t rankAttributes(const Operator& op) {
  Fnv1a h;
  hashSetAttributes(op, h);
  h.u64(op.body ? graphHash(*op.body) : 0);
  return h.value();
}

uint64_t attributeHash(const Operator& op) {
  Fnv1a h;
  hashSetAttributes(op, h);
  for (const TensorDesc& d : op.outputs) h.list(d.shape).u64(static_cast<uint64_t>(d.dtype)).list(d.layout.order);
  h.u64(op.body ? graphHash(*op.body) : 0);
  return h.value();
}

uint64_t graphHash(const OperatorGraph& graph) {
  Fnv1a h;
  h.u64(static_cast<uint64_t>(graph.level()));
  if (const auto* p = asPartitioned(graph)) {
    h.list(p->gridDims()).list(p->forLoopDims()).u64(p->inputs().size());
    for (const TensorDesc& d : p->inputs()) h.list(d.shape).u64(static_cast<uint64_t>(d.dtype));
  }
  for (const Operator& op : graph.ops()) {
    h.u64(static_cast<uint64_t>(op.type)).u64(op.inputs.size());
    for (TensorRef t : op.inputs) h.i64(t.op).i64(t.output);
    h.u64(attributeHash(op));
  }
  return h.value();
}

std::vector<int> inputOrdinals(const OperatorGraph& graph) {
  std::vector<int> ordinal(graph.ops().size(), 0);
  int next = 0;
  for (size_t i = 0; i < graph.ops().size(); ++i)
    if (graph.ops()[i].type == OpType::Input) ordinal[i] = next++;
  return ordinal;
}

bool levelIsCanonical(const OperatorGraph& graph) {
  std::vector<int> ordinal = inputOrdinals(graph);
  std::optional<Rank> last;
  for (size_t i = 0; i < graph.ops().size(); ++i) {
    const Operator& op = graph.ops()[i];
    Rank r = rankOf(op, ordinal[i]);
    if ((last && r < *last) || (op.body && !levelIsCanonical(*op.body))) return false;
    last = std::move(r);
  }
  return true;
}

std::shared_ptr<const PartitionedGraph> canonicalBody(const PartitionedGraph& body, std::vector<int>& outputs);

// The greedy order, with operands renumbered; `remap` maps old indices to new.
// A body's output accumulators may change order, and with them the outputs
// of its operator: every use of them is renumbered too.
std::vector<Operator> canonicalOps(const OperatorGraph& graph, std::vector<int>& remap,
                                   std::vector<std::vector<int>>& outputRemap) {
  std::vector<Operator> ops = graph.ops();
  outputRemap.assign(ops.size(), {});
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].body) ops[i].body = canonicalBody(*ops[i].body, outputRemap[i]);
  for (Operator& op : ops)
    for (TensorRef& t : op.inputs)
      if (!outputRemap[static_cast<size_t>(t.op)].empty())
        t.output = outputRemap[static_cast<size_t>(t.op)][static_cast<size_t>(t.output)];
  std::vector<int> ordinal = inputOrdinals(graph);
  remap.assign(ops.size(), -1);
  std::vector<Operator> out;
  while (out.size() < ops.size()) {
    std::optional<std::pair<Rank, size_t>> best;
    for (size_t i = 0; i < ops.size(); ++i) {
      bool ready = remap[i] < 0 && std::all_of(ops[i].inputs.begin(), ops[i].inputs.end(),
                                               [&](TensorRef t) { return remap[t.op] >= 0; });
      if (!ready) continue;
      Operator candidate = ops[i];
      for (TensorRef& t : candidate.inputs) t.op = remap[t.op];
      Rank r = rankOf(candidate, ordinal[i]);
      if (!best || r < best->first) best.emplace(std::move(r), i);
    }
    size_t i = best->second;
    for (TensorRef& t : ops[i].inputs) t.op = remap[t.op];
    remap[i] = static_cast<int>(out.size());
    out.push_back(ops[i]);
  }
  return out;
}

// `outputs` maps each old output (accumulator) index to its new one.
std::shared_ptr<const PartitionedGraph> canonicalBody(const PartitionedGraph& body, std::vector<int>& outputs) {
  std::vector<int> remap;
  std::vector<std::vector<int>> inner;
  std::vector<Operator> ops = canonicalOps(body, remap, inner);
  std::vector<int> accumulators = body.outputAccumulators();
  std::vector<int> moved;
  for (int a : accumulators) moved.push_back(remap[static_cast<size_t>(a)]);
  std::sort(moved.begin(), moved.end());
  outputs.clear();
  for (int a : accumulators)
    outputs.push_back(static_cast<int>(std::find(moved.begin(), moved.end(), remap[static_cast<size_t>(a)]) -
                                       moved.begin()));
  std::shared_ptr<PartitionedGraph> copy;
  if (body.level() == Level::Block)
    copy = std::make_shared<BlockGraph>(body.inputs(), body.gridDims(), body.forLoopDims());
  else
    copy = std::make_shared<ThreadGraph>(body.inputs(), body.gridDims(), body.forLoopDims());
  GraphRewriter::setOps(*copy, std::move(ops));
  return copy;
}

} // namespace

Rank rankOf(const Operator& op, int ordinal) {
  Rank r;
  for (TensorRef t : op.inputs) r.maxInput = std::max(r.maxInput, t.op);
  r.inputs = op.inputs;
  r.type = op.type;
  r.attributes = op.type == OpType::Input ? static_cast<uint64_t>(ordinal) : rankAttributes(op);
  return r;
}

bool extendsCanonically(const OperatorGraph& graph, const Operator& op) {
  if (graph.ops().empty()) return true;
  int ordinal = 0;
  for (const Operator& o : graph.ops()) ordinal += o.type == OpType::Input;
  std::vector<int> ordinals = inputOrdinals(graph);
  return rankOf(graph.ops().back(), ordinals.back()) < rankOf(op, ordinal);
}

bool isCanonical(const KernelGraph& graph) { return levelIsCanonical(graph); }

KernelGraph canonicalize(const KernelGraph& graph) {
  std::vector<int> remap;
  std::vector<std::vector<int>> outputRemap;
  std::vector<Operator> ops = canonicalOps(graph, remap, outputRemap);
  KernelGraph out(graph.name());
  GraphRewriter::setOps(out, std::move(ops));
  std::vector<TensorRef> outputs;
  for (TensorRef t : graph.outputs()) {
    const std::vector<int>& moved = outputRemap[static_cast<size_t>(t.op)];
    outputs.push_back({remap[t.op], moved.empty() ? t.output : moved[static_cast<size_t>(t.output)]});
  }
  GraphRewriter::setOutputs(out, std::move(outputs));
  return out;
}

uint64_t stableHash(const KernelGraph& graph) {
  KernelGraph canonical = canonicalize(graph);
  Fnv1a h;
  h.u64(graphHash(canonical)).u64(canonical.outputs().size());
  for (TensorRef t : canonical.outputs()) h.i64(t.op).i64(t.output);
  return h.value();
}

} // namespace tcx::mugraph
