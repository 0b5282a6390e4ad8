#include "superopt/PartitionSpace.h"

#include "support/Error.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

namespace tcx::superopt {

using namespace mugraph;

PartitionLimits PartitionLimits::of(const GpuPreset& preset, int maxGridDims, int maxForLoopDims) {
  return {maxGridDims, maxForLoopDims, 8 * static_cast<int64_t>(preset.smCount), preset.smCount};
}

namespace {

// An axis a partition dimension can split, with the operand dimension that
// carries it outermost (kReplica where the operand does not depend on it).
struct Axis {
  int atom = 0;
  int64_t size = 0;
  DimMap dims;
};

std::vector<Axis> splittableAxes(const AxisUnifier& u, const std::vector<const TensorLabels*>& operands) {
  std::vector<Axis> axes;
  for (const TensorLabels* t : operands)
    for (const DimLabel& d : *t) {
      std::vector<int> atoms = u.expand(d.atoms);
      if (atoms.empty()) continue;
      if (std::none_of(axes.begin(), axes.end(), [&](const Axis& a) { return a.atom == atoms[0]; }))
        axes.push_back({atoms[0], u.size(atoms[0]), {}});
    }
  // Keep an axis only if every operand indexing it carries it outermost in
  // one dimension: slicing an inner factor would need a strided chunk.
  std::vector<Axis> usable;
  for (Axis a : axes) {
    bool ok = true;
    for (const TensorLabels* t : operands) {
      int carrier = kReplica;
      for (size_t d = 0; d < t->size() && ok; ++d) {
        std::vector<int> atoms = u.expand((*t)[d].atoms);
        auto at = std::find(atoms.begin(), atoms.end(), a.atom);
        if (at == atoms.end()) continue;
        ok = at == atoms.begin() && carrier == kReplica;
        carrier = static_cast<int>(d);
      }
      a.dims.push_back(carrier);
    }
    if (ok) usable.push_back(a);
  }
  std::sort(usable.begin(), usable.end(), [](const Axis& x, const Axis& y) { return x.atom < y.atom; });
  return usable;
}

// Part counts for splitting `extent`: powers of two leaving tiles of at least
// kMinTile, and one part per index.
std::vector<int64_t> partCounts(int64_t extent) {
  std::vector<int64_t> counts;
  for (int64_t p = 2; p < extent; p *= 2)
    if (extent % p == 0 && extent / p >= kMinTile) counts.push_back(p);
  if (extent > 1) counts.push_back(extent);
  return counts;
}

struct Split {
  size_t axis;
  int64_t parts;
};

class Enumerator {
public:
  Enumerator(const AxisUnifier& u, const std::vector<const TensorLabels*>& operands, const PartitionLimits& limits)
      : u_(u), operands_(operands), limits_(limits), axes_(splittableAxes(u, operands)) {}

  std::vector<GraphPartition> run() {
    std::vector<Split> grid;
    chooseGrid(grid, 0, 1);
    // Elements loaded from device memory: a replicated operand is loaded
    // once per block (or iteration) that replicates it.
    auto loaded = [&](const GraphPartition& p) {
      double n = 0, copies = static_cast<double>(numElements(p.grid) * numElements(p.forLoop));
      for (const TensorLabels& chunk : p.chunks) {
        double elements = 1;
        for (const DimLabel& d : chunk)
          for (int a : p.unifier.expand(d.atoms)) elements *= static_cast<double>(p.unifier.size(a));
        n += elements * copies;
      }
      return n;
    };
    auto key = [&](const GraphPartition& p) {
      double blocks = static_cast<double>(numElements(p.grid));
      return std::tuple{loaded(p), std::abs(std::round(std::log2(blocks / limits_.smCount))),
                        numElements(p.forLoop)};
    };
    std::vector<std::pair<decltype(key(out_[0])), size_t>> order;
    for (size_t i = 0; i < out_.size(); ++i) order.emplace_back(key(out_[i]), i);
    std::stable_sort(order.begin(), order.end());
    std::vector<GraphPartition> sorted;
    for (const auto& o : order) sorted.push_back(std::move(out_[o.second]));
    out_ = std::move(sorted);
    return std::move(out_);
  }

private:
  // Grid dimensions split distinct axes, in increasing axis order, so that a
  // partition and its transposed grid are generated once.
  void chooseGrid(std::vector<Split>& grid, size_t from, int64_t blocks) {
    if (!grid.empty()) {
      std::vector<Split> loop;
      chooseLoop(grid, loop, 0);
    }
    if (static_cast<int>(grid.size()) == limits_.maxGridDims) return;
    for (size_t a = from; a < axes_.size(); ++a)
      for (int64_t p : partCounts(axes_[a].size)) {
        if (blocks * p > limits_.maxBlocks) continue;
        grid.push_back({a, p});
        chooseGrid(grid, a + 1, blocks * p);
        grid.pop_back();
      }
  }

  void chooseLoop(const std::vector<Split>& grid, std::vector<Split>& loop, size_t from) {
    emit(grid, loop);
    if (static_cast<int>(loop.size()) == limits_.maxForLoopDims) return;
    for (size_t a = from; a < axes_.size(); ++a) {
      int64_t left = axes_[a].size;
      for (const Split& g : grid)
        if (g.axis == a) left /= g.parts;
      for (int64_t p : partCounts(left)) {
        loop.push_back({a, p});
        chooseLoop(grid, loop, a + 1);
        loop.pop_back();
      }
    }
  }

  void emit(const std::vector<Split>& grid, const std::vector<Split>& loop) {
    GraphPartition part;
    part.unifier = u_;
    for (const TensorLabels* t : operands_) {
      part.chunks.push_back(*t);
      part.imaps.emplace_back();
      part.fmaps.emplace_back();
    }
    auto apply = [&](const std::vector<Split>& splits, Shape& dims, std::vector<DimMap> GraphPartition::*maps,
                     unsigned firstBit) {
      for (size_t i = 0; i < splits.size(); ++i) {
        const Axis& axis = axes_[splits[i].axis];
        dims.push_back(splits[i].parts);
        for (size_t k = 0; k < operands_.size(); ++k) {
          int d = axis.dims[k];
          (part.*maps)[k].push_back(d);
          if (d == kReplica) continue;
          DimLabel& label = part.chunks[k][static_cast<size_t>(d)];
          if (!cutLabel(part.unifier, label, splits[i].parts, firstBit + static_cast<unsigned>(i))) return false;
        }
      }
      return true;
    };
    if (!apply(grid, part.grid, &GraphPartition::imaps, 0) ||
        !apply(loop, part.forLoop, &GraphPartition::fmaps, kLoopBit))
      return;
    out_.push_back(std::move(part));
  }

  const AxisUnifier& u_;
  const std::vector<const TensorLabels*>& operands_;
  const PartitionLimits& limits_;
  std::vector<Axis> axes_;
  std::vector<GraphPartition> out_;
};

} // namespace

std::vector<GraphPartition> enumeratePartitions(const AxisUnifier& unifier,
                                                const std::vector<const TensorLabels*>& operands,
                                                const PartitionLimits& limits) {
  return Enumerator(unifier, operands, limits).run();
}

BlockGraph partitionInputs(const std::vector<TensorDesc>& operands, const GraphPartition& partition) {
  BlockGraph block(operands, partition.grid, partition.forLoop);
  for (size_t k = 0; k < operands.size(); ++k)
    block.inputIterator(static_cast<int>(k), partition.imaps[k], partition.fmaps[k]);
  return block;
}

std::string sizeClass(const PartitionedGraph& graph) {
  std::string key;
  auto put = [&](const DimMap& m) {
    for (int d : m) key += std::to_string(d) + ',';
    key += '/';
  };
  for (const Operator& op : graph.ops()) {
    if (op.type != OpType::InputIterator) continue;
    key += std::to_string(op.inputIndex) + ':';
    put(op.imap);
    put(op.fmap);
    for (int64_t extent : op.outputs[0].shape) key += extent == 1 ? '1' : 'n';
    key += ';';
  }
  return key;
}

std::vector<GraphPartition> sizeClassRepresentatives(std::vector<GraphPartition> ranked,
                                                     const std::vector<TensorDesc>& operands) {
  struct Member {
    size_t index;
    int64_t chunkElements;
  };
  std::map<std::string, size_t> classOf;
  std::vector<Member> best; // per class, in order of first appearance
  for (size_t i = 0; i < ranked.size(); ++i) {
    std::optional<BlockGraph> inputs;
    try {
      inputs = partitionInputs(operands, ranked[i]);
    } catch (const Error&) {
      continue; // a map that does not fit: no block graph to search
    }
    int64_t elements = 0;
    for (const Operator& op : inputs->ops()) elements += numElements(op.outputs[0].shape);
    auto [it, fresh] = classOf.try_emplace(sizeClass(*inputs), best.size());
    if (fresh)
      best.push_back({i, elements});
    else if (elements < best[it->second].chunkElements)
      best[it->second] = {i, elements};
  }
  std::vector<GraphPartition> out;
  for (const Member& m : best) out.push_back(std::move(ranked[m.index]));
  return out;
}

} // namespace tcx::superopt
