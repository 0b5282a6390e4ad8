#pragma once
// The input of a convolution seen as a matrix without materialising it
// (implicit im2col): row k is a (channel, kernel tap) pair, column j an output
// position, and the element is the input value under that tap, or 0 where the
// tap falls into the padding. Conv multiplies its weights by this matrix; the
// GEMM core packs panels of it straight from the image.

#include <array>
#include <cstdint>

namespace tcx::nn {

// Up to three spatial dimensions, outermost first; missing leading
// dimensions are 1 (a 1-D convolution has size {1, 1, W}).
using Dims3 = std::array<int64_t, 3>;

inline int64_t volume(const Dims3& d) { return d[0] * d[1] * d[2]; }

// A window sliding over at most three spatial dimensions (unused ones are
// 1): what Conv, ConvTranspose and the pools share once their attributes
// are read (Window.h).
struct WindowGeometry {
  Dims3 inputSize{1, 1, 1};
  Dims3 outputSize{1, 1, 1};
  Dims3 kernel{1, 1, 1};
  Dims3 strides{1, 1, 1};
  Dims3 dilations{1, 1, 1};
  Dims3 padsBegin{0, 0, 0};
};

struct PatchGeometry : WindowGeometry {
  int64_t channels = 0;

  int64_t rows() const { return channels * volume(kernel); }
  int64_t cols() const { return volume(outputSize); }
};

// `image` holds geometry->channels planes of volume(inputSize) elements each.
template <typename T> struct PatchMatrix {
  const T* image = nullptr;
  const PatchGeometry* geometry = nullptr;
};

} // namespace tcx::nn
