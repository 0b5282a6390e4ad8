#include "vt/PointsToGraph.h"

#include "index/Regions.h"

#include <algorithm>
#include <fmt/format.h>
#include <functional>

namespace tcx {

namespace {
const std::vector<int> kNone;
}

PointsToGraph::PointsToGraph(const Vtog& vtog, std::set<int> selected) : vtog_(&vtog), selected_(std::move(selected)) {
  for (int e : selected_) chosen_[vtog.edge(e).from].push_back(e);
}

const std::vector<int>& PointsToGraph::edgesOf(const Value* v) const {
  auto it = chosen_.find(v);
  return it == chosen_.end() ? kNone : it->second;
}

std::vector<std::string> PointsToGraph::problems() const {
  std::vector<std::string> out;
  for (const auto& [v, edges] : chosen_) {
    std::vector<const MappingFunction*> maps;
    for (int e : edges) maps.push_back(&vtog_->edge(e).mapping);
    if (!coverExactlyOnce(maps)) {
      std::string list;
      for (int e : edges) list += (list.empty() ? "" : ", ") + fmt::format("e{}", e);
      out.push_back(fmt::format("the chosen edges of '{}' ({}) {}", v->name(), list,
                                edges.size() == 1 ? "cover only part of it" : "overlap or leave part of it uncovered"));
    }
  }
  // Cycles: depth-first search over chosen edges.
  std::unordered_map<const Value*, int> state; // 1 on stack, 2 done
  std::function<bool(const Value*)> visit = [&](const Value* v) {
    state[v] = 1;
    for (int e : edgesOf(v)) {
      const Value* next = vtog_->edge(e).to;
      if (state[next] == 1) {
        out.push_back(fmt::format("the chosen edges form a cycle through '{}' and '{}'", v->name(), next->name()));
        return true;
      }
      if (state[next] == 0 && visit(next)) return true;
    }
    state[v] = 2;
    return false;
  };
  for (const auto& [v, edges] : chosen_)
    if (state[v] == 0 && visit(v)) break;
  return out;
}

const PointsToGraph::Resolution& PointsToGraph::resolve(const Value* v) const {
  if (auto it = resolved_.find(v); it != resolved_.end()) return it->second;
  Resolution r;
  const std::vector<int>& edges = edgesOf(v);
  if (edges.empty()) {
    r.mapping = MappingFunction::identity(v->type().shape);
    r.physical = {v};
    return resolved_.emplace(v, std::move(r)).first->second;
  }
  // Gather the chosen edges' pieces into one mapping over their targets,
  // then replace the targets by their own resolutions.
  std::vector<Shape> targetShapes;
  for (int e : edges) targetShapes.push_back(vtog_->edge(e).to->type().shape);
  MappingFunction m(v->type().shape, targetShapes);
  for (size_t i = 0; i < edges.size(); ++i)
    for (MappingPiece p : vtog_->edge(edges[i]).mapping.pieces()) {
      if (p.source != MappingPiece::kFill) p.source = static_cast<int>(i);
      m.addPiece(std::move(p));
    }
  std::vector<MappingFunction> targets;
  std::vector<const Value*> physical;
  for (size_t i = 0; i < edges.size(); ++i) {
    const Resolution& target = resolve(vtog_->edge(edges[i]).to);
    targets.push_back(target.mapping);
    physical.insert(physical.end(), target.physical.begin(), target.physical.end());
  }
  // Sources are now [physical of target 0, physical of target 1, ...]: merge
  // repeated physical tensors.
  m = m.composeSources(targets);
  std::vector<int> newIndex(m.sourceShapes().size(), -1);
  for (size_t s = 0; s < m.sourceShapes().size(); ++s) {
    const Value* p = physical[s];
    auto it = std::find(r.physical.begin(), r.physical.end(), p);
    if (it == r.physical.end()) {
      newIndex[s] = static_cast<int>(r.physical.size());
      r.physical.push_back(p);
    } else {
      newIndex[s] = static_cast<int>(it - r.physical.begin());
    }
  }
  std::vector<Shape> shapes;
  for (const Value* p : r.physical) shapes.push_back(p->type().shape);
  r.mapping = m.remapSources(newIndex, shapes);
  return resolved_.emplace(v, std::move(r)).first->second;
}

} // namespace tcx
