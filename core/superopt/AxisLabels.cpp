#include "superopt/AxisLabels.h"

#include "support/Error.h"

#include <algorithm>
#include <numeric>

namespace tcx::superopt {

using namespace mugraph;

int AxisUnifier::fresh(int64_t size) {
  parent_.push_back(static_cast<int>(parent_.size()));
  size_.push_back(size);
  parts_.emplace_back();
  origin_.push_back(-1);
  return parent_.back();
}

void AxisUnifier::freeze() {
  for (size_t a = 0; a < parent_.size(); ++a) origin_[a] = find(static_cast<int>(a));
}

int64_t AxisUnifier::size(int atom) const { return size_[static_cast<size_t>(find(atom))]; }

int AxisUnifier::find(int atom) const {
  while (parent_[static_cast<size_t>(atom)] != atom) {
    int& p = parent_[static_cast<size_t>(atom)];
    p = parent_[static_cast<size_t>(p)];
    atom = p;
  }
  return atom;
}

std::vector<int> AxisUnifier::expand(const std::vector<int>& atoms) const {
  std::vector<int> out;
  for (int a : atoms) {
    int r = find(a);
    if (!parts_[static_cast<size_t>(r)].empty()) {
      std::vector<int> inner = expand(parts_[static_cast<size_t>(r)]);
      out.insert(out.end(), inner.begin(), inner.end());
    } else if (size_[static_cast<size_t>(r)] > 1) {
      out.push_back(r);
    }
  }
  return out;
}

void AxisUnifier::splitAtom(int atom, int64_t outer) {
  int r = find(atom);
  int64_t n = size_[static_cast<size_t>(r)];
  int o = fresh(outer), i = fresh(n / outer);
  parts_[static_cast<size_t>(r)] = {o, i};
  origin_[static_cast<size_t>(o)] = origin_[static_cast<size_t>(i)] = origin_[static_cast<size_t>(r)];
}

bool AxisUnifier::unify(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> x = expand(a), y = expand(b);
  size_t i = 0, j = 0;
  while (i < x.size() && j < y.size()) {
    int64_t sx = size(x[i]), sy = size(y[j]);
    if (sx == sy) {
      int rx = find(x[i]), ry = find(y[j]);
      int& ox = origin_[static_cast<size_t>(rx)];
      int oy = origin_[static_cast<size_t>(ry)];
      if (rx != ry && ox >= 0 && oy >= 0 && ox != oy) {
        conflicted_ = true;
        return false;
      }
      if (rx != ry) parent_[static_cast<size_t>(ry)] = rx;
      if (ox < 0) ox = oy;
      ++i, ++j;
      continue;
    }
    // Split the larger factor at the smaller one's size and retry.
    if (sx > sy && sx % sy == 0) {
      splitAtom(x[i], sy);
      std::vector<int> parts = expand({x[i]});
      x.erase(x.begin() + static_cast<long>(i));
      x.insert(x.begin() + static_cast<long>(i), parts.begin(), parts.end());
    } else if (sy > sx && sy % sx == 0) {
      splitAtom(y[j], sx);
      std::vector<int> parts = expand({y[j]});
      y.erase(y.begin() + static_cast<long>(j));
      y.insert(y.begin() + static_cast<long>(j), parts.begin(), parts.end());
    } else {
      return false;
    }
  }
  return i == x.size() && j == y.size();
}

std::optional<std::pair<std::vector<int>, std::vector<int>>> AxisUnifier::split(const std::vector<int>& atoms,
                                                                                int64_t outer) {
  std::vector<int> x = expand(atoms), head;
  size_t i = 0;
  while (outer > 1) {
    if (i == x.size()) return std::nullopt;
    int64_t s = size(x[i]);
    if (outer % s == 0) {
      head.push_back(x[i++]);
      outer /= s;
    } else if (s % outer == 0) {
      splitAtom(x[i], outer);
      std::vector<int> parts = expand({x[i]});
      head.push_back(parts[0]);
      x[i] = parts[1];
      outer = 1;
    } else {
      return std::nullopt;
    }
  }
  return std::pair{head, std::vector<int>(x.begin() + static_cast<long>(i), x.end())};
}

std::optional<std::vector<int>> cutLabel(AxisUnifier& unifier, DimLabel& label, int64_t parts, unsigned bit) {
  auto pieces = unifier.split(label.atoms, parts);
  if (!pieces) return std::nullopt;
  label.atoms = pieces->second;
  label.partitions |= 1u << bit;
  return pieces->first;
}

namespace {

DimLabel merged(AxisUnifier& u, const DimLabel& a, int64_t ea, const DimLabel& b, int64_t eb) {
  if (ea == eb && ea > 1) u.unify(a.atoms, b.atoms);
  return {ea > 1 ? a.atoms : b.atoms, a.partitions | b.partitions};
}

// Right-aligned broadcast of operand labels, as element-wise shape inference
// does: the dimensions of extent > 1 aligned with an output dimension index
// the same axes.
std::optional<TensorLabels> broadcast(AxisUnifier& u, const OperatorGraph& g, const Operator& op,
                                      const std::vector<const TensorLabels*>& in) {
  const Shape& out = op.outputs[0].shape;
  TensorLabels labels(out.size());
  std::vector<bool> set(out.size(), false);
  for (size_t k = 0; k < in.size(); ++k) {
    const Shape& s = g.desc(op.inputs[k]).shape;
    size_t offset = out.size() - s.size();
    for (size_t d = 0; d < s.size(); ++d) {
      DimLabel& o = labels[offset + d];
      const DimLabel& l = (*in[k])[d];
      if (s[d] > 1 && set[offset + d]) u.unify(o.atoms, l.atoms);
      if (s[d] > 1 && !set[offset + d]) o.atoms = l.atoms, set[offset + d] = true;
      o.partitions |= l.partitions;
    }
  }
  return labels;
}

std::optional<TensorLabels> matmul(AxisUnifier& u, const OperatorGraph& g, const Operator& op,
                                   const TensorLabels& a, const TensorLabels& b) {
  const Shape &sa = g.desc(op.inputs[0]).shape, &sb = g.desc(op.inputs[1]).shape;
  size_t r = sa.size();
  TensorLabels out(r);
  for (size_t d = 0; d + 2 < r; ++d) out[d] = merged(u, a[d], sa[d], b[d], sb[d]);
  u.unify(a[r - 1].atoms, b[r - 2].atoms);
  out[r - 2] = a[r - 2];
  out[r - 1] = b[r - 1];
  return out;
}

// Reshape: runs of input and output dimensions with equal products index the
// same axes. A reshape that only moves unit dimensions keeps every label,
// including the partitions a unit dimension of a tile carries.
std::optional<TensorLabels> reshape(AxisUnifier& u, const Shape& from, const Shape& to, const TensorLabels& in) {
  auto nonUnit = [](const Shape& s) {
    std::vector<size_t> d;
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] != 1) d.push_back(i);
    return d;
  };
  std::vector<size_t> nf = nonUnit(from), nt = nonUnit(to);
  TensorLabels out(to.size());
  bool moveOnly = nf.size() == nt.size();
  for (size_t i = 0; moveOnly && i < nf.size(); ++i) moveOnly = from[nf[i]] == to[nt[i]];
  if (moveOnly) {
    for (size_t i = 0; i < nf.size(); ++i) out[nt[i]] = in[nf[i]];
    size_t k = 0;
    for (size_t i = 0; i < to.size(); ++i) {
      if (to[i] != 1) continue;
      while (k < from.size() && from[k] != 1) ++k;
      if (k < from.size()) out[i] = in[k++];
    }
    return out;
  }
  size_t i = 0, j = 0;
  while (i < from.size() || j < to.size()) {
    // One run: take dimensions from the side with the smaller product until
    // the products meet; its input axes are then cut at the output extents.
    std::vector<int> atoms;
    unsigned parts = 0;
    int64_t pf = 1, pt = 1;
    size_t j0 = j;
    do {
      if (i < from.size() && (pf <= pt || j == to.size())) {
        pf *= from[i];
        atoms.insert(atoms.end(), in[i].atoms.begin(), in[i].atoms.end());
        parts |= in[i++].partitions;
      } else if (j < to.size()) {
        pt *= to[j++];
      } else {
        return std::nullopt;
      }
    } while (pf != pt);
    for (size_t k = j0; k < j; ++k) {
      auto cut = u.split(atoms, to[k]);
      if (!cut) return std::nullopt;
      out[k] = {cut->first, parts};
      atoms = cut->second;
    }
  }
  return out;
}

} // namespace

std::optional<TensorLabels> propagateLabels(AxisUnifier& u, const OperatorGraph& g, const Operator& op,
                                            const std::vector<const TensorLabels*>& in) {
  for (const TensorLabels* l : in)
    if (l == nullptr) return std::nullopt;
  switch (op.type) {
  case OpType::Matmul: return matmul(u, g, op, *in[0], *in[1]);
  case OpType::ConcatMatmul: {
    // (W || X) x (Y || Z) = W Y + X Z: both products index the same rows and columns.
    TensorLabels wy = *matmul(u, g, op, *in[0], *in[2]);
    TensorLabels xz = *matmul(u, g, op, *in[1], *in[3]);
    for (size_t d = 0; d < wy.size(); ++d) u.unify(wy[d].atoms, xz[d].atoms);
    return wy;
  }
  case OpType::EwAdd:
  case OpType::EwMul:
  case OpType::EwDiv: return broadcast(u, g, op, in);
  case OpType::EwExp:
  case OpType::Sqrt:
  case OpType::Square:
  case OpType::SiLU:
  case OpType::RMSNorm: return *in[0];
  case OpType::Sum: {
    TensorLabels out = *in[0];
    DimLabel& d = out[static_cast<size_t>(op.dim)];
    int64_t extent = g.desc(op.inputs[0]).shape[static_cast<size_t>(op.dim)];
    if (op.group == extent) {
      d = {}; // reduced: the partitions that split it were reduced with it
    } else {
      auto cut = u.split(d.atoms, extent / op.group);
      if (!cut) return std::nullopt;
      d.atoms = cut->first;
    }
    return out;
  }
  case OpType::Reshape: return reshape(u, g.desc(op.inputs[0]).shape, op.shape, *in[0]);
  // Accumulating over the for-loop adds up what the loop split, so only a
  // dimension the accumulation reduces (ForLoopRms's last) may carry a
  // for-loop dimension: elsewhere it would add unrelated slices together.
  case OpType::ForLoopSum:
  case OpType::ForLoopRms: {
    TensorLabels out = *in[0];
    if (op.type == OpType::ForLoopRms) out.back() = {};
    constexpr unsigned kGridBits = (1u << kLoopBit) - 1;
    for (const DimLabel& d : out)
      if (d.partitions & ~kGridBits) return std::nullopt;
    return out;
  }
  case OpType::Repeat: {
    TensorLabels out = *in[0];
    for (size_t d = 0; d < out.size(); ++d)
      if (op.shape[d] > 1) out[d].atoms.insert(out[d].atoms.begin(), u.fresh(op.shape[d]));
    return out;
  }
  case OpType::Input:
  case OpType::Constant:
  case OpType::InputIterator:
  case OpType::OutputAccumulator:
  case OpType::GraphDefined: break;
  }
  return std::nullopt;
}

namespace {

// The labels of a graph-defined operator's outputs, followed through its
// block graph: each input iterator's chunk is its operand cut by the grid
// dimensions (outermost) and then the for-loop dimensions, as the
// interpreter slices it, and each output accumulator reassembles what its
// omap and fmap concatenate. A grid dimension laid out along a unit
// dimension (the block reduced its axis, as FlashDecoding's key chunks)
// makes that dimension index the axis's outer part, so a later graph-defined
// operator can partition the partial results by head and sum the chunks.
// nullopt for an output whose labels cannot be followed.
std::vector<std::optional<TensorLabels>> graphDefinedLabels(AxisUnifier& u, const Operator& op,
                                                            const std::vector<const TensorLabels*>& operands) {
  std::vector<std::optional<TensorLabels>> out(op.outputs.size());
  const PartitionedGraph* body = asPartitioned(*op.body);
  if (body == nullptr || body->level() != Level::Block) return out;
  const size_t gridDims = body->gridDims().size();
  // Per partition dimension (grid first, then for-loop), the outer atoms it
  // takes of the axis it splits; unknown until an operand is cut by it.
  std::vector<std::optional<std::vector<int>>> outer(gridDims + body->forLoopDims().size());
  auto cut = [&](DimLabel& label, size_t dim, int64_t parts) {
    auto bit = static_cast<unsigned>(dim < gridDims ? dim : kLoopBit + (dim - gridDims));
    std::optional<std::vector<int>> atoms = cutLabel(u, label, parts, bit);
    if (!atoms || (outer[dim] && u.expand(*outer[dim]) != u.expand(*atoms))) return false;
    outer[dim] = std::move(atoms);
    return true;
  };
  std::vector<std::optional<TensorLabels>> labels;
  for (const Operator& b : body->ops()) {
    std::vector<const TensorLabels*> in;
    for (TensorRef t : b.inputs) {
      const auto& l = labels[static_cast<size_t>(t.op)];
      in.push_back(l ? &*l : nullptr);
    }
    std::optional<TensorLabels> result;
    if (b.type == OpType::InputIterator) {
      const TensorLabels* from = operands.at(static_cast<size_t>(b.inputIndex));
      if (from != nullptr) {
        result = *from;
        bool ok = true;
        for (size_t i = 0; i < gridDims && ok; ++i)
          if (b.imap[i] != kReplica) ok = cut((*result)[static_cast<size_t>(b.imap[i])], i, body->gridDims()[i]);
        for (size_t i = 0; i < b.fmap.size() && ok; ++i)
          if (b.fmap[i] != kReplica)
            ok = cut((*result)[static_cast<size_t>(b.fmap[i])], gridDims + i, body->forLoopDims()[i]);
        if (!ok) result.reset();
      }
    } else if (b.type == OpType::Constant) {
      result = TensorLabels(b.outputs[0].shape.size());
    } else if (b.type != OpType::OutputAccumulator) {
      result = propagateLabels(u, *body, b, in);
    }
    labels.push_back(std::move(result));
  }
  std::vector<int> accumulators = body->outputAccumulators();
  for (size_t k = 0; k < accumulators.size(); ++k) {
    const Operator& acc = body->op(accumulators[k]);
    const std::optional<TensorLabels>& x = labels[static_cast<size_t>(acc.inputs[0].op)];
    if (!x) continue;
    TensorLabels assembled = *x;
    bool ok = true;
    // Grid dimensions are outermost, then for-loop ones: prepend in reverse.
    auto place = [&](int dim, size_t partition, unsigned bit) {
      if (dim == kReplica) { // accumulated: only a dimension the block reduced may carry it
        ok = ok && std::ranges::none_of(assembled, [&](const DimLabel& d) { return d.partitions & (1u << bit); });
        return;
      }
      DimLabel& d = assembled[static_cast<size_t>(dim)];
      ok = ok && outer[partition].has_value();
      if (ok) d.atoms.insert(d.atoms.begin(), outer[partition]->begin(), outer[partition]->end());
      d.partitions &= ~(1u << bit);
    };
    for (size_t i = acc.fmap.size(); i-- > 0;) place(acc.fmap[i], gridDims + i, kLoopBit + static_cast<unsigned>(i));
    for (size_t i = gridDims; i-- > 0;) {
      ok = ok && acc.omap[i] != kReplica; // every block writing the same place
      if (ok) place(acc.omap[i], i, static_cast<unsigned>(i));
    }
    for (const DimLabel& d : assembled) ok = ok && d.partitions == 0;
    if (ok) out[k] = std::move(assembled);
  }
  return out;
}

} // namespace

AxisAnalysis::AxisAnalysis(const KernelGraph& reference) {
  Labelled l = run(AxisUnifier{}, reference);
  unifier_ = l.unifier;
  unifier_.freeze();
  if (!reference.outputs().empty()) output_ = l.of(reference.outputs()[0]);
  for (int i : reference.inputOps())
    inputs_.emplace_back(reference.op(i).name, *l.tensors[static_cast<size_t>(i)][0]);
}

AxisAnalysis::Labelled AxisAnalysis::label(const KernelGraph& program) const { return run(unifier_, program); }

bool AxisAnalysis::indexesOutputAxes(Labelled& labelled, TensorRef t) const {
  const std::optional<TensorLabels>& got = labelled.of(t);
  if (!got || !output_ || got->size() != output_->size()) return true;
  for (size_t d = 0; d < got->size(); ++d) labelled.unifier.unify((*got)[d].atoms, (*output_)[d].atoms);
  return !labelled.unifier.conflicted();
}

AxisAnalysis::Labelled AxisAnalysis::run(AxisUnifier unifier, const KernelGraph& program) const {
  Labelled l{std::move(unifier), {}};
  for (const Operator& op : program.ops()) {
    l.tensors.emplace_back(op.outputs.size());
    auto& slot = l.tensors.back()[0];
    if (op.type == OpType::Input) {
      auto known = std::find_if(inputs_.begin(), inputs_.end(), [&](const auto& p) { return p.first == op.name; });
      if (known != inputs_.end()) {
        slot = known->second;
      } else {
        TensorLabels fresh;
        for (int64_t e : op.outputs[0].shape) fresh.push_back({{l.unifier.fresh(e)}, 0});
        slot = fresh;
      }
    } else if (op.type == OpType::Constant) {
      slot = TensorLabels(op.outputs[0].shape.size());
    } else {
      std::vector<const TensorLabels*> in;
      for (TensorRef t : op.inputs) in.push_back(l.of(t) ? &*l.of(t) : nullptr);
      if (op.type == OpType::GraphDefined)
        l.tensors.back() = graphDefinedLabels(l.unifier, op, in);
      else
        slot = propagateLabels(l.unifier, program, op, in);
    }
  }
  return l;
}

} // namespace tcx::superopt
