#include "OnnxTestUtil.h"

#include "ir/Dispatch.h"
#include "onnx/TensorProto.h"

#include <catch2/catch.hpp>
#include <onnx/onnx_pb.h>

#include <cstring>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor sample(DType dtype, Shape shape) {
  return dispatchDType(dtype, [&]<typename T>() {
    std::vector<T> values;
    for (int64_t i = 0; i < numElements(shape); ++i) values.push_back(static_cast<T>(static_cast<float>(i % 7)));
    return Tensor::fromVector<T>(shape, values);
  });
}

onnx::TensorProto proto(int32_t elemType, const Shape& dims) {
  onnx::TensorProto p;
  p.set_name("t");
  p.set_data_type(elemType);
  for (int64_t d : dims) p.add_dims(d);
  return p;
}

} // namespace

TEST_CASE("tensor files round-trip every dtype", "[onnx][tensor]") {
  ScratchDir dir;
  for (DType dtype : kAllDTypes) {
    for (const Shape& shape : {Shape{2, 3}, Shape{}, Shape{0, 4}}) {
      std::string name = std::string(dtypeName(dtype)) + shapeToString(shape);
      INFO(name);
      Tensor original = sample(dtype, shape);
      writeTensorFile(dir.file("t.pb"), original, name);
      NamedTensor read = readTensorFile(dir.file("t.pb"));
      REQUIRE(read.name == name);
      REQUIRE(read.tensor.identicalTo(original));
    }
  }
}

TEST_CASE("typed data fields", "[onnx][tensor]") {
  SECTION("float_data") {
    onnx::TensorProto p = proto(onnx::TensorProto::FLOAT, {2});
    p.add_float_data(1.5f);
    p.add_float_data(-2.0f);
    REQUIRE(tensorFromProto(p, "").identicalTo(Tensor::fromVector<float>({2}, {1.5f, -2.0f})));
  }
  SECTION("int32_data carries f16 and bf16 bits") {
    onnx::TensorProto h = proto(onnx::TensorProto::FLOAT16, {2});
    h.add_int32_data(0x3C00); // 1.0
    h.add_int32_data(0xC000); // -2.0
    Tensor half = tensorFromProto(h, "");
    REQUIRE(half.dtype() == DType::F16);
    REQUIRE(half.elementAsDouble(0) == 1.0);
    REQUIRE(half.elementAsDouble(1) == -2.0);
    onnx::TensorProto b = proto(onnx::TensorProto::BFLOAT16, {1});
    b.add_int32_data(0x3FC0); // 1.5
    REQUIRE(tensorFromProto(b, "").elementAsDouble(0) == 1.5);
  }
  SECTION("int32_data carries i8, u8 and bool") {
    onnx::TensorProto i8 = proto(onnx::TensorProto::INT8, {2});
    i8.add_int32_data(-3);
    i8.add_int32_data(127);
    REQUIRE(tensorFromProto(i8, "").identicalTo(Tensor::fromVector<int8_t>({2}, {-3, 127})));
    onnx::TensorProto u8 = proto(onnx::TensorProto::UINT8, {1});
    u8.add_int32_data(255);
    REQUIRE(tensorFromProto(u8, "").identicalTo(Tensor::fromVector<uint8_t>({1}, {255})));
    onnx::TensorProto b = proto(onnx::TensorProto::BOOL, {3});
    for (int v : {0, 1, 5}) b.add_int32_data(v);
    REQUIRE(tensorFromProto(b, "").identicalTo(Tensor::fromVector<bool>({3}, {false, true, true})));
  }
  SECTION("int64_data and double_data") {
    onnx::TensorProto i = proto(onnx::TensorProto::INT64, {2});
    i.add_int64_data(INT64_MIN);
    i.add_int64_data(INT64_MAX);
    REQUIRE(tensorFromProto(i, "").identicalTo(Tensor::fromVector<int64_t>({2}, {INT64_MIN, INT64_MAX})));
    onnx::TensorProto d = proto(onnx::TensorProto::DOUBLE, {});
    d.add_double_data(0.125);
    REQUIRE(tensorFromProto(d, "").identicalTo(Tensor::scalar<double>(0.125)));
  }
  SECTION("raw bools other than 0 and 1 read as true") {
    onnx::TensorProto b = proto(onnx::TensorProto::BOOL, {3});
    b.set_raw_data(std::string("\x00\x01\x07", 3));
    REQUIRE(tensorFromProto(b, "").identicalTo(Tensor::fromVector<bool>({3}, {false, true, true})));
  }
  SECTION("a field with the wrong count") {
    onnx::TensorProto p = proto(onnx::TensorProto::FLOAT, {3});
    p.add_float_data(1.0f);
    requireError([&] { tensorFromProto(p, ""); }, ErrorKind::InvalidModel, {"float_data has 1 values"});
    onnx::TensorProto wrongField = proto(onnx::TensorProto::INT64, {1});
    wrongField.add_int32_data(1);
    requireError([&] { tensorFromProto(wrongField, ""); }, ErrorKind::InvalidModel, {"int64_data has 0 values"});
  }
}

TEST_CASE("malformed tensors", "[onnx][tensor]") {
  onnx::TensorProto shortRaw = proto(onnx::TensorProto::FLOAT, {2, 2});
  shortRaw.set_raw_data(std::string(15, '\0'));
  requireError([&] { tensorFromProto(shortRaw, ""); }, ErrorKind::InvalidModel, {"tensor 't': raw_data has 15 bytes"});

  onnx::TensorProto negative = proto(onnx::TensorProto::FLOAT, {2, -1});
  requireError([&] { tensorFromProto(negative, ""); }, ErrorKind::InvalidModel, {"negative dimension"});

  // Checked before anything is allocated.
  onnx::TensorProto huge = proto(onnx::TensorProto::FLOAT, {int64_t{1} << 40, int64_t{1} << 40});
  requireError([&] { tensorFromProto(huge, ""); }, ErrorKind::InvalidModel, {"too large"});
  onnx::TensorProto noData = proto(onnx::TensorProto::FLOAT, {int64_t{1} << 40});
  requireError([&] { tensorFromProto(noData, ""); }, ErrorKind::InvalidModel, {"float_data has 0 values"});
  onnx::TensorProto large = proto(onnx::TensorProto::FLOAT, {int64_t{1} << 40});
  large.set_raw_data("abcd");
  requireError([&] { tensorFromProto(large, ""); }, ErrorKind::InvalidModel, {"raw_data has 4 bytes"});
}

TEST_CASE("element types outside tcx's are named", "[onnx][tensor]") {
  for (auto [code, name] :
       {std::pair{8, "STRING"}, {4, "UINT16"}, {13, "UINT64"}, {17, "FLOAT8E4M3FN"}, {14, "COMPLEX64"}, {22, "INT4"}}) {
    onnx::TensorProto p = proto(code, {1});
    requireError([&] { tensorFromProto(p, ""); }, ErrorKind::Unsupported, {std::string("element type ") + name});
  }
  onnx::TensorProto undefined = proto(onnx::TensorProto::UNDEFINED, {1});
  requireError([&] { tensorFromProto(undefined, ""); }, ErrorKind::InvalidModel, {"undefined"});
}

TEST_CASE("external data", "[onnx][tensor]") {
  ScratchDir dir;
  std::vector<float> values = {1.0f, 2.5f, -3.0f};
  std::string bytes(8, 'x');
  bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  writeBytes(dir.file("weights.bin"), bytes);
  Tensor expected = Tensor::fromVector<float>({3}, values);

  auto external = [](const std::string& location, const std::string& offset, const std::string& length) {
    onnx::TensorProto p = proto(onnx::TensorProto::FLOAT, {3});
    p.set_data_location(onnx::TensorProto::EXTERNAL);
    auto add = [&](const char* key, const std::string& value) {
      if (value.empty()) return;
      onnx::StringStringEntryProto* e = p.add_external_data();
      e->set_key(key);
      e->set_value(value);
    };
    add("location", location);
    add("offset", offset);
    add("length", length);
    return p;
  };
  std::string base = dir.path().string();

  SECTION("read at an offset") {
    REQUIRE(tensorFromProto(external("weights.bin", "8", "12"), base).identicalTo(expected));
    REQUIRE(tensorFromProto(external("weights.bin", "8", ""), base).identicalTo(expected));
  }
  SECTION("a missing file") {
    requireError([&] { tensorFromProto(external("absent.bin", "0", "12"), base); }, ErrorKind::Io, {"absent.bin"});
  }
  SECTION("a file too short") {
    requireError([&] { tensorFromProto(external("weights.bin", "12", "12"), base); }, ErrorKind::InvalidModel,
                 {"is too short"});
    requireError([&] { tensorFromProto(external("weights.bin", "100", ""), base); }, ErrorKind::InvalidModel,
                 {"is too short"});
  }
  SECTION("a huge tensor is checked against the file before it is allocated") {
    onnx::TensorProto huge = external("weights.bin", "0", "");
    huge.set_dims(0, int64_t{1} << 40);
    requireError([&] { tensorFromProto(huge, base); }, ErrorKind::InvalidModel, {"is too short"});
  }
  SECTION("a length that does not match the tensor") {
    requireError([&] { tensorFromProto(external("weights.bin", "0", "16"), base); }, ErrorKind::InvalidModel,
                 {"length 16"});
  }
  SECTION("a location outside the model's folder") {
    requireError([&] { tensorFromProto(external("../weights.bin", "0", "12"), base); }, ErrorKind::InvalidModel,
                 {"outside the model's folder"});
    requireError([&] { tensorFromProto(external("/etc/passwd", "0", "12"), base); }, ErrorKind::InvalidModel,
                 {"outside the model's folder"});
  }
  SECTION("a malformed offset") {
    requireError([&] { tensorFromProto(external("weights.bin", "-8", "12"), base); }, ErrorKind::InvalidModel,
                 {"not a byte count"});
  }
}

TEST_CASE("ONNX test data files", "[onnx][tensor]") {
  NamedTensor x = readTensorFile(nodeTestDir("test_add") + "/test_data_set_0/input_0.pb");
  REQUIRE(x.name == "x");
  REQUIRE(x.tensor.type() == TensorType{DType::F32, {3, 4, 5}});
}

TEST_CASE("tensor file errors name the file", "[onnx][tensor]") {
  ScratchDir dir;
  requireError([&] { readTensorFile(dir.file("absent.pb")); }, ErrorKind::Io, {"absent.pb"});
  writeBytes(dir.file("garbage.pb"), "\xff\xff\xff\xff garbage");
  requireError([&] { readTensorFile(dir.file("garbage.pb")); }, ErrorKind::InvalidModel, {"garbage.pb"});
  writeBytes(dir.file("empty.pb"), "");
  requireError([&] { readTensorFile(dir.file("empty.pb")); }, ErrorKind::InvalidModel, {"empty.pb"});
}
