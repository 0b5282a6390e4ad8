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
// equals NaN); on mismatch, a message naming the first bad element.
bool allClose(const Tensor& actual, const Tensor& expected, double rtol = 1e-5, double atol = 1e-6,
              std::string* why = nullptr);

} // namespace tcx::test

// REQUIRE that two tensors have the same type and close values.
#define REQUIRE_CLOSE(actual, expected, ...)                                                                           \
  do {                                                                                                                 \
    std::string why_;                                                                                                  \
    bool ok_ = ::tcx::test::allClose((actual), (expected) __VA_OPT__(, ) __VA_ARGS__, &why_);                          \
    INFO(why_);                                                                                                        \
    REQUIRE(ok_);                                                                                                      \
  } while (false)
