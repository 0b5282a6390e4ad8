#include "MovementOpCases.h"

#include "ops/GraphBuilder.h"

#include <cstdint>
#include <functional>
#include <limits>

namespace tcx::test {

namespace {

using Build = std::function<void(GraphBuilder&)>;

MovementOpCase makeCase(const std::string& name, const Build& build) {
  GraphBuilder b(name);
  build(b);
  return {name, b.finish()};
}

Value* op(GraphBuilder& b, const std::string& type, const std::vector<Value*>& inputs, AttrMap a = {}) {
  return b.op(type, inputs, std::move(a));
}

Value* i64Scalar(GraphBuilder& b, const std::string& name, int64_t v) {
  return b.constant(name, Tensor::scalar<int64_t>(v));
}

// `pos` (an input of shape [1], values in [0, 4)) plus 0, 1, ..., n-1 along
// dimension `axis` of `shape`, broadcast over the others: distinct indices
// along that axis, in [0, n + 3).
Value* distinctIndices(GraphBuilder& b, const std::string& name, Value* pos, Shape shape, size_t axis) {
  std::vector<int64_t> values;
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size() - 1; d-- > 0;) strides[d] = strides[d + 1] * shape[d + 1];
  for (int64_t i = 0; i < numElements(shape); ++i) values.push_back(i / strides[axis] % shape[axis]);
  Value* steps = b.constant(name + "_steps", Tensor::fromVector<int64_t>(shape, values));
  return op(b, "Add", {steps, pos});
}

void gatherCases(std::vector<MovementOpCase>& cases) {
  cases.push_back(makeCase("Gather run-time ids, axis 0", [](GraphBuilder& b) {
    b.output(op(b, "Gather", {b.input("data", DType::F32, {10, 6}), b.input("ids", DType::I64, {2, 3})}));
  }));
  cases.push_back(makeCase("Gather negative i32 ids, axis -1", [](GraphBuilder& b) {
    Value* ids = op(b, "Sub", {b.input("ids", DType::I32, {4}), b.constant("two", Tensor::scalar<int32_t>(2))});
    b.output(op(b, "Gather", {b.input("data", DType::F32, {3, 5, 7}), ids}, attrs({{"axis", -1}})));
  }));
  cases.push_back(makeCase("Gather scalar id, f16", [](GraphBuilder& b) {
    b.output(op(b, "Gather", {b.input("data", DType::F16, {6, 8}), b.input("id", DType::I64, {})},
                attrs({{"axis", 1}})));
  }));
  cases.push_back(makeCase("Gather token embedding, bf16", [](GraphBuilder& b) {
    Value* rows = op(b, "Gather", {b.input("table", DType::BF16, {50, 16}), b.input("tokens", DType::I64, {2, 5})});
    b.output(op(b, "MatMul", {rows, b.input("w", DType::BF16, {16, 8})}));
  }));
  cases.push_back(makeCase("Gather i64 and bool data", [](GraphBuilder& b) {
    Value* ids = b.input("ids", DType::I64, {3});
    b.output(op(b, "Gather", {b.input("counts", DType::I64, {5, 4}), ids}));
    b.output(op(b, "Gather", {b.input("mask", DType::Bool, {4, 5}), ids}, attrs({{"axis", 1}})));
  }));
  cases.push_back(makeCase("Gather constant ids, no progression", [](GraphBuilder& b) {
    Value* ids = b.constant("ids", Tensor::fromVector<int64_t>({4}, {3, 0, -2, 2}));
    b.output(op(b, "Gather", {b.input("data", DType::F32, {8, 4}), ids}));
  }));
  cases.push_back(makeCase("Gather constant progression", [](GraphBuilder& b) {
    Value* ids = b.ints("ids", {1, 2, 3});
    b.output(op(b, "Gather", {b.input("data", DType::F32, {8, 4}), ids}, attrs({{"axis", 0}})));
  }));
  cases.push_back(makeCase("Gather from a transposed input", [](GraphBuilder& b) {
    Value* t = op(b, "Transpose", {b.input("x", DType::F32, {6, 10})}, attrs({{"perm", std::vector<int64_t>{1, 0}}}));
    b.output(op(b, "Gather", {t, b.input("ids", DType::I64, {3})}));
  }));
  cases.push_back(makeCase("Gather from a concatenation", [](GraphBuilder& b) {
    Value* c = op(b, "Concat", {b.input("a", DType::F32, {4, 6}), b.input("b", DType::F32, {5, 6})},
                  attrs({{"axis", 0}}));
    Value* ids = op(b, "Add", {b.input("ids", DType::I64, {3}), b.ints("shift", {0, 3, 5})}); // reaches b
    b.output(op(b, "Gather", {c, ids}));
  }));
  cases.push_back(makeCase("GatherElements axis 0", [](GraphBuilder& b) {
    b.output(op(b, "GatherElements", {b.input("data", DType::F32, {4, 5}), b.input("ids", DType::I64, {3, 5})}));
  }));
  cases.push_back(makeCase("GatherElements negative ids, axis -1", [](GraphBuilder& b) {
    Value* ids = op(b, "Sub", {b.input("ids", DType::I32, {3, 4}), b.constant("four", Tensor::scalar<int32_t>(4))});
    b.output(op(b, "GatherElements", {b.input("data", DType::F32, {3, 6}), ids}, attrs({{"axis", -1}})));
  }));
  cases.push_back(makeCase("GatherND pairs", [](GraphBuilder& b) {
    b.output(op(b, "GatherND", {b.input("data", DType::F32, {4, 5, 6}), b.input("ids", DType::I64, {3, 2})}));
  }));
  cases.push_back(makeCase("GatherND batch_dims 1", [](GraphBuilder& b) {
    Value* ids = op(b, "Sub", {b.input("ids", DType::I64, {2, 3, 1}), i64Scalar(b, "one", 1)});
    b.output(op(b, "GatherND", {b.input("data", DType::F32, {2, 5, 6}), ids}, attrs({{"batch_dims", 1}})));
  }));
}

void viewCases(std::vector<MovementOpCase>& cases) {
  cases.push_back(makeCase("Concat of three along axis 1", [](GraphBuilder& b) {
    b.output(op(b, "Concat",
                {b.input("a", DType::F32, {2, 3, 4}), b.input("b", DType::F32, {2, 1, 4}),
                 b.input("c", DType::F32, {2, 5, 4})},
                attrs({{"axis", 1}})));
  }));
  cases.push_back(makeCase("Split by the split operand", [](GraphBuilder& b) {
    for (Value* part : b.ops("Split", {b.input("x", DType::F32, {2, 9}), b.ints("sizes", {2, 3, 4})},
                             attrs({{"axis", -1}}), 3))
      b.output(part);
  }));
  cases.push_back(makeCase("Split by num_outputs, uneven", [](GraphBuilder& b) {
    for (Value* part :
         b.ops("Split", {b.input("x", DType::F16, {7, 3})}, attrs({{"axis", 0}, {"num_outputs", 3}}), 3))
      b.output(part);
  }));
  cases.push_back(makeCase("Slice with steps, one negative", [](GraphBuilder& b) {
    b.output(op(b, "Slice",
                {b.input("x", DType::F32, {10, 8}), b.ints("starts", {1, 7}), b.ints("ends", {9, 0}),
                 b.ints("axes", {0, 1}), b.ints("steps", {2, -2})}));
  }));
  cases.push_back(makeCase("Slice reversed", [](GraphBuilder& b) {
    b.output(op(b, "Slice",
                {b.input("x", DType::I32, {5, 3}), b.ints("starts", {-1}),
                 b.ints("ends", {std::numeric_limits<int64_t>::min()}), b.ints("axes", {0}), b.ints("steps", {-1})}));
  }));
  cases.push_back(makeCase("Transpose", [](GraphBuilder& b) {
    b.output(op(b, "Transpose", {b.input("x", DType::F32, {2, 3, 4})},
                attrs({{"perm", std::vector<int64_t>{2, 0, 1}}})));
  }));
  cases.push_back(makeCase("Reshape", [](GraphBuilder& b) {
    b.output(op(b, "Reshape", {b.input("x", DType::F32, {2, 3, 4}), b.ints("shape", {4, -1})}));
  }));
  cases.push_back(makeCase("Flatten", [](GraphBuilder& b) {
    b.output(op(b, "Flatten", {b.input("x", DType::F32, {2, 3, 4})}, attrs({{"axis", 2}})));
  }));
  cases.push_back(makeCase("Squeeze", [](GraphBuilder& b) {
    b.output(op(b, "Squeeze", {b.input("x", DType::F32, {1, 3, 1, 4}), b.ints("axes", {0, -2})}));
  }));
  cases.push_back(makeCase("Unsqueeze", [](GraphBuilder& b) {
    b.output(op(b, "Unsqueeze", {b.input("x", DType::F32, {3, 4}), b.ints("axes", {1, -1})}));
  }));
  cases.push_back(makeCase("Identity", [](GraphBuilder& b) {
    b.output(op(b, "Identity", {b.input("x", DType::U8, {3, 4})}));
  }));
  cases.push_back(makeCase("Expand", [](GraphBuilder& b) {
    b.output(op(b, "Expand", {b.input("x", DType::F32, {3, 1}), b.ints("shape", {2, 1, 4})}));
  }));
  cases.push_back(makeCase("Tile", [](GraphBuilder& b) {
    b.output(op(b, "Tile", {b.input("x", DType::F32, {2, 3}), b.ints("repeats", {2, 3})}));
  }));
  for (const char* mode : {"DCR", "CRD"})
    cases.push_back(makeCase(std::string("DepthToSpace ") + mode, [mode](GraphBuilder& b) {
      b.output(op(b, "DepthToSpace", {b.input("x", DType::F32, {1, 8, 2, 3})},
                  attrs({{"blocksize", 2}, {"mode", mode}})));
    }));
  cases.push_back(makeCase("SpaceToDepth", [](GraphBuilder& b) {
    b.output(op(b, "SpaceToDepth", {b.input("x", DType::F32, {1, 2, 4, 6})}, attrs({{"blocksize", 2}})));
  }));
}

void padCases(std::vector<MovementOpCase>& cases) {
  cases.push_back(makeCase("Pad constant, run-time value", [](GraphBuilder& b) {
    b.output(op(b, "Pad",
                {b.input("x", DType::F32, {3, 4}), b.ints("pads", {1, 2, 0, 1}), b.input("value", DType::F32, {})}));
  }));
  cases.push_back(makeCase("Pad constant, constant value", [](GraphBuilder& b) {
    b.output(op(b, "Pad",
                {b.input("x", DType::F32, {3, 4}), b.ints("pads", {1, 0, 2, 3}),
                 b.constant("value", Tensor::scalar(1.5f))}));
  }));
  cases.push_back(makeCase("Pad reflect", [](GraphBuilder& b) {
    b.output(op(b, "Pad", {b.input("x", DType::F32, {4, 5}), b.ints("pads", {2, 1, 3, 4})},
                attrs({{"mode", "reflect"}})));
  }));
  cases.push_back(makeCase("Pad edge, cropping", [](GraphBuilder& b) {
    b.output(op(b, "Pad", {b.input("x", DType::F16, {4, 5}), b.ints("pads", {-1, 2, 2, -1})},
                attrs({{"mode", "edge"}})));
  }));
  cases.push_back(makeCase("Pad wrap, axes operand", [](GraphBuilder& b) {
    b.output(op(b, "Pad", {b.input("x", DType::F32, {2, 3, 4}), b.ints("pads", {2, 5}), nullptr, b.ints("axes", {-1})},
                attrs({{"mode", "wrap"}})));
  }));
}

// ScatterND of `rows` ([3, 4] updates) into data [6, 4] at rows pos, pos+1,
// pos+2 (pos an input).
Value* scatterRows(GraphBuilder& b, Value* data) {
  Value* rows = distinctIndices(b, "rows", b.input("pos", DType::I64, {1}), {3, 1}, 0);
  return op(b, "ScatterND", {data, rows, b.input("rows_update", DType::F32, {3, 4})});
}

// ScatterND with duplicate run-time tuples (ids in [0, 4)) combined by
// `reduction`, over data of `dtype`.
MovementOpCase scatterReduction(const std::string& reduction, DType dtype) {
  return makeCase("ScatterND " + reduction + ", " + std::string(dtypeName(dtype)), [&](GraphBuilder& b) {
    Value* data = b.input("data", dtype, {4, 5, 3});
    Value* ids = b.input("ids", DType::I64, {6, 2});
    b.output(op(b, "ScatterND", {data, ids, b.input("updates", dtype, {6, 3})}, attrs({{"reduction", reduction}})));
  });
}

void scatterCases(std::vector<MovementOpCase>& cases) {
  cases.push_back({"ScatterND in place", inPlaceScatterND()});
  cases.push_back(makeCase("ScatterND into data read twice", [](GraphBuilder& b) {
    Value* data = b.input("data", DType::F32, {6, 4});
    b.output(scatterRows(b, data));
    b.output(op(b, "Neg", {data}));
  }));
  cases.push_back(makeCase("ScatterND into virtual data, from virtual updates", [](GraphBuilder& b) {
    Value* data = op(b, "Transpose", {b.input("x", DType::F32, {4, 6})}, attrs({{"perm", std::vector<int64_t>{1, 0}}}));
    Value* updates = op(b, "Concat", {b.input("u1", DType::F32, {1, 4}), b.input("u2", DType::F32, {2, 4})},
                        attrs({{"axis", 0}}));
    Value* rows = distinctIndices(b, "rows", b.input("pos", DType::I64, {1}), {3, 1}, 0);
    b.output(op(b, "ScatterND", {data, rows, updates}));
  }));
  cases.push_back(scatterReduction("add", DType::F32));
  cases.push_back(scatterReduction("mul", DType::F64));
  cases.push_back(scatterReduction("max", DType::F16));
  cases.push_back(scatterReduction("min", DType::BF16));
  cases.push_back(scatterReduction("add", DType::I8));
  cases.push_back(scatterReduction("mul", DType::Bool));
  cases.push_back(makeCase("ScatterND constant tuples with a reduction", [](GraphBuilder& b) {
    Value* ids = b.constant("ids", Tensor::fromVector<int64_t>({3, 1}, {1, 3, 1}));
    b.output(op(b, "ScatterND", {b.input("data", DType::F32, {5, 2}), ids, b.input("updates", DType::F32, {3, 2})},
                attrs({{"reduction", "add"}})));
  }));
  cases.push_back(makeCase("ScatterND constant box", [](GraphBuilder& b) {
    Value* ids = b.constant("ids", Tensor::fromVector<int64_t>({2, 1}, {2, 3}));
    b.output(op(b, "ScatterND", {b.input("data", DType::F32, {5, 2}), ids, b.input("updates", DType::F32, {2, 2})}));
  }));
  cases.push_back(makeCase("ScatterElements axis 1, negative ids", [](GraphBuilder& b) {
    Value* pos = b.input("pos", DType::I64, {1});
    Value* ids = op(b, "Sub", {distinctIndices(b, "ids", pos, {4, 3}, 1), i64Scalar(b, "six", 6)}); // in [-6, 0)
    Value* updates = b.input("updates", DType::F32, {4, 3});
    b.output(op(b, "ScatterElements", {b.input("data", DType::F32, {4, 6}), ids, updates}, attrs({{"axis", 1}})));
  }));
  cases.push_back(makeCase("ScatterElements add, axis 0", [](GraphBuilder& b) {
    Value* ids = b.input("ids", DType::I64, {3, 5});
    Value* updates = b.input("updates", DType::F32, {3, 5});
    b.output(op(b, "ScatterElements", {b.input("data", DType::F32, {4, 5}), ids, updates},
                attrs({{"reduction", "add"}})));
  }));
  cases.push_back(makeCase("ScatterElements max, i32", [](GraphBuilder& b) {
    Value* ids = b.input("ids", DType::I32, {3, 5});
    Value* updates = b.input("updates", DType::I32, {3, 5});
    b.output(op(b, "ScatterElements", {b.input("data", DType::I32, {3, 4}), ids, updates},
                attrs({{"axis", -1}, {"reduction", "max"}})));
  }));
  cases.push_back({"KV-cache decode step", kvCacheDecodeStep()});
}

void metadataCases(std::vector<MovementOpCase>& cases) {
  cases.push_back(makeCase("ConstantOfShape f32 and i64", [](GraphBuilder& b) {
    Value* filled = op(b, "ConstantOfShape", {b.ints("shape", {3, 5})},
                       attrs({{"value", Tensor::fromVector<float>({1}, {2.5f})}}));
    b.output(op(b, "Add", {filled, b.input("x", DType::F32, {3, 5})}));
    b.output(op(b, "ConstantOfShape", {b.ints("shape64", {2, 3})},
                attrs({{"value", Tensor::fromVector<int64_t>({1}, {std::numeric_limits<int64_t>::min()})}})));
  }));
  cases.push_back(makeCase("EyeLike", [](GraphBuilder& b) {
    b.output(op(b, "EyeLike", {b.input("x", DType::F32, {4, 6})}, attrs({{"k", 1}, {"dtype", 7}}))); // i64
    b.output(op(b, "EyeLike", {b.input("y", DType::F16, {5, 3})}, attrs({{"k", -2}})));
  }));
  cases.push_back(makeCase("Range f32 and i64", [](GraphBuilder& b) {
    b.output(op(b, "Range",
                {b.constant("start", Tensor::scalar(0.5f)), b.constant("limit", Tensor::scalar(10.0f)),
                 b.constant("delta", Tensor::scalar(0.75f))}));
    b.output(op(b, "Range", {i64Scalar(b, "start64", 7), i64Scalar(b, "limit64", -5), i64Scalar(b, "delta64", -3)}));
  }));
}

} // namespace

std::vector<MovementOpCase> movementOpCases() {
  std::vector<MovementOpCase> cases;
  gatherCases(cases);
  viewCases(cases);
  padCases(cases);
  scatterCases(cases);
  metadataCases(cases);
  return cases;
}

Graph kvCacheDecodeStep() {
  GraphBuilder b("kv_cache_decode_step");
  const Shape kShape{1, 4, 1, 16};
  Value* cache = b.input("cache", DType::F32, {1, 4, 32, 16});
  Value* k = b.input("k", DType::F32, kShape);
  Value* q = b.input("q", DType::F32, kShape);
  Value* pos = b.input("pos", DType::I64, {1});
  // One index tuple per element of k: (0, head, pos, d), as aten::index_put
  // builds it: each coordinate broadcast to k's shape, unsqueezed, concatenated.
  Shape tupleShape = kShape;
  tupleShape.push_back(1);
  auto grid = [&](const std::string& name, size_t axis) {
    std::vector<int64_t> values;
    for (int64_t head = 0; head < kShape[1]; ++head)
      for (int64_t d = 0; d < kShape[3]; ++d) values.push_back(axis == 1 ? head : axis == 3 ? d : 0);
    return b.constant(name, Tensor::fromVector<int64_t>(tupleShape, values));
  };
  Value* posIndex = op(b, "Reshape", {pos, b.ints("pos_shape", {1, 1, 1, 1})});
  posIndex = op(b, "Expand", {posIndex, b.ints("k_shape", kShape)});
  posIndex = op(b, "Unsqueeze", {posIndex, b.ints("last", {-1})});
  Value* tuples = op(b, "Concat", {grid("batch", 0), grid("head", 1), posIndex, grid("dim", 3)}, attrs({{"axis", -1}}));
  Value* updated = op(b, "ScatterND", {cache, tuples, k});
  Value* keys = op(b, "Transpose", {updated}, attrs({{"perm", std::vector<int64_t>{0, 1, 3, 2}}}));
  b.output(updated);
  b.output(op(b, "MatMul", {q, keys}));
  return b.finish();
}

Graph inPlaceScatterND() {
  GraphBuilder b("in_place_scatter_nd");
  b.output(scatterRows(b, b.input("data", DType::F32, {6, 4})));
  return b.finish();
}

} // namespace tcx::test
