#pragma once
// Loads and stores through mapping functions, as CUDA: VTC's overloaded
// tl.load / tl.store. A TensorAccess maps each index of a value to an
// element of one of the plan's buffers, piece by piece; the code tests the
// pieces' constraints in order and computes the offset with the piece's
// S.I + b(I) expression, constants folded.

#include "plan/ExecPlan.h"

#include <string>

namespace tcx {

// A device function `name(const Buffers& b, tcx::i64 x0, ...)` returning the
// value's element at x in its compute type.
std::string accessLoadFunction(const std::string& name, const TensorAccess& access, const ExecPlan& plan);
// Statements storing `value` (compute type) at index x0, x1, ... through the
// access.
std::string accessStore(const TensorAccess& access, const ExecPlan& plan, const std::string& value);
// Statements combining `value` atomically into the element at x0, x1, ...
// through the access: tcx::atomicCombine with `combine`, a functor of
// tcx::combine (a scatter's reduction).
std::string accessCombine(const TensorAccess& access, const ExecPlan& plan, const std::string& combine,
                          const std::string& value);
// Statements copying, where a piece of `from` holds at x0, x1, ..., that
// element (or fill value) to the same index of `to`, bit for bit: a residual
// data-movement kernel's body.
std::string regionCopy(const TensorAccess& from, const TensorAccess& to, const ExecPlan& plan);

// How a kernel storing through `access` walks its index: where the buffer
// is kept in a layout of its own (plan/Layout.h), in the order of the
// access's strides, largest first, so that consecutive threads store side
// by side. That is the buffer's order for the value's own storage, and the
// same for a slice of it (DenseNet's pools and convolutions store into a
// channel range of the concatenation they feed, or a copy kernel does).
Layout storeWalk(const TensorAccess& access, const ExecPlan& plan);

} // namespace tcx
