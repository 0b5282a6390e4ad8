#pragma once
// What MaxPool and AveragePool share: the window attributes resolved against
// an [N, C, spatial...] input, and the walk over every output position with
// the kernel taps that land inside the input.

#include "ops/nn/Parallel.h"
#include "ops/nn/Window.h"

namespace tcx::nn {

struct PoolPlan : WindowGeometry {
  int64_t planes = 0; // N * C: every plane is pooled on its own
  Dims3 padsEnd{0, 0, 0};
  Shape output;
};

// The attribute specs of MaxPool and AveragePool beyond their own.
std::vector<AttrSpec> poolAttrSpecs();

// One comparison or addition per kernel tap for each output element.
double poolFlops(const Node& node);

// Reads kernel_shape, strides, dilations, pads, auto_pad and ceil_mode.
PoolPlan planPool(const Shape& x, const AttrMap& attrs);

// Whether MaxPool's Indices number the spatial part column-major
// (storage_order 1) rather than row-major; raises InvalidModel for another order.
bool columnMajorIndices(const AttrMap& attrs);

// Calls f(plane, outputIndex, window) for every output element, planes spread
// over threads, where window[d] holds the taps inside the input along d.
template <typename F> void forEachWindow(const PoolPlan& p, F&& f) {
  const int64_t outVolume = volume(p.outputSize);
  const double cost = static_cast<double>(outVolume * volume(p.kernel));
  parallelFor(p.planes, cost, [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      int64_t o = plane * outVolume;
      for (int64_t od = 0; od < p.outputSize[0]; ++od)
        for (int64_t oh = 0; oh < p.outputSize[1]; ++oh)
          for (int64_t ow = 0; ow < p.outputSize[2]; ++ow) {
            const int64_t out[3] = {od, oh, ow};
            std::array<TapRange, 3> window;
            for (int d = 0; d < 3; ++d)
              window[d] =
                  tapRange(out[d] * p.strides[d] - p.padsBegin[d], p.kernel[d], p.dilations[d], 0, p.inputSize[d]);
            f(plane, o++, window);
          }
    }
  });
}

} // namespace tcx::nn
