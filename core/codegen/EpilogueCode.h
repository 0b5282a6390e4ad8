#pragma once
// The element-wise ops that follow a library kernel's result inside one
// fused kernel (a GEMM's bias and activation, an attention's scale, soft-cap
// and mask), as statements at one index: the library kernel calls them with
// its result in a register, so they cost no memory traffic.

#include "codegen/ValueCode.h"

#include <optional>
#include <string>
#include <vector>

namespace tcx {

// Statements that take `anchor`'s element from the float expression `acc`
// (rounded to anchor's dtype, as the reference stores it) and compute each
// node of `chain` (element-wise, anchor's shape, in order) at x0, x1, ...;
// each result is bound as a local of `values`. nullopt when a node of the
// chain is not element-wise or changes the shape.
std::optional<std::string> chainCode(ValueCode& values, const Value* anchor, const std::string& acc,
                                     const std::vector<const Node*>& chain);

// Statements storing every output of the kernel at x0, x1, ...; nullopt
// unless each output is `anchor` or a chain node's (bound by chainCode).
std::optional<std::string> storeCode(ValueCode& values, const Value* anchor, const std::vector<const Node*>& chain);

// The functor `<prefix>Epilogue` a library GEMM or convolution calls as
// (batch, m, n, acc): `outIndex` binds x0, x1, ... from (batch, m, n), then the
// kernel's element-wise chain after its anchor runs on `acc` and every output
// is stored. nullopt when the rest of the fused kernel is not such a chain.
std::optional<std::string> epilogueFunctor(ValueCode& values, const std::string& outIndex, const std::string& acc);

} // namespace tcx
