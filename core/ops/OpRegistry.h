#pragma once
// The registry of supported ops. Built once, on first use, by the
// registration functions of each op family (ops/Registration.h).

#include "ir/Graph.h"
#include "ops/OpDef.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tcx {

class OpRegistry {
public:
  static const OpRegistry& instance();

  // nullptr if `name` is not a supported op.
  const OpDef* find(const std::string& name) const;
  std::vector<const OpDef*> all() const; // sorted by name

  // Used by the registration functions only: add an op, and complete a
  // registered one (a family's CUDA forms are registered after its ops).
  void add(OpDef def);
  OpDef& edit(const std::string& name);

private:
  std::map<std::string, std::unique_ptr<OpDef>> ops_;
};

// A new node of the registered op `opType` in `graph` (Graph::addNode with
// its OpDef); raises Unsupported, naming the node and op, if tcx has no such op.
Node* addNode(Graph& graph, const std::string& opType, const std::vector<Value*>& inputs,
              const std::vector<std::string>& outputNames, AttrMap attrs = {}, const std::string& nodeName = {});

} // namespace tcx
