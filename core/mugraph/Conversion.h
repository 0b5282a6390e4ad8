#pragma once
// From an imported tcx::Graph to a kernel-level μGraph, and what each ONNX op
// becomes there. A whole graph converts if every op does; a node subset (a
// LAX subprogram, or one FusedKernel's nodes from the fused kernel graph)
// converts into a program whose inputs are the values it reads from outside
// and whose outputs are the values used outside or marked graph outputs.
//
// Scalar constants become Constant operators; larger constants become
// inputs (weights), so the verifier draws them at random like activations.

#include "ir/Graph.h"
#include "mugraph/MuGraph.h"

#include <span>
#include <string>

namespace tcx::mugraph {

// What one ONNX node becomes in a μGraph, from its op's registry entry
// (OpDef::muGraph, ops/MuGraphLowering.h).
struct NodeClass {
  bool convertible = true; // some μGraph operators compute it
  bool lax = true;         // within the LAX fragment
  int exps = 0;            // exponentiations on a path through it (Exp, Sigmoid, Softmax: 1)
  std::string reason;      // why not convertible or not LAX: "Sqrt is not LAX"
};
NodeClass classifyNode(const Node& node);

// Raise Unsupported naming the node that has no μGraph form.
KernelGraph toMuGraph(const Graph& graph);
KernelGraph toMuGraph(std::span<const Node* const> nodes, const std::string& name);

} // namespace tcx::mugraph
