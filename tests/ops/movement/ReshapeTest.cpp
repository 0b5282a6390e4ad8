#include "MovementTest.h"

#include "ir/Dispatch.h"
#include "ops/GraphBuilder.h"

#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::test;

TEST_CASE("Reshape keeps the elements and infers -1", "[movement][reshape]") {
  Tensor x = iota<float>({2, 3, 4});
  REQUIRE_SAME(runOp1("Reshape", {x, ints({4, -1})}), iota<float>({4, 6}));
  REQUIRE_SAME(runOp1("Reshape", {x, ints({-1})}), iota<float>({24}));
  REQUIRE_SAME(runOp1("Reshape", {x, ints({2, 0, 4, 1})}), iota<float>({2, 3, 4, 1}));
  REQUIRE_SAME(runOp1("Reshape", {x, ints({0, -1})}), iota<float>({2, 12}));
}

TEST_CASE("Reshape of scalars, empty tensors and other dtypes", "[movement][reshape]") {
  Tensor scalar = Tensor::scalar<int64_t>(7);
  REQUIRE_SAME(runOp1("Reshape", {scalar, ints({1, 1})}), Tensor::fromVector<int64_t>({1, 1}, {7}));
  REQUIRE_SAME(runOp1("Reshape", {Tensor::fromVector<int64_t>({1}, {7}), ints({})}), scalar);
  REQUIRE_SAME(runOp1("Reshape", {iota<float>({0, 3}), ints({3, -1})}), iota<float>({3, 0}));
  Tensor h = halves({2, 2}, {0.5f, -1.0f, 65504.0f, 0.0f});
  REQUIRE_SAME(runOp1("Reshape", {h, ints({4})}), halves({4}, {0.5f, -1.0f, 65504.0f, 0.0f}));
}

TEST_CASE("Reshape with allowzero takes 0 literally", "[movement][reshape]") {
  Tensor x = iota<float>({0, 3, 4});
  REQUIRE_SAME(runOp1("Reshape", {x, ints({3, 4, 0})}, attrs({{"allowzero", 1}})), iota<float>({3, 4, 0}));
  // Without allowzero the 0 copies input dimension 2 (4): 48 elements.
  CHECK(thrownKind([&] { runOp1("Reshape", {x, ints({3, 4, 0})}); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { runOp1("Reshape", {x, ints({0, -1})}, attrs({{"allowzero", 1}})); }) ==
        ErrorKind::ShapeInference);
}

TEST_CASE("Reshape rejects shapes that do not fit", "[movement][reshape]") {
  Tensor x = iota<float>({2, 3});
  for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{
           {4}, {4, -1}, {-1, -1}, {-2, 3}, {0, 0, 0}, {kInt64Max, kInt64Max}}) {
    INFO(shapeToString(shape));
    CHECK(thrownKind([&] { runOp1("Reshape", {x, ints(shape)}); }) == ErrorKind::ShapeInference);
  }
  CHECK(thrownKind([&] { runOp1("Reshape", {x, Tensor::fromVector<float>({1}, {6})}); }) ==
        ErrorKind::InvalidModel);
}

TEST_CASE("Reshape needs its shape operand's value", "[movement][reshape]") {
  GraphBuilder b("reshape");
  Value* x = b.input("x", DType::F32, {2, 3});
  Value* shape = b.input("shape", DType::I64, {2});
  CHECK(thrownKind([&] { b.op("Reshape", {x, shape}); }) == ErrorKind::DataDependentShape);
}

TEST_CASE("Squeeze drops the given or all unit dimensions", "[movement][squeeze]") {
  Tensor x = iota<int32_t>({1, 3, 1, 2});
  REQUIRE_SAME(runOp1("Squeeze", {x}), iota<int32_t>({3, 2}));
  REQUIRE_SAME(runOp1("Squeeze", {x, ints({-2})}), iota<int32_t>({1, 3, 2}));
  REQUIRE_SAME(runOp1("Squeeze", {x, ints({2, 0})}), iota<int32_t>({3, 2}));
  REQUIRE_SAME(runOp1("Squeeze", {Tensor::scalar<bool>(true)}), Tensor::scalar<bool>(true));
  CHECK(thrownKind([&] { runOp1("Squeeze", {x, ints({1})}); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { runOp1("Squeeze", {x, ints({0, -4})}); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { runOp1("Squeeze", {x, ints({4})}); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { runOp1("Squeeze", {Tensor::scalar<float>(1), ints({0})}); }) ==
        ErrorKind::ShapeInference);
}

TEST_CASE("Unsqueeze inserts axes counted in the output", "[movement][unsqueeze]") {
  Tensor x = iota<float>({3, 4});
  REQUIRE_SAME(runOp1("Unsqueeze", {x, ints({0, -1})}), iota<float>({1, 3, 4, 1}));
  REQUIRE_SAME(runOp1("Unsqueeze", {x, ints({2, 0})}), iota<float>({1, 3, 1, 4}));
  REQUIRE_SAME(runOp1("Unsqueeze", {iota<float>({1, 3, 1, 5}), ints({-2})}), iota<float>({1, 3, 1, 1, 5}));
  REQUIRE_SAME(runOp1("Unsqueeze", {Tensor::scalar<bool>(true), ints({0})}),
               Tensor::fromVector<bool>({1}, {true}));
  CHECK(thrownKind([&] { runOp1("Unsqueeze", {x, ints({3})}); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { runOp1("Unsqueeze", {x, ints({1, -3})}); }) == ErrorKind::ShapeInference);
}

TEST_CASE("Flatten splits the shape at axis", "[movement][flatten]") {
  Tensor x = iota<uint8_t>({2, 3, 4, 5});
  REQUIRE_SAME(runOp1("Flatten", {x}), iota<uint8_t>({2, 60}));
  REQUIRE_SAME(runOp1("Flatten", {x}, attrs({{"axis", 0}})), iota<uint8_t>({1, 120}));
  REQUIRE_SAME(runOp1("Flatten", {x}, attrs({{"axis", 4}})), iota<uint8_t>({120, 1}));
  REQUIRE_SAME(runOp1("Flatten", {x}, attrs({{"axis", -1}})), iota<uint8_t>({24, 5}));
  REQUIRE_SAME(runOp1("Flatten", {x}, attrs({{"axis", -4}})), iota<uint8_t>({1, 120}));
  CHECK(thrownKind([&] { runOp1("Flatten", {x}, attrs({{"axis", 5}})); }) == ErrorKind::ShapeInference);
  CHECK(thrownKind([&] { runOp1("Flatten", {x}, attrs({{"axis", -5}})); }) == ErrorKind::ShapeInference);
}

TEST_CASE("Identity copies any dtype", "[movement][identity]") {
  for (DType t : kAllDTypes) {
    INFO(dtypeName(t));
    dispatchDType(t, [&]<typename T>() {
      Tensor x = iota<T>({2, 3});
      Tensor y = runOp1("Identity", {x});
      REQUIRE(y.identicalTo(x));
      REQUIRE(y.raw() != x.raw());
    });
  }
}
