#include "support/RunOp.h"

#include "ops/GraphBuilder.h"
#include "ops/Evaluate.h"

#include <cmath>
#include <fmt/format.h>

namespace tcx::test {

std::vector<Tensor> runOp(const std::string& opType, const std::vector<Tensor>& inputs, AttrMap attributes,
                          size_t numOutputs) {
  GraphBuilder b("run_" + opType);
  std::vector<Value*> operands;
  std::vector<const Tensor*> values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    operands.push_back(inputs[i].defined() ? b.constant(fmt::format("in{}", i), inputs[i]) : nullptr);
    values.push_back(inputs[i].defined() ? &inputs[i] : nullptr);
  }
  std::vector<Value*> results = b.ops(opType, operands, std::move(attributes), numOutputs);
  std::vector<Tensor> outputs = evaluateNode(*results.front()->producer(), values);
  for (size_t i = 0; i < outputs.size(); ++i)
    TCX_CHECK(outputs[i].type() == results[i]->type(), ErrorKind::Internal,
              "{}: kernel output {} is {} but inference said {}", opType, i, outputs[i].type().toString(),
              results[i]->type().toString());
  return outputs;
}

Tensor runOp1(const std::string& opType, const std::vector<Tensor>& inputs, AttrMap attributes) {
  return runOp(opType, inputs, std::move(attributes), 1).front();
}

std::string mismatch(const Tensor& actual, const Tensor& expected, double rtol, double atol) {
  if (actual.type() != expected.type())
    return fmt::format("type {} != expected {}", actual.type().toString(), expected.type().toString());
  for (int64_t i = 0; i < actual.numElements(); ++i) {
    double a = actual.elementAsDouble(i), e = expected.elementAsDouble(i);
    if ((std::isnan(a) && std::isnan(e)) || a == e) continue; // equal infinities too
    if (!(std::fabs(a - e) <= atol + rtol * std::fabs(e))) return fmt::format("element {}: {} != expected {}", i, a, e);
  }
  return {};
}

} // namespace tcx::test
