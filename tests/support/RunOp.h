#pragma once
// Test helpers: run one op on given tensors through the registry (the same
// path constant folding and the reference executor take), and compare
// tensors.

#include "ir/Attribute.h"
#include "ir/Tensor.h"

#include <string>
#include <vector>

namespace tcx::test {

// Runs `opType` on `inputs` (a default-constructed Tensor stands for an
// omitted optional input). Inputs are constants of a one-node graph, so
// shape inference sees their values; the outputs come from the CPU kernel
// and their types are checked against inference.
std::vector<Tensor> runOp(const std::string& opType, const std::vector<Tensor>& inputs, AttrMap attrs = {},
                          size_t numOutputs = 1);
Tensor runOp1(const std::string& opType, const std::vector<Tensor>& inputs, AttrMap attrs = {});

// Element-wise comparison as doubles with |a-b| <= atol + rtol*|b| (NaN
// equals NaN): empty when the tensors match, else what differs first.
std::string mismatch(const Tensor& actual, const Tensor& expected, double rtol = 1e-5, double atol = 1e-6);
inline bool allClose(const Tensor& actual, const Tensor& expected, double rtol = 1e-5, double atol = 1e-6) {
  return mismatch(actual, expected, rtol, atol).empty();
}

} // namespace tcx::test

// REQUIRE that two tensors have the same type and close values; optional
// rtol and atol follow.
#define REQUIRE_CLOSE(actual, expected, ...)                                                                           \
  do {                                                                                                                 \
    std::string why_ = ::tcx::test::mismatch((actual), (expected)__VA_OPT__(, ) __VA_ARGS__);                          \
    INFO(why_);                                                                                                        \
    REQUIRE(why_.empty());                                                                                             \
  } while (false)
