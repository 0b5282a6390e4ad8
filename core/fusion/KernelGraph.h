#pragma once
// The graph after operator fusion: the input of VTC (section 3.2). Each
// FusedKernel is a group of graph nodes that one GPU kernel computes; the
// values crossing kernel boundaries are the tensors VTC may make virtual.
// Data-movement ops are never fused: each stays a kernel of its own, for
// the virtual-tensor pass to eliminate.

#include "ir/Graph.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace tcx {

enum class KernelKind {
  DataMovement, // one data-movement op
  Gemm,         // MatMul/Gemm with element-wise prologue-free epilogue
  Conv,         // Conv with element-wise epilogue (pointwise: and a per-channel prologue)
  Attention,    // MatMul -> scale/mask/softcap -> Softmax -> MatMul
  Reduction,    // Softmax, normalizations, Reduce*, with element-wise neighbours
  Pooling,      // MaxPool, AveragePool, GlobalAveragePool
  Elementwise,  // a chain of element-wise ops
};
const char* kernelKindName(KernelKind kind);

struct FusedKernel {
  int id = 0;
  std::string name;
  KernelKind kind = KernelKind::Elementwise;
  Node* anchor = nullptr;   // the op that determines the kernel's schedule
  std::vector<Node*> nodes; // in topological order
  std::vector<Value*> inputs;  // non-constant values read from outside the kernel
  std::vector<Value*> outputs; // values read outside the kernel or graph outputs

  bool isDataMovement() const { return kind == KernelKind::DataMovement; }
  // "MatMul+Div+Cast+Softmax+Cast+MatMul": the fused ops, for display.
  std::string opSummary() const;
};

class KernelGraph {
public:
  explicit KernelGraph(const Graph& graph) : graph_(&graph) {}

  const Graph& graph() const { return *graph_; }
  const std::vector<FusedKernel>& kernels() const { return kernels_; }
  const FusedKernel& kernelOf(const Node* node) const { return kernels_.at(kernelIndex_.at(node)); }
  // The same, or null for a node no kernel holds.
  const FusedKernel* findKernelOf(const Node* node) const {
    auto it = kernelIndex_.find(node);
    return it == kernelIndex_.end() ? nullptr : &kernels_[it->second];
  }

  // Used by the fusion pass: kernels in topological order.
  void addKernel(FusedKernel kernel);

private:
  const Graph* graph_;
  std::vector<FusedKernel> kernels_;
  std::unordered_map<const Node*, size_t> kernelIndex_;
};

} // namespace tcx
