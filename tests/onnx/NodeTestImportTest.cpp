// Imports ONNX's own node-test models and checks the results against their
// reference outputs. Shapes that depend on operand values (Reshape's shape,
// Split's sizes, Squeeze's axes) are known once those inputs are bound.

#include "OnnxTestUtil.h"

#include "onnx/TensorProto.h"
#include "support/RunOp.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

using namespace tcx;
using namespace tcx::test;

namespace {

void checkNodeTest(const std::string& test, const std::set<int>& boundInputs = {}) {
  INFO(test);
  std::string data = nodeTestDir(test) + "/test_data_set_0/";
  ImportOptions options;
  std::map<std::string, Tensor> runtimeInputs;
  for (int i = 0; std::filesystem::exists(data + "input_" + std::to_string(i) + ".pb"); ++i) {
    NamedTensor input = readTensorFile(data + "input_" + std::to_string(i) + ".pb");
    (boundInputs.count(i) ? options.inputBindings : runtimeInputs)[input.name] = input.tensor;
  }
  Graph graph = importOnnx(nodeTestDir(test) + "/model.onnx", options);
  std::vector<Tensor> outputs = runGraph(graph, runtimeInputs);
  for (size_t i = 0; i < outputs.size(); ++i)
    REQUIRE_CLOSE(outputs[i], nodeTestTensor(test, "output", static_cast<int>(i)), 1e-5, 1e-6);
  REQUIRE(!std::filesystem::exists(data + "output_" + std::to_string(outputs.size()) + ".pb"));
}

} // namespace

TEST_CASE("ONNX node tests: Reshape with a bound shape", "[onnx][nodetests]") {
  for (const char* test :
       {"test_reshape_allowzero_reordered", "test_reshape_extended_dims", "test_reshape_negative_dim",
        "test_reshape_negative_extended_dims", "test_reshape_one_dim", "test_reshape_reduced_dims",
        "test_reshape_reordered_all_dims", "test_reshape_reordered_last_dims", "test_reshape_zero_and_negative_dim",
        "test_reshape_zero_dim"})
    checkNodeTest(test, {1});
}

TEST_CASE("ONNX node tests: Split (opset 13)", "[onnx][nodetests]") {
  for (const char* test :
       {"test_split_equal_parts_1d", "test_split_equal_parts_2d", "test_split_equal_parts_default_axis"})
    checkNodeTest(test);
  for (const char* test : {"test_split_variable_parts_1d", "test_split_variable_parts_2d",
                           "test_split_variable_parts_default_axis", "test_split_zero_size_splits"})
    checkNodeTest(test, {1});
}

TEST_CASE("ONNX node tests: Squeeze and Unsqueeze with bound axes", "[onnx][nodetests]") {
  for (const char* test :
       {"test_squeeze", "test_squeeze_negative_axes", "test_unsqueeze_axis_0", "test_unsqueeze_axis_1",
        "test_unsqueeze_axis_2", "test_unsqueeze_axis_3", "test_unsqueeze_negative_axes", "test_unsqueeze_three_axes",
        "test_unsqueeze_two_axes", "test_unsqueeze_unsorted_axes"})
    checkNodeTest(test, {1});
}

TEST_CASE("ONNX node tests: Softmax and LogSoftmax (opset 13)", "[onnx][nodetests]") {
  for (const char* test : {"test_softmax_axis_0", "test_softmax_axis_1", "test_softmax_axis_2",
                           "test_softmax_default_axis", "test_softmax_example", "test_softmax_large_number",
                           "test_softmax_negative_axis", "test_logsoftmax_axis_1", "test_logsoftmax_default_axis"})
    checkNodeTest(test);
}

TEST_CASE("ONNX node tests of opsets 1 and 6", "[onnx][nodetests]") {
  for (const char* test :
       {"test_elu", "test_selu_default", "test_softsign", "test_globalaveragepool", "test_reduce_log_sum"})
    checkNodeTest(test);
}

TEST_CASE("ONNX node tests: Scatter is ScatterElements (opset 10)", "[onnx][nodetests]") {
  checkNodeTest("test_scatter_with_axis");
  checkNodeTest("test_scatter_without_axis");
}

TEST_CASE("ONNX node tests: shapes from unbound inputs are data-dependent", "[onnx][nodetests]") {
  requireError([] { importOnnx(nodeTestDir("test_reshape_zero_dim") + "/model.onnx"); }, ErrorKind::DataDependentShape,
               {"test_reshape_zero_dim/model.onnx", "(Reshape)", "input 1"});
}
