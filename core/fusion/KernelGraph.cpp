#include "fusion/KernelGraph.h"

namespace tcx {

const char* kernelKindName(KernelKind kind) {
  switch (kind) {
  case KernelKind::DataMovement: return "data movement";
  case KernelKind::Gemm: return "gemm";
  case KernelKind::Conv: return "conv";
  case KernelKind::Attention: return "attention";
  case KernelKind::Reduction: return "reduction";
  case KernelKind::Pooling: return "pooling";
  case KernelKind::Elementwise: return "elementwise";
  }
  return "?";
}

std::string FusedKernel::opSummary() const {
  std::string s;
  for (const Node* n : nodes) s += (s.empty() ? "" : "+") + n->opType();
  return s;
}

void KernelGraph::addKernel(FusedKernel kernel) {
  kernel.id = static_cast<int>(kernels_.size());
  for (const Node* n : kernel.nodes) kernelIndex_[n] = kernels_.size();
  kernels_.push_back(std::move(kernel));
}

} // namespace tcx
