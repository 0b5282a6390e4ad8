#pragma once
// The taps of a sliding window in a CUDA form that computes one output
// element (ops/CudaLowering.h): a loop per spatial dimension and the input
// position each tap reads. Conv and the pools slide the window over their
// input; ConvTranspose runs it backwards, from an output position to the
// input positions whose taps land on it. Written once here, so that every
// window op visits taps in the same order as its CPU kernel.

#include "ops/nn/Patches.h"

#include <string>
#include <vector>

namespace tcx::nn {

enum class WindowDirection {
  Forward,    // tap t of output o reads input o * stride - pad + t * dilation
  Transposed, // tap t of output o reads input i where i * stride + t * dilation - pad = o
};

struct CudaWindow {
  std::string loops;              // for-headers over the taps, outermost first, to put before one statement
  std::string positions;          // statements declaring the input position of each dimension at the taps
  std::string inside;             // whether the position lies in the input
  std::string insidePadded;       // Forward: whether it lies in the input with its padding on both sides
  std::vector<std::string> taps;  // the tap variable of each spatial dimension
  std::vector<std::string> input; // the input position of each spatial dimension
};

// The window `g` (at most three spatial dimensions, Patches.h) at the output
// position `output` (one index expression per spatial dimension); `padsEnd`
// only matters to insidePadded.
CudaWindow cudaWindow(const WindowGeometry& g, const Dims3& padsEnd, const std::vector<std::string>& output,
                      WindowDirection direction);

} // namespace tcx::nn
