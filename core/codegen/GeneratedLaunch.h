#pragma once
// One launch of a generated plan's module (GeneratedPlan.h) and what it binds
// to its kernel's buffer slots.

#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace tcx {

// What a launch binds to one slot of its kernel's argument: a module buffer
// at an offset, or (buffer kValue) a launch value, the number byteOffset
// itself, which the code reads with tcx::slotValue (kernels' abi.h). A
// number that is a launch value rather than a literal lets kernels whose
// code differs only in it share their code (ModuleBuilder::launchValue).
struct BufferBinding {
  static constexpr int kValue = -1;
  int buffer = 0;         // a module buffer, or kValue
  int64_t byteOffset = 0; // added to its address; a launch value's number
  bool isValue() const { return buffer == kValue; }
  auto operator<=>(const BufferBinding&) const = default;
};

struct GeneratedLaunch {
  int planKernel = 0;      // index into ExecPlan::kernels
  std::string entry;       // extern "C" kernel name
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{256, 1, 1};
  unsigned sharedBytes = 0;
  std::string what; // for reports: "stage MatMul '/attn/MatMul'", "store /x", "gemm", ...
  // What each slot of the kernel's argument holds: its code's b.p[s] is
  // the address of buffers[s].buffer plus buffers[s].byteOffset (or, for a
  // launch value, byteOffset).
  std::vector<BufferBinding> buffers;
};

} // namespace tcx
