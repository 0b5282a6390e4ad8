#pragma once
// An op's CUDA form, part of its registry entry: what code generation
// (core/codegen) emits to compute one element of the op's output. The
// device functions it names live in kernels/include/tcx/scalar.cuh.
//
// Element-wise ops are expressions over their operands' values; code
// generation inlines them into one another and into the epilogues of
// library kernels. Every other op computes one output element with a
// statement block (a loop over reduced axes, a dot product, a window),
// which code generation runs as a stage of its own.

#include <functional>
#include <string>
#include <vector>

namespace tcx {

class Node;

struct CudaExprContext {
  const Node& node;
  std::vector<std::string> operands; // each operand's value, in its compute type; "" for an absent optional one
  std::string resultType;            // the output's compute type: "float", "double", "long long", "bool", ...
};

struct CudaElementContext {
  const Node& node;
  size_t output = 0;                 // which of the node's outputs the statements compute
  std::vector<std::string> outIndex; // names of the output's index variables (of the module's `Index` type), outermost first
  // The value of operand i at the given index (one C expression per dimension).
  std::function<std::string(size_t operand, const std::vector<std::string>& index)> operandAt;
  std::string resultType; // the output's compute type
  // The statements must assign the output element to a variable named `out`
  // (declared by the caller, of resultType); names they declare start with
  // an underscore.
};

using CudaExprFn = std::function<std::string(const CudaExprContext&)>;
using CudaElementFn = std::function<std::string(const CudaElementContext&)>;

// "tcx::op::<function>(operands...)": the common form.
CudaExprFn cudaCall(std::string function);

} // namespace tcx
