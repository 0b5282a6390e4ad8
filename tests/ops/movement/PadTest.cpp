#include "MovementTest.h"

#include "exec/ReferenceExecutor.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor pad(const Tensor& x, const std::vector<int64_t>& pads, const char* mode, const Tensor& value = {},
           const Tensor& axes = {}) {
  return runOp1("Pad", {x, ints(pads), value, axes}, attrs({{"mode", mode}}));
}

// The data of the ONNX Pad examples.
Tensor example() { return Tensor::fromVector<float>({3, 2}, {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f}); }

} // namespace

TEST_CASE("Pad with a constant", "[movement][pad]") {
  REQUIRE_SAME(pad(example(), {0, 2, 0, 0}, "constant"),
               Tensor::fromVector<float>({3, 4}, {0, 0, 1.0f, 1.2f, 0, 0, 2.3f, 3.4f, 0, 0, 4.5f, 5.7f}));
  REQUIRE_SAME(runOp1("Pad", {Tensor::fromVector<int64_t>({3}, {1, 2, 3}), ints({1, 2}),
                              Tensor::scalar<int64_t>(9)}),
               Tensor::fromVector<int64_t>({6}, {9, 1, 2, 3, 9, 9}));
  // Padding the outer axis fills whole rows.
  REQUIRE_SAME(pad(Tensor::fromVector<float>({1, 1, 2}, {1, 2}), {1, 0, 0, 0, 0, 1}, "constant"),
               Tensor::fromVector<float>({2, 1, 3}, {0, 0, 0, 1, 2, 0}));
  REQUIRE_SAME(runOp1("Pad", {Tensor::fromVector<bool>({2}, {false, false}), ints({1, 0}),
                              Tensor::fromVector<bool>({1}, {true})}),
               Tensor::fromVector<bool>({3}, {true, false, false}));
  REQUIRE_SAME(runOp1("Pad", {iota<float>({0}), ints({1, 1}), Tensor::scalar<float>(7)}),
               Tensor::fromVector<float>({2}, {7, 7}));
  REQUIRE_SAME(runOp1("Pad", {Tensor::scalar<float>(3), ints({})}), Tensor::scalar<float>(3));
}

TEST_CASE("Pad reflect, edge and wrap", "[movement][pad]") {
  REQUIRE_SAME(pad(example(), {0, 2, 0, 0}, "reflect"),
               Tensor::fromVector<float>({3, 4}, {1.0f, 1.2f, 1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f,
                                                  4.5f, 5.7f}));
  REQUIRE_SAME(pad(example(), {0, 2, 0, 0}, "edge"),
               Tensor::fromVector<float>({3, 4}, {1.0f, 1.0f, 1.0f, 1.2f, 2.3f, 2.3f, 2.3f, 3.4f, 4.5f, 4.5f,
                                                  4.5f, 5.7f}));
  REQUIRE_SAME(pad(example(), {2, 1, 1, 1}, "wrap"),
               Tensor::fromVector<float>({6, 4}, {3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f,
                                                  1.2f, 1.0f, 1.2f, 1.0f, 3.4f, 2.3f, 3.4f, 2.3f,
                                                  5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f}));
  Tensor x = Tensor::fromVector<int32_t>({3}, {1, 2, 3});
  // Pads wider than the axis keep reflecting (period 2 * (3 - 1)) or wrapping.
  REQUIRE_SAME(pad(x, {5, 0}, "reflect"), Tensor::fromVector<int32_t>({8}, {2, 1, 2, 3, 2, 1, 2, 3}));
  REQUIRE_SAME(pad(x, {4, 4}, "wrap"), Tensor::fromVector<int32_t>({11}, {3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1}));
  REQUIRE_SAME(pad(x, {2, 3}, "edge"), Tensor::fromVector<int32_t>({8}, {1, 1, 1, 2, 3, 3, 3, 3}));
  REQUIRE_SAME(pad(Tensor::fromVector<int32_t>({1}, {4}), {2, 1}, "reflect"),
               Tensor::fromVector<int32_t>({4}, {4, 4, 4, 4}));
  REQUIRE_SAME(pad(halves({2}, {0.5f, 1.5f}), {1, 1}, "edge"), halves({4}, {0.5f, 0.5f, 1.5f, 1.5f}));
}

TEST_CASE("Pad crops with negative pads", "[movement][pad]") {
  Tensor x = Tensor::fromVector<int64_t>({5}, {1, 2, 3, 4, 5});
  REQUIRE_SAME(pad(x, {-1, 2}, "constant"), Tensor::fromVector<int64_t>({6}, {2, 3, 4, 5, 0, 0}));
  REQUIRE_SAME(pad(x, {-2, 2}, "reflect"), Tensor::fromVector<int64_t>({5}, {3, 4, 5, 4, 3}));
  REQUIRE_SAME(pad(x, {1, -3}, "wrap"), Tensor::fromVector<int64_t>({3}, {2, 1, 2}));
  REQUIRE_SAME(pad(iota<float>({2, 3}), {0, -1, 0, -1}, "edge"), Tensor::fromVector<float>({2, 1}, {1, 4}));
  REQUIRE_SAME(pad(x, {-5, 0}, "constant"), iota<int64_t>({0}));
}

TEST_CASE("Pad only the given axes", "[movement][pad]") {
  REQUIRE_SAME(pad(iota<float>({2, 2}), {1, 1}, "constant", {}, ints({-1})),
               Tensor::fromVector<float>({2, 4}, {0, 0, 1, 0, 0, 2, 3, 0}));
  REQUIRE_SAME(pad(iota<float>({2, 2}), {1, 0}, "edge", {}, ints({0})),
               Tensor::fromVector<float>({3, 2}, {0, 1, 0, 1, 2, 3}));
}

TEST_CASE("Pad rejects bad pads, modes and values", "[movement][pad]") {
  Tensor x = iota<float>({3});
  CHECK(thrownKind([&] { pad(x, {1}, "constant"); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { pad(x, {-2, -2}, "constant"); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { pad(x, {-4, 2}, "constant"); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { pad(x, {1, 1}, "mirror"); }) == ErrorKind::InvalidModel);
  CHECK(thrownKind([&] { pad(iota<float>({0}), {1, 1}, "edge"); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { pad(x, {1, 1}, "constant", Tensor::scalar<double>(1)); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { pad(x, {1, 1}, "constant", {}, ints({1})); }) == ErrorKind::ShapeInference);
}

TEST_CASE("Pad's constant may be a run-time value", "[movement][pad]") {
  GraphBuilder b("pad_runtime_value");
  Value* x = b.input("x", DType::F32, {3});
  Value* padded = b.op("Pad", {x, b.ints("pads", {1, 2}), b.input("value", DType::F32, {})});
  CHECK(padded->type() == TensorType{DType::F32, {6}});
  b.output(padded);
  ExecutionResult r = ReferenceExecutor(b.finish()).run({{"x", iota<float>({3})}, {"value", Tensor::scalar(-1.5f)}});
  REQUIRE_SAME(r.outputs.at(0), Tensor::fromVector<float>({6}, {-1.5f, 0, 1, 2, -1.5f, -1.5f}));
  // Its type is still checked.
  GraphBuilder bad("pad_runtime_value_of_another_type");
  Value* y = bad.input("y", DType::F32, {3});
  CHECK(thrownKind([&] { bad.op("Pad", {y, bad.ints("pads", {1, 2}), bad.input("value", DType::I64, {})}); }) ==
        ErrorKind::ShapeInference);
}
