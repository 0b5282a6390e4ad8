#pragma once
// The element types and ranks that an ONNX model states for its values.
// Legacy operator forms need them: Clip-6's min and max become operands of
// the input's element type, and opset-12 Softmax's 2-D coercion is a no-op
// when the axis is the last one.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

namespace onnx {
class GraphProto;
class ModelProto;
} // namespace onnx

namespace tcx {

class DeclaredTypes {
public:
  explicit DeclaredTypes(const onnx::ModelProto& model);

  // The ONNX element type code of `name`, if known.
  std::optional<int32_t> elemType(const std::string& name);
  std::optional<int64_t> rank(const std::string& name);

private:
  struct Declared {
    int32_t elemType = 0; // UNDEFINED
    std::optional<int64_t> rank;
  };

  const Declared* find(const std::string& name, bool (*known)(const Declared&));
  void collect(const onnx::GraphProto& graph);
  void inferWithOnnx();

  const onnx::ModelProto& model_;
  std::unordered_map<std::string, Declared> types_;
  bool inferred_ = false;
};

} // namespace tcx
