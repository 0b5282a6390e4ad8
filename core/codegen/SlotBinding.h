#pragma once
// How a kernel's code names its buffers (GeneratedPlan.h): while it is
// generated, as module buffers with a byte offset into them; once it is
// complete, as the slots of its `Buffers` argument that its launches bind.
// ModuleBuilder does the binding when a plan kernel's code ends, and
// compares bound code to share it between plan kernels.

#include "codegen/GeneratedPlan.h"
#include "plan/ExecPlan.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tcx {

// b.p[buffer], or b.p[buffer+byteOffset] with a positive offset: a void*
// that bindSlots replaces with a slot. A launch value is buffer
// BufferBinding::kValue, b.p[-1+value].
std::string unboundBufferRef(int buffer, int64_t byteOffset);

struct BoundCode {
  std::string code;
  std::vector<BufferBinding> buffers; // per slot
};

// `code` with each buffer and offset it names (unboundBufferRef) bound to a
// slot, b.p[slot], numbered in the order the code first names them. Raises
// Internal for a b.p[ spelled otherwise.
BoundCode bindSlots(std::string_view code);

// What each slot of plan kernel `planKernel`'s argument holds, for a reader
// of its code: "b.p[0] = x", "b.p[1] = /features/Concat_3 + 4096 bytes",
// "b.p[2] = /attn/Softmax_output_0, staged" (a scratch buffer's name),
// "b.p[3] = 224, a launch value". Its
// launches all bind the same; none if it has no launch.
std::vector<std::string> describeSlots(const ExecPlan& plan, const GeneratedPlan& code, int planKernel);

// `code` with the identifiers that begin with `prefix` begun with `to`.
std::string replacePrefix(std::string_view code, std::string_view prefix, std::string_view to);

} // namespace tcx
