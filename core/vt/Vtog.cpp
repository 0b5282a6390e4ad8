#include "vt/Vtog.h"

#include "ops/MovementSemantics.h"
#include "ops/OpDef.h"
#include "index/Regions.h"

#include <algorithm>
#include <fmt/format.h>

namespace tcx {

const char* edgeDirectionName(EdgeDirection d) {
  return d == EdgeDirection::OutputOverInput ? "output over input" : "input over output";
}

std::string VtogEdge::describe() const {
  return fmt::format("e{}: {} -> {} ({} '{}', {}, type {})", id, from->name(), to->name(), op->opType(), op->name(),
                     edgeDirectionName(direction), opportunityTypeName(type));
}

namespace {
const std::vector<int> kNoEdges;
const std::vector<std::pair<int, int>> kNoConflicts;
const std::vector<std::vector<int>> kNoCovers;

// Splits a mapping into one mapping per source, each over that source
// alone. Fill pieces go with the first source, so that exactly one edge
// covers them.
std::vector<MappingFunction> splitBySource(const MappingFunction& m) {
  std::vector<MappingFunction> out;
  int firstUsed = -1;
  for (const MappingPiece& p : m.pieces())
    if (p.source != MappingPiece::kFill && (firstUsed < 0 || p.source < firstUsed)) firstUsed = p.source;
  for (size_t s = 0; s < m.sourceShapes().size(); ++s) {
    MappingFunction f(m.virtualShape(), {m.sourceShapes()[s]});
    for (MappingPiece p : m.pieces()) {
      bool mine = p.source == static_cast<int>(s) || (p.source == MappingPiece::kFill && static_cast<int>(s) == firstUsed);
      if (!mine) continue;
      if (p.source != MappingPiece::kFill) p.source = 0;
      f.addPiece(std::move(p));
    }
    out.push_back(std::move(f));
  }
  return out;
}

bool mayBecomeVirtual(const Value* v) { return !v->isGraphInput() && !v->isGraphOutput() && !v->isConstant(); }

} // namespace

const std::vector<int>& Vtog::outgoing(const Value* v) const {
  auto it = outgoing_.find(v);
  return it == outgoing_.end() ? kNoEdges : it->second;
}

const std::vector<int>& Vtog::incoming(const Value* v) const {
  auto it = incoming_.find(v);
  return it == incoming_.end() ? kNoEdges : it->second;
}

const std::vector<std::pair<int, int>>& Vtog::conflicts(const Value* v) const {
  auto it = conflicts_.find(v);
  return it == conflicts_.end() ? kNoConflicts : it->second;
}

bool Vtog::conflict(int a, int b) const {
  const auto& list = conflicts(edge(a).from);
  return std::find(list.begin(), list.end(), std::pair{std::min(a, b), std::max(a, b)}) != list.end();
}

const std::vector<std::vector<int>>& Vtog::covers(const Value* v) const {
  auto it = covers_.find(v);
  return it == covers_.end() ? kNoCovers : it->second;
}

const MovementSemantics* Vtog::semanticsOf(const Node* op) const {
  auto it = semantics_.find(op);
  return it == semantics_.end() ? nullptr : &it->second;
}

int Vtog::findEdge(const std::string& spec) const {
  for (const VtogEdge& e : edges_)
    if (spec == fmt::format("e{}", e.id) || spec == e.from->name() + "->" + e.to->name()) return e.id;
  return -1;
}

void Vtog::addNode(const Value* v) {
  if (std::find(nodes_.begin(), nodes_.end(), v) == nodes_.end()) nodes_.push_back(v);
}

void Vtog::addEdge(VtogEdge edge) {
  if (edge.mapping.pieces().empty()) return;
  // Both ends are nodes: an edge may map onto a constant (a Concat with a
  // constant operand, as the dynamo exporter writes the decode step's mask),
  // which no kernel reads as an input.
  addNode(edge.from);
  addNode(edge.to);
  edge.id = static_cast<int>(edges_.size());
  edge.contiguity = analyzeContiguity(edge.mapping, dtypeSize(edge.from->type().dtype));
  edge.type = opportunityType(edge.contiguity);
  outgoing_[edge.from].push_back(edge.id);
  incoming_[edge.to].push_back(edge.id);
  edges_.push_back(std::move(edge));
}

void Vtog::computeConflictsAndCovers() {
  for (const Value* v : nodes_) {
    const std::vector<int>& out = outgoing(v);
    for (size_t i = 0; i < out.size(); ++i)
      for (size_t j = i + 1; j < out.size(); ++j)
        if (regionsOverlap(edges_[out[i]].mapping, edges_[out[j]].mapping)) conflicts_[v].push_back({out[i], out[j]});
    // Covers: compatible subsets that tile v. Nodes have few edges (one op
    // on each side), so subsets are enumerated; past 12 edges only the
    // subsets of one op's edges are considered.
    std::vector<std::vector<int>> candidates;
    if (out.size() <= 12) {
      for (uint32_t mask = 1; mask < (1u << out.size()); ++mask) {
        std::vector<int> set;
        for (size_t i = 0; i < out.size(); ++i)
          if (mask & (1u << i)) set.push_back(out[i]);
        candidates.push_back(set);
      }
    } else {
      std::unordered_map<const Node*, std::vector<int>> byOp;
      for (int e : out) byOp[edges_[e].op].push_back(e);
      for (auto& [op, set] : byOp) candidates.push_back(set);
      for (int e : out) candidates.push_back({e});
    }
    for (const std::vector<int>& set : candidates) {
      bool compatible = true;
      for (size_t i = 0; i < set.size() && compatible; ++i)
        for (size_t j = i + 1; j < set.size() && compatible; ++j) compatible = !conflict(set[i], set[j]);
      if (!compatible) continue;
      std::vector<const MappingFunction*> maps;
      for (int e : set) maps.push_back(&edges_[e].mapping);
      if (coverExactlyOnce(maps)) covers_[v].push_back(set);
    }
    std::stable_sort(covers_[v].begin(), covers_[v].end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  }
}

Vtog buildVtog(const KernelGraph& kernels) {
  Vtog g;
  for (const Value* in : kernels.graph().inputs()) g.addNode(in);
  for (const FusedKernel& k : kernels.kernels()) {
    for (const Value* v : k.inputs) g.addNode(v);
    for (const Value* v : k.outputs) g.addNode(v);
  }
  for (const FusedKernel& k : kernels.kernels()) {
    if (!k.isDataMovement()) continue;
    const Node& node = *k.anchor;
    std::optional<MovementSemantics> sem = nodeMovement(node);
    if (!sem) continue;
    g.semantics_.emplace(&node, *sem);
    // Output over input: each output, per data input it reads.
    for (size_t o = 0; o < node.numOutputs(); ++o) {
      const Value* out = node.output(o);
      if (!mayBecomeVirtual(out)) continue;
      std::vector<MappingFunction> parts = splitBySource(sem->outputMaps[o]);
      for (size_t s = 0; s < parts.size(); ++s)
        g.addEdge({0, out, node.input(sem->dataInputs[s]), &node, EdgeDirection::OutputOverInput, std::move(parts[s]), {},
                   OpportunityType::TypeII});
    }
    // Input over output: each data input whose elements land once, per output.
    for (size_t i = 0; i < sem->dataInputs.size(); ++i) {
      const Value* in = node.input(sem->dataInputs[i]);
      if (!sem->inputMaps[i] || !mayBecomeVirtual(in)) continue;
      std::vector<MappingFunction> parts = splitBySource(*sem->inputMaps[i]);
      for (size_t o = 0; o < parts.size(); ++o)
        g.addEdge({0, in, node.output(o), &node, EdgeDirection::InputOverOutput, std::move(parts[o]), {},
                   OpportunityType::TypeII});
    }
  }
  g.computeConflictsAndCovers();
  return g;
}

} // namespace tcx
