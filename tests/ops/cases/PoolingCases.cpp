// The pools: MaxPool (with Indices in both storage orders) and AveragePool
// (with and without count_include_pad) over 1-D, 2-D and 3-D windows with
// strides, dilations, uneven pads, ceil_mode and every auto_pad, most of them
// hanging over the input's edges; and the global pools.

#include "CaseSupport.h"

namespace tcx::test {

namespace {

// Windows over a [2, 3, 7, 13] input.
std::vector<AttrMap> planarWindows() {
  return {
      attrs({{"kernel_shape", Ints{3, 3}}}),
      attrs({{"kernel_shape", Ints{3, 2}},
             {"strides", Ints{2, 1}},
             {"pads", Ints{1, 0, 2, 1}},
             {"dilations", Ints{2, 1}}}),
      attrs({{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}, {"ceil_mode", 1}}),
      attrs({{"kernel_shape", Ints{2, 3}}, {"strides", Ints{2, 2}}, {"auto_pad", "SAME_UPPER"}}),
      attrs({{"kernel_shape", Ints{2, 3}}, {"strides", Ints{2, 2}}, {"auto_pad", "SAME_LOWER"}}),
      attrs({{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 3}}, {"auto_pad", "VALID"}}),
  };
}

// Windows over [2, 3, 13] (1-D) and [1, 2, 5, 7, 6] (3-D) inputs.
std::vector<std::pair<Shape, AttrMap>> otherWindows() {
  return {
      {{2, 3, 13}, attrs({{"kernel_shape", Ints{3}}, {"strides", Ints{2}}, {"pads", Ints{1, 1}}, {"ceil_mode", 1}})},
      {{2, 3, 13}, attrs({{"kernel_shape", Ints{4}}, {"strides", Ints{3}}, {"auto_pad", "SAME_UPPER"}})},
      {{1, 2, 5, 7, 6},
       attrs({{"kernel_shape", Ints{2, 3, 2}}, {"strides", Ints{2, 1, 2}}, {"pads", Ints{0, 1, 1, 1, 0, 0}}})},
      {{1, 2, 5, 7, 6},
       attrs({{"kernel_shape", Ints{3, 2, 2}},
              {"dilations", Ints{1, 2, 1}},
              {"ceil_mode", 1},
              {"strides", Ints{2, 2, 3}}})},
  };
}

AttrMap with(AttrMap a, const std::string& name, const Attribute& value) {
  a.set(name, value);
  return a;
}

// MaxPool's values alone and with Indices, row-major and (storage_order 1)
// column-major.
void maxPools(GraphBuilder& b, Value* x, const AttrMap& window, bool indices) {
  if (!indices) {
    b.output(b.op("MaxPool", {x}, window));
    return;
  }
  for (Value* out : b.ops("MaxPool", {x}, window, 2)) b.output(out);
  for (Value* out : b.ops("MaxPool", {x}, with(window, "storage_order", 1), 2)) b.output(out);
}

OpCase maxPoolPlanarCase(DType dtype) {
  return {caseName("MaxPool 2-D", dtype), [=] {
            GraphBuilder b("max_pool");
            Value* x = b.input("x", dtype, {2, 3, 7, 13});
            const std::vector<AttrMap> windows = planarWindows();
            for (size_t i = 0; i < windows.size(); ++i) maxPools(b, x, windows[i], i == 1 || i == 2 || i == 4);
            maxPools(b, feed(b, "v", dtype, {2, 3, 7, 13}, Feed::Transposed), windows[2], true);
            return b.finish();
          }};
}

OpCase maxPoolOtherCase(DType dtype) {
  return {caseName("MaxPool 1-D 3-D", dtype), [=] {
            GraphBuilder b("max_pool");
            int n = 0;
            for (const auto& [shape, window] : otherWindows())
              maxPools(b, b.input("x" + std::to_string(n++), dtype, shape), window, true);
            maxPools(b, feed(b, "v", dtype, {2, 3, 13}, Feed::Sliced), otherWindows().front().second, true);
            return b.finish();
          }};
}

// AveragePool with and without the padding in the divisor.
void averagePools(GraphBuilder& b, Value* x, const AttrMap& window) {
  b.output(b.op("AveragePool", {x}, window));
  b.output(b.op("AveragePool", {x}, with(window, "count_include_pad", 1)));
}

OpCase averagePoolCase(DType dtype) {
  return {caseName("AveragePool", dtype), [=] {
            GraphBuilder b("average_pool");
            Value* x = b.input("x", dtype, {2, 3, 7, 13});
            for (const AttrMap& window : planarWindows()) averagePools(b, x, window);
            int n = 0;
            for (const auto& [shape, window] : otherWindows())
              averagePools(b, b.input("x" + std::to_string(n++), dtype, shape), window);
            averagePools(b, feed(b, "v", dtype, {2, 3, 7, 13}, Feed::Concatenated), planarWindows()[2]);
            return b.finish();
          }};
}

OpCase globalPoolCase(DType dtype) {
  return {caseName("GlobalMaxPool GlobalAveragePool", dtype), [=] {
            GraphBuilder b("global_pool");
            int n = 0;
            for (const Shape& shape : {Shape{2, 3, 13}, Shape{2, 3, 7, 13}, Shape{1, 2, 5, 7, 3}}) {
              Value* x = b.input("x" + std::to_string(n++), dtype, shape);
              b.output(b.op("GlobalMaxPool", {x}));
              b.output(b.op("GlobalAveragePool", {x}));
            }
            Value* v = feed(b, "v", dtype, {2, 3, 7, 13}, Feed::Padded);
            b.output(b.op("GlobalMaxPool", {v}));
            b.output(b.op("GlobalAveragePool", {v}));
            return b.finish();
          }};
}

} // namespace

std::vector<OpCase> poolingCases() {
  std::vector<OpCase> cases;
  for (DType dtype : {DType::F32, DType::F16, DType::I8, DType::U8}) cases.push_back(maxPoolPlanarCase(dtype));
  for (DType dtype : {DType::F32, DType::F16}) {
    cases.push_back(maxPoolOtherCase(dtype));
    cases.push_back(averagePoolCase(dtype));
    cases.push_back(globalPoolCase(dtype));
  }
  return cases;
}

} // namespace tcx::test
