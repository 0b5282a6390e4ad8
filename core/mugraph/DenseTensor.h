#pragma once
// A dense row-major tensor over any element domain, and the loops the
// interpreter builds operators from. Element arithmetic goes through the
// domain object (FloatDomain, FieldDomain, ...), so the same loops compute
// reference values and finite-field fingerprints.

#include "ir/Shape.h"

#include <vector>

namespace tcx::mugraph {

template <typename V> struct DenseTensor {
  Shape shape;
  std::vector<V> data;

  DenseTensor() = default;
  DenseTensor(Shape s, V fill) : shape(std::move(s)), data(static_cast<size_t>(numElements(shape)), fill) {}
};

// Calls fn(index) for every multi-index of `shape` in row-major order.
template <typename Fn> void forEachIndex(const Shape& shape, Fn&& fn) {
  if (numElements(shape) == 0) return;
  Shape index(shape.size(), 0);
  while (true) {
    fn(index);
    size_t d = shape.size();
    while (d > 0 && ++index[d - 1] == shape[d - 1]) index[--d] = 0;
    if (d == 0) return;
  }
}

inline int64_t offsetOf(const Shape& index, const std::vector<int64_t>& strides) {
  int64_t off = 0;
  for (size_t d = 0; d < index.size(); ++d) off += index[d] * strides[d];
  return off;
}

// Strides that read an operand of `shape` at the indices of the broadcast
// `out` shape (numpy rules: aligned right, size-1 dims repeat).
inline std::vector<int64_t> broadcastStrides(const Shape& shape, const Shape& out) {
  std::vector<int64_t> own = contiguousStrides(shape), strides(out.size(), 0);
  size_t lead = out.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) strides[lead + d] = shape[d] == 1 ? 0 : own[d];
  return strides;
}

// The box of `src` starting at `offset` with extents `extent`.
template <typename V> DenseTensor<V> sliceOf(const DenseTensor<V>& src, const Shape& offset, const Shape& extent) {
  DenseTensor<V> out;
  out.shape = extent;
  out.data.reserve(static_cast<size_t>(numElements(extent)));
  std::vector<int64_t> strides = contiguousStrides(src.shape);
  int64_t base = offsetOf(offset, strides);
  forEachIndex(extent, [&](const Shape& i) { out.data.push_back(src.data[base + offsetOf(i, strides)]); });
  return out;
}

// dst[offset + i] += src[i] for every index i of src.
template <typename D, typename V>
void accumulateInto(const D& domain, DenseTensor<V>& dst, const DenseTensor<V>& src, const Shape& offset) {
  std::vector<int64_t> strides = contiguousStrides(dst.shape);
  int64_t base = offsetOf(offset, strides);
  size_t k = 0;
  forEachIndex(src.shape, [&](const Shape& i) {
    V& slot = dst.data[base + offsetOf(i, strides)];
    slot = domain.add(slot, src.data[k++]);
  });
}

template <typename V, typename Fn> DenseTensor<V> mapUnary(const DenseTensor<V>& x, Fn&& fn) {
  DenseTensor<V> out;
  out.shape = x.shape;
  out.data.reserve(x.data.size());
  for (const V& v : x.data) out.data.push_back(fn(v));
  return out;
}

template <typename V, typename Fn>
DenseTensor<V> mapBinary(const DenseTensor<V>& x, const DenseTensor<V>& y, const Shape& outShape, Fn&& fn) {
  DenseTensor<V> out;
  out.shape = outShape;
  out.data.reserve(static_cast<size_t>(numElements(outShape)));
  if (x.shape == outShape && y.shape == outShape) {
    for (size_t i = 0; i < x.data.size(); ++i) out.data.push_back(fn(x.data[i], y.data[i]));
    return out;
  }
  std::vector<int64_t> sx = broadcastStrides(x.shape, outShape), sy = broadcastStrides(y.shape, outShape);
  forEachIndex(outShape,
               [&](const Shape& i) { out.data.push_back(fn(x.data[offsetOf(i, sx)], y.data[offsetOf(i, sy)])); });
  return out;
}

// Batched over leading dims, which broadcast: [..., m, k] x [..., k, n].
template <typename D, typename V>
DenseTensor<V> matmulOf(const D& domain, const DenseTensor<V>& x, const DenseTensor<V>& y) {
  size_t r = x.shape.size();
  int64_t m = x.shape[r - 2], k = x.shape[r - 1], n = y.shape[r - 1];
  Shape batch(r - 2);
  for (size_t d = 0; d + 2 < r; ++d) batch[d] = std::max(x.shape[d], y.shape[d]);
  Shape outShape = batch;
  outShape.push_back(m);
  outShape.push_back(n);
  DenseTensor<V> out(outShape, domain.zero());
  std::vector<int64_t> sx = broadcastStrides(Shape(x.shape.begin(), x.shape.end() - 2), batch),
                       sy = broadcastStrides(Shape(y.shape.begin(), y.shape.end() - 2), batch);
  int64_t b = 0;
  forEachIndex(batch, [&](const Shape& index) {
    const V* a = x.data.data() + offsetOf(index, sx) * m * k;
    const V* c = y.data.data() + offsetOf(index, sy) * k * n;
    V* o = out.data.data() + b++ * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t l = 0; l < k; ++l)
        for (int64_t j = 0; j < n; ++j) o[i * n + j] = domain.add(o[i * n + j], domain.mul(a[i * k + l], c[l * n + j]));
  });
  return out;
}

// Sums every `group` consecutive elements along `dim`.
template <typename D, typename V>
DenseTensor<V> sumOf(const D& domain, const DenseTensor<V>& x, int dim, int64_t group) {
  Shape outShape = x.shape;
  outShape[dim] /= group;
  DenseTensor<V> out(outShape, domain.zero());
  std::vector<int64_t> strides = contiguousStrides(outShape);
  forEachIndex(x.shape, [&, k = size_t{0}](const Shape& i) mutable {
    Shape o = i;
    o[dim] /= group;
    V& slot = out.data[offsetOf(o, strides)];
    slot = domain.add(slot, x.data[k++]);
  });
  return out;
}

template <typename V> DenseTensor<V> repeatOf(const DenseTensor<V>& x, const Shape& factors) {
  Shape outShape = x.shape;
  for (size_t d = 0; d < outShape.size(); ++d) outShape[d] *= factors[d];
  DenseTensor<V> out;
  out.shape = outShape;
  out.data.reserve(static_cast<size_t>(numElements(outShape)));
  std::vector<int64_t> strides = contiguousStrides(x.shape);
  forEachIndex(outShape, [&](const Shape& i) {
    int64_t off = 0;
    for (size_t d = 0; d < i.size(); ++d) off += (i[d] % x.shape[d]) * strides[d];
    out.data.push_back(x.data[off]);
  });
  return out;
}

} // namespace tcx::mugraph
