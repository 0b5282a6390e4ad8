#pragma once
// Rewrites nodes of older opsets into tcx's canonical form, the newest
// opset's: operands that used to be attributes become constant operands,
// and changed semantics are expressed with canonical ops.

#include "ir/Tensor.h"
#include "onnx/ImportedNode.h"

#include <cstdint>
#include <vector>

namespace tcx {

class DeclaredTypes;

struct AdaptedNodes {
  // The adapted node and any helper nodes it needs, in dependency order.
  std::vector<ImportedNode> nodes;
  // New constants (operands that were attributes), by value name.
  std::vector<std::pair<std::string, Tensor>> constants;
};

// The name tcx knows `opType` by: ONNX renamed a few ops.
std::string canonicalOpName(const std::string& opType);

class OpsetAdapter {
public:
  // For a model importing the default domain at `opsetVersion`; new value
  // and node names are drawn from the tables.
  OpsetAdapter(int64_t opsetVersion, NameTable& valueNames, NameTable& nodeNames, DeclaredTypes& declared)
      : opsetVersion_(opsetVersion), valueNames_(valueNames), nodeNames_(nodeNames), declared_(declared) {}

  AdaptedNodes adapt(ImportedNode node);

  // Adapting one node: what the rules in OpsetAdapter.cpp read and add.
  class Rewrite;

private:
  int64_t opsetVersion_;
  NameTable& valueNames_;
  NameTable& nodeNames_;
  DeclaredTypes& declared_;
};

} // namespace tcx
