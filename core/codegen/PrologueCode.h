#pragma once
// The element-wise and channel-affine nodes ahead of a pointwise convolution
// inside its fused kernel (fusion rule 4: DenseNet's BN-ReLU over a
// concatenation) as the B prologue of the library GEMM
// that runs the convolution (tcx/gemm_wgmma_f32.cuh): a functor of an
// element of the tensor they read and its channel, applied as B is staged,
// so the convolution reads that tensor where a kernel wrote a mapped copy.

#include "codegen/ValueCode.h"

#include <optional>
#include <string>
#include <vector>

namespace tcx {

struct ChannelPrologue {
  const Value* source = nullptr;  // the kernel input the nodes read
  std::vector<const Node*> chain; // in order; the last computes the operand
};

// How the kernel computes `operand` of its anchor, when it does so from one
// kernel input of the operand's shape by element-wise nodes whose other
// operands are constants varying along dimension 1 at most; nullopt where
// the operand is a kernel input or computed otherwise.
std::optional<ChannelPrologue> channelPrologue(const ValueCode& values, const Value* operand);

// "Mul+Add+Relu": the chain's ops, for the launch's description.
std::string prologueSummary(const ChannelPrologue& prologue);

// The functor `<prefix>Prologue`: `channel(k)` reads what the chain takes
// from channel k alone, and `operator()(channel(k), v)` is the chain's
// result for an element v of channel k of the source.
std::string prologueFunctor(ValueCode& values, const ChannelPrologue& prologue);

} // namespace tcx
