#pragma once
// The Virtual Tensor Opportunity Graph (VTC Definition 6, Algorithm 1).
// Nodes are the tensors at kernel boundaries; an edge (a, b) says that a can
// be made a virtual tensor of b by eliminating one data-movement op, with
// the mapping from a's indices into b on the region of a the edge covers.
// Edges out of one node conflict when their regions overlap (a's indices
// would map to two places); a node can be virtual only through a set of
// pairwise compatible edges that covers it exactly once: its covers.

#include "fusion/KernelGraph.h"
#include "ops/MovementSemantics.h"
#include "vt/Contiguity.h"
#include "index/MappingFunction.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace tcx {

enum class EdgeDirection {
  OutputOverInput, // the op's output becomes virtual over its input
  InputOverOutput, // the op's input becomes virtual over (is written into) its output
};
const char* edgeDirectionName(EdgeDirection d);

struct VtogEdge {
  int id = 0;
  const Value* from = nullptr; // a: would become virtual
  const Value* to = nullptr;   // b
  const Node* op = nullptr;    // the data-movement op it eliminates (in part)
  EdgeDirection direction = EdgeDirection::OutputOverInput;
  MappingFunction mapping; // a's indices -> b (source 0); may contain fill pieces
  Contiguity contiguity;
  OpportunityType type = OpportunityType::TypeII;

  // "e3: k -> k_cache_out (ScatterND /k_cache/ScatterND, input over output)"
  std::string describe() const;
};

class Vtog {
public:
  const std::vector<const Value*>& nodes() const { return nodes_; }
  const std::vector<VtogEdge>& edges() const { return edges_; }
  const VtogEdge& edge(int id) const { return edges_.at(id); }
  const std::vector<int>& outgoing(const Value* v) const;
  const std::vector<int>& incoming(const Value* v) const;
  // Pairs of edges out of v whose regions overlap (VTC's conflict set S(v)).
  const std::vector<std::pair<int, int>>& conflicts(const Value* v) const;
  bool conflict(int a, int b) const;
  // The sets of edges out of v that cover v exactly once, smallest first.
  const std::vector<std::vector<int>>& covers(const Value* v) const;
  // The mapping semantics of a data-movement op, or nullptr when it has
  // none (an index operand that is not a constant).
  const MovementSemantics* semanticsOf(const Node* op) const;
  // The edge with this name ("e3") or from/to tensor names ("k->k_cache_out"), or -1.
  int findEdge(const std::string& spec) const;

private:
  friend Vtog buildVtog(const KernelGraph& kernels);
  void addNode(const Value* v);
  void addEdge(VtogEdge edge);
  void computeConflictsAndCovers();

  std::vector<const Value*> nodes_;
  std::vector<VtogEdge> edges_;
  std::unordered_map<const Value*, std::vector<int>> outgoing_, incoming_;
  std::unordered_map<const Value*, std::vector<std::pair<int, int>>> conflicts_;
  std::unordered_map<const Value*, std::vector<std::vector<int>>> covers_;
  std::unordered_map<const Node*, MovementSemantics> semantics_;
};

// VTC Algorithm 1 over the data-movement kernels of a fused graph, with the
// rules each op's MovementSemantics provides. Graph inputs, graph outputs
// and constants never become virtual.
Vtog buildVtog(const KernelGraph& kernels);

} // namespace tcx
