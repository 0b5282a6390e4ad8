#include "Helpers.h"

using namespace tcx;
using namespace tcx::test;

namespace {

// The error kind of inferring `opType` on a graph input (whose value is unknown).
ErrorKind errorOnGraphInput(const std::string& opType, TensorType inputType, size_t numInputs) {
  return errorKind([&] {
    GraphBuilder b("g");
    Value* x = b.input("x", inputType.dtype, inputType.shape);
    b.op(opType, std::vector<Value*>(numInputs, x));
  });
}

} // namespace

TEST_CASE("Shape returns a clamped slice of the dimensions, Size the element count", "[metadata]") {
  Tensor x(DType::BF16, {2, 3, 4});
  requireClose(runOp1("Shape", {x}), i64({3}, {2, 3, 4}));
  requireClose(runOp1("Shape", {x}, attrs({{"start", 1}})), i64({2}, {3, 4}));
  requireClose(runOp1("Shape", {x}, attrs({{"end", -1}})), i64({2}, {2, 3}));
  requireClose(runOp1("Shape", {x}, attrs({{"start", -5}, {"end", 10}})), i64({3}, {2, 3, 4}));
  requireClose(runOp1("Shape", {x}, attrs({{"start", 2}, {"end", 1}})), i64({0}, {}));
  requireClose(runOp1("Shape", {f32({}, {1})}), i64({0}, {}));
  requireClose(runOp1("Size", {x}), i64({}, {24}));
  requireClose(runOp1("Size", {f32({0, 3}, {})}), i64({}, {0}));
}

TEST_CASE("Constant takes its value from any one value attribute", "[metadata]") {
  requireClose(runOp1("Constant", {}, attrs({{"value_float", 1.5f}})), f32({}, {1.5}));
  requireClose(runOp1("Constant", {}, attrs({{"value_floats", std::vector<float>{1, 2}}})), f32({2}, {1, 2}));
  requireClose(runOp1("Constant", {}, attrs({{"value_int", 7}})), i64({}, {7}));
  requireClose(runOp1("Constant", {}, attrs({{"value_ints", std::vector<int64_t>{1, 2, 3}}})), i64({3}, {1, 2, 3}));
  Tensor value = tensor(DType::BF16, {2, 1}, {0.5, -3});
  requireClose(runOp1("Constant", {}, attrs({{"value", value}})), value, 0, 0);
  CHECK(errorKind([] { runOp1("Constant", {}, attrs({{"value_string", "hi"}})); }) == ErrorKind::Unsupported);
  CHECK(errorKind([] {
          runOp1("Constant", {}, attrs({{"value_strings", std::vector<std::string>{"a"}}}));
        }) == ErrorKind::Unsupported);
  CHECK(errorKind([] {
          runOp1("Constant", {}, attrs({{"value_int", 1}, {"value_float", 1.0f}}));
        }) == ErrorKind::InvalidModel);
  CHECK(errorKind([] { runOp1("Constant", {}); }) == ErrorKind::InvalidModel);
}

TEST_CASE("ConstantOfShape repeats its value over a constant shape", "[metadata]") {
  requireClose(runOp1("ConstantOfShape", {i64({2}, {2, 3})}), f32({2, 3}, {0, 0, 0, 0, 0, 0}));
  requireClose(runOp1("ConstantOfShape", {i64({2}, {1, 2})}, attrs({{"value", tensor(DType::I32, {1}, {7})}})),
               tensor(DType::I32, {1, 2}, {7, 7}));
  requireClose(runOp1("ConstantOfShape", {i64({0}, {})}, attrs({{"value", tensor(DType::BF16, {1}, {2.5})}})),
               tensor(DType::BF16, {}, {2.5}));
  requireClose(runOp1("ConstantOfShape", {i64({2}, {0, 4})}), f32({0, 4}, {}));
  CHECK(errorKind([] { runOp1("ConstantOfShape", {i64({1}, {-1})}); }) == ErrorKind::ShapeInference);
  CHECK(errorKind([] { runOp1("ConstantOfShape", {f32({1}, {2})}); }) == ErrorKind::ShapeInference);
  CHECK(errorKind([] {
          runOp1("ConstantOfShape", {i64({1}, {2})}, attrs({{"value", f32({2}, {1, 2})}}));
        }) == ErrorKind::InvalidModel);
  CHECK(errorOnGraphInput("ConstantOfShape", {DType::I64, {2}}, 1) == ErrorKind::DataDependentShape);
}

TEST_CASE("Range has max(ceil((limit - start) / delta), 0) elements", "[metadata]") {
  requireClose(runOp1("Range", {f32({}, {1}), f32({}, {5}), f32({}, {1.5})}), f32({3}, {1, 2.5, 4}));
  auto i32 = [](double v) { return tensor(DType::I32, {}, {v}); };
  requireClose(runOp1("Range", {i32(10), i32(4), i32(-3)}), tensor(DType::I32, {2}, {10, 7}));
  requireClose(runOp1("Range", {i64({}, {0}), i64({}, {10}), i64({}, {3})}), i64({4}, {0, 3, 6, 9}));
  requireClose(runOp1("Range", {i64({}, {5}), i64({}, {1}), i64({}, {2})}), i64({0}, {}));
  requireClose(
      runOp1("Range", {tensor(DType::F64, {}, {0}), tensor(DType::F64, {}, {1}), tensor(DType::F64, {}, {0.25})}),
      tensor(DType::F64, {4}, {0, 0.25, 0.5, 0.75}));
  CHECK(errorKind([] { runOp1("Range", {i64({}, {0}), i64({}, {10}), i64({}, {0})}); }) == ErrorKind::InvalidModel);
  CHECK(errorKind([] { runOp1("Range", {i64({}, {0}), f32({}, {10}), i64({}, {1})}); }) == ErrorKind::ShapeInference);
  Tensor lowest = Tensor::scalar(std::numeric_limits<int64_t>::min());
  Tensor highest = Tensor::scalar(std::numeric_limits<int64_t>::max());
  CHECK(errorKind([&] { runOp1("Range", {lowest, highest, i64({}, {1})}); }) == ErrorKind::ShapeInference);
  CHECK(errorOnGraphInput("Range", {DType::I64, {}}, 3) == ErrorKind::DataDependentShape);
}

TEST_CASE("EyeLike puts ones on the k-th diagonal", "[metadata]") {
  Tensor x(DType::F32, {3, 4});
  requireClose(runOp1("EyeLike", {x}), f32({3, 4}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}));
  requireClose(runOp1("EyeLike", {x}, attrs({{"k", 1}})), f32({3, 4}, {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
  requireClose(runOp1("EyeLike", {x}, attrs({{"k", -2}})), f32({3, 4}, {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}));
  requireClose(runOp1("EyeLike", {x}, attrs({{"k", 10}})), f32({3, 4}, std::vector<double>(12, 0)));
  requireClose(runOp1("EyeLike", {x}, attrs({{"dtype", dtypeToOnnx(DType::I64)}})),
               i64({3, 4}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}));
  requireClose(runOp1("EyeLike", {tensor(DType::Bool, {2, 2}, {1, 1, 1, 1})}),
               tensor(DType::Bool, {2, 2}, {1, 0, 0, 1}));
  CHECK(errorKind([] { runOp1("EyeLike", {f32({2}, {1, 2})}); }) == ErrorKind::ShapeInference);
  CHECK(errorKind([&] { runOp1("EyeLike", {x}, attrs({{"dtype", 8}})); }) == ErrorKind::Unsupported);
}
