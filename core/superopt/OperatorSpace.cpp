#include "superopt/OperatorSpace.h"

#include <algorithm>
#include <set>

namespace tcx::superopt {

using namespace mugraph;

namespace {

void symbolsOf(const ExprRef& e, std::set<AbstractExpr::Kind>& out) {
  if (!e) return;
  out.insert(e->kind());
  symbolsOf(e->lhs(), out);
  symbolsOf(e->rhs(), out);
}

// The epsilon of every sqrt(mean + epsilon) in `e`.
void epsilonsOf(const ExprRef& e, std::vector<double>& out) {
  if (!e) return;
  if (e->kind() == AbstractExpr::Kind::Sqrt && e->lhs()->kind() == AbstractExpr::Kind::Add)
    for (const ExprRef& side : {e->lhs()->lhs(), e->lhs()->rhs()})
      if (side->kind() == AbstractExpr::Kind::Constant && std::ranges::find(out, side->value()) == out.end())
        out.push_back(side->value());
  epsilonsOf(e->lhs(), out);
  epsilonsOf(e->rhs(), out);
}

bool hasAll(const std::set<AbstractExpr::Kind>& have, std::initializer_list<AbstractExpr::Kind> need) {
  return std::all_of(need.begin(), need.end(), [&](AbstractExpr::Kind k) { return have.count(k) != 0; });
}

bool broadcastable(const Shape& a, const Shape& b) {
  for (size_t i = 1; i <= std::min(a.size(), b.size()); ++i) {
    int64_t x = a[a.size() - i], y = b[b.size() - i];
    if (x != y && x != 1 && y != 1) return false;
  }
  return true;
}

bool multipliable(const Shape& a, const Shape& b) {
  size_t r = a.size();
  if (r < 2 || b.size() != r || a[r - 1] != b[r - 2]) return false;
  for (size_t d = 0; d + 2 < r; ++d)
    if (a[d] != b[d] && a[d] != 1 && b[d] != 1) return false;
  return true;
}

// Shapes reached by moving one unit dimension of `s` elsewhere.
std::vector<Shape> unitMoves(const Shape& s) {
  std::vector<Shape> out;
  for (size_t from = 0; from < s.size(); ++from) {
    if (s[from] != 1) continue;
    for (size_t to = 0; to < s.size(); ++to) {
      if (to == from) continue;
      Shape t = s;
      t.erase(t.begin() + static_cast<long>(from));
      t.insert(t.begin() + static_cast<long>(to), 1);
      if (t != s && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    }
  }
  return out;
}

Operator make(OpType type, std::vector<TensorRef> inputs) {
  Operator op;
  op.type = type;
  op.inputs = std::move(inputs);
  return op;
}

} // namespace

Vocabulary vocabularyFor(const KernelGraph& reference, const ExprRef& target, bool restrictToTarget) {
  using K = AbstractExpr::Kind;
  std::set<K> have;
  symbolsOf(target, have);
  int matmuls = 0;
  for (const Operator& op : reference.ops()) matmuls += op.type == OpType::Matmul || op.type == OpType::ConcatMatmul;
  struct Entry {
    OpType type;
    std::initializer_list<K> needs;
  };
  const Entry entries[] = {
      {OpType::Matmul, {K::Sum, K::Mul}},
      {OpType::ConcatMatmul, {K::Sum, K::Mul, K::Add}},
      {OpType::Sum, {K::Sum}},
      {OpType::EwAdd, {K::Add}},
      {OpType::EwMul, {K::Mul}},
      {OpType::EwDiv, {K::Div}},
      {OpType::EwExp, {K::Exp}},
      {OpType::Sqrt, {K::Sqrt}},
      {OpType::Square, {K::Mul}},
      {OpType::SiLU, {K::Div, K::Add, K::Exp, K::Mul, K::Constant}},
      {OpType::Reshape, {}},
      {OpType::ForLoopSum, {K::Sum}},
      {OpType::ForLoopRms, {K::Sqrt, K::Sum, K::Mul, K::Add, K::Div, K::Constant}},
  };
  Vocabulary v;
  for (const Entry& e : entries) {
    // The concatenated matmul only pays off where two products are added.
    if (e.type == OpType::ConcatMatmul && matmuls < 2) continue;
    if (!restrictToTarget || hasAll(have, e.needs)) v.types.push_back(e.type);
  }
  for (TensorRef t : reference.outputs()) v.reshapeTargets.push_back(reference.desc(t).shape);
  epsilonsOf(target, v.rmsEpsilons);
  if (v.rmsEpsilons.empty()) std::erase(v.types, OpType::ForLoopRms);
  return v;
}

void forEachOperator(const OperatorGraph& g, const std::vector<TensorRef>& available, const Vocabulary& v,
                     const std::function<void(Operator)>& emit) {
  auto shape = [&](TensorRef t) -> const Shape& { return g.desc(t).shape; };
  auto producer = [&](TensorRef t) { return g.op(t.op).type; };
  for (OpType type : v.types) {
    switch (type) {
    case OpType::Matmul:
      for (TensorRef a : available)
        for (TensorRef b : available)
          if (multipliable(shape(a), shape(b))) emit(make(type, {a, b}));
      break;
    case OpType::ConcatMatmul:
      for (TensorRef w : available)
        for (TensorRef y : available) {
          if (!multipliable(shape(w), shape(y))) continue;
          for (TensorRef x : available)
            for (TensorRef z : available)
              if ((w < x || (w == x && y < z)) && multipliable(shape(x), shape(z)) && shape(w).size() == shape(x).size())
                emit(make(type, {w, x, y, z}));
        }
      break;
    case OpType::EwAdd:
    case OpType::EwMul:
      for (size_t i = 0; i < available.size(); ++i)
        for (size_t j = i; j < available.size(); ++j)
          if (broadcastable(shape(available[i]), shape(available[j])))
            emit(make(type, {available[i], available[j]}));
      break;
    case OpType::EwDiv:
      for (TensorRef a : available)
        for (TensorRef b : available)
          if (a != b && broadcastable(shape(a), shape(b))) emit(make(type, {a, b}));
      break;
    case OpType::EwExp:
    case OpType::Sqrt:
    case OpType::Square:
    case OpType::SiLU:
      for (TensorRef a : available)
        if (producer(a) != OpType::Constant) emit(make(type, {a}));
      break;
    case OpType::Sum:
      for (TensorRef a : available)
        for (size_t d = 0; d < shape(a).size(); ++d)
          if (shape(a)[d] > 1) {
            Operator op = make(type, {a});
            op.dim = static_cast<int>(d);
            op.group = shape(a)[d];
            emit(std::move(op));
          }
      break;
    case OpType::ForLoopSum:
      if (const PartitionedGraph* p = asPartitioned(g); p && g.level() == Level::Block && p->numIterations() > 1)
        for (TensorRef a : available)
          if (producer(a) != OpType::Constant && producer(a) != OpType::InputIterator) emit(make(type, {a}));
      break;
    case OpType::ForLoopRms:
      if (g.level() == Level::Block)
        for (TensorRef a : available)
          for (double epsilon : v.rmsEpsilons)
            if (producer(a) != OpType::Constant) {
              Operator op = make(type, {a});
              op.value = epsilon;
              emit(std::move(op));
            }
      break;
    case OpType::Reshape:
      for (TensorRef a : available) {
        // In a block graph only loaded chunks are reshaped (GQA's query
        // heads become GEMM rows); anything computed could have been
        // computed in that shape.
        if (producer(a) == OpType::Reshape || producer(a) == OpType::Constant ||
            (g.level() != Level::Kernel && producer(a) != OpType::InputIterator))
          continue;
        std::vector<Shape> targets = unitMoves(shape(a));
        if (g.level() == Level::Kernel)
          for (const Shape& t : v.reshapeTargets)
            if (t != shape(a) && numElements(t) == numElements(shape(a)) &&
                std::find(targets.begin(), targets.end(), t) == targets.end())
              targets.push_back(t);
        for (Shape& t : targets) {
          Operator op = make(type, {a});
          op.shape = std::move(t);
          emit(std::move(op));
        }
      }
      break;
    // Never in a vocabulary (vocabularyFor): the generator builds iterators,
    // accumulators and graph-defined operators itself.
    case OpType::Input:
    case OpType::Constant:
    case OpType::InputIterator:
    case OpType::OutputAccumulator:
    case OpType::RMSNorm:
    case OpType::Repeat:
    case OpType::GraphDefined: break;
    }
  }
}

void forEachAccumulator(const PartitionedGraph& graph, TensorRef x, const TensorLabels& labels,
                        const std::function<void(Operator)>& emit) {
  const Shape& shape = graph.desc(x).shape;
  auto carriers = [&](unsigned bit) {
    std::vector<int> dims;
    for (size_t d = 0; d < labels.size(); ++d)
      if (labels[d].partitions & (1u << bit)) dims.push_back(static_cast<int>(d));
    return dims;
  };
  // A grid dimension whose axis the block reduced takes the outermost free
  // unit dimension: the others hold the same partial results in another
  // shape, which would only multiply the kernel graphs built on them.
  std::vector<std::vector<int>> gridChoices;
  std::vector<bool> taken(shape.size(), false);
  for (size_t i = 0; i < graph.gridDims().size(); ++i) {
    std::vector<int> dims = carriers(static_cast<unsigned>(i));
    for (size_t d = 0; d < shape.size() && dims.empty(); ++d)
      if (shape[d] == 1 && labels[d].partitions == 0 && !taken[d]) {
        dims.push_back(static_cast<int>(d));
        taken[d] = true;
      }
    gridChoices.push_back(dims);
  }
  DimMap fmap;
  for (size_t i = 0; i < graph.forLoopDims().size(); ++i) {
    std::vector<int> dims = carriers(kLoopBit + static_cast<unsigned>(i));
    fmap.push_back(dims.empty() ? kReplica : dims[0]);
  }
  DimMap omap;
  std::function<void(size_t)> choose = [&](size_t i) {
    if (i == gridChoices.size()) {
      Operator op;
      op.type = OpType::OutputAccumulator;
      op.inputs = {x};
      op.omap = omap;
      op.fmap = fmap;
      emit(std::move(op));
      return;
    }
    for (int d : gridChoices[i]) {
      if (std::find(omap.begin(), omap.end(), d) != omap.end()) continue;
      omap.push_back(d);
      choose(i + 1);
      omap.pop_back();
    }
  };
  choose(0);
}

std::vector<TensorRef> graphDefinedOperands(const KernelGraph& graph, const std::vector<std::vector<ExprRef>>& exprs,
                                            const AxisAnalysis::Labelled& labels, const TargetCoverage* coverage) {
  std::vector<std::vector<bool>> offTarget;
  std::vector<TensorRef> operands;
  for (int i = 0; i < static_cast<int>(graph.ops().size()); ++i) {
    const Operator& op = graph.op(i);
    bool inherited = std::ranges::any_of(op.inputs, [&](TensorRef t) {
      return offTarget[static_cast<size_t>(t.op)][static_cast<size_t>(t.output)];
    });
    offTarget.emplace_back();
    for (int j = 0; j < static_cast<int>(op.outputs.size()); ++j) {
      bool off = inherited || (coverage && op.type == OpType::GraphDefined &&
                               !coverage->holdsTargetSummands(exprs[static_cast<size_t>(i)][static_cast<size_t>(j)]));
      offTarget.back().push_back(off);
      if (!off && op.type != OpType::Constant && labels.of({i, j})) operands.push_back({i, j});
    }
  }
  return operands;
}

} // namespace tcx::superopt
