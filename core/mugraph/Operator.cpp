#include "mugraph/Operator.h"

#include "mugraph/MuGraph.h"
#include "support/Error.h"

#include <array>

namespace tcx::mugraph {

namespace {
constexpr std::array<std::string_view, 20> kOpNames = {
    "Input",  "Constant", "InputIterator", "OutputAccumulator", "Matmul",  "ConcatMatmul", "Sum",
    "EwAdd",  "EwMul",    "EwDiv",         "EwExp",             "Sqrt",    "Square",       "SiLU",
    "RMSNorm", "Repeat",  "Reshape",       "GraphDefined",      "ForLoopSum", "ForLoopRms"};
static_assert(kOpNames.size() == static_cast<size_t>(OpType::ForLoopRms) + 1);
} // namespace

std::string_view levelName(Level level) {
  switch (level) {
  case Level::Kernel: return "kernel";
  case Level::Block: return "block";
  case Level::Thread: return "thread";
  }
  return "?";
}

std::string_view opTypeName(OpType type) { return kOpNames[static_cast<size_t>(type)]; }

OpType parseOpType(std::string_view name) {
  for (size_t i = 0; i < kOpNames.size(); ++i)
    if (kOpNames[i] == name) return static_cast<OpType>(i);
  raise(ErrorKind::InvalidModel, "unknown μGraph operator '{}'", name);
}

bool allowedAt(OpType type, Level level) {
  switch (type) {
  case OpType::Input: return level == Level::Kernel;
  case OpType::InputIterator:
  case OpType::OutputAccumulator: return level != Level::Kernel;
  // Table 1: Repeat and Reshape exist at kernel and block level only; so do
  // the operators whose operands are whole rows (RMSNorm) or two GEMMs.
  case OpType::Repeat:
  case OpType::Reshape:
  case OpType::RMSNorm:
  case OpType::ConcatMatmul:
  case OpType::Constant: return level != Level::Thread;
  // A thread graph is the lowest level: nothing below it to define an op.
  case OpType::GraphDefined: return level != Level::Thread;
  // Thread graphs come from fusion patterns of element-wise operators only.
  case OpType::ForLoopSum:
  case OpType::ForLoopRms: return level == Level::Block;
  default: return true;
  }
}

bool isElementwise(OpType type) {
  switch (type) {
  case OpType::EwExp:
  case OpType::EwAdd:
  case OpType::EwMul:
  case OpType::EwDiv:
  case OpType::Sqrt:
  case OpType::Square:
  case OpType::SiLU: return true;
  default: return false;
  }
}

unsigned numOperands(OpType type) {
  switch (type) {
  case OpType::Input:
  case OpType::Constant:
  case OpType::InputIterator:
  case OpType::GraphDefined: return 0;
  case OpType::Matmul:
  case OpType::EwAdd:
  case OpType::EwMul:
  case OpType::EwDiv: return 2;
  case OpType::ConcatMatmul: return 4;
  default: return 1;
  }
}

bool Operator::operator==(const Operator& o) const {
  bool sameBody = body == o.body || (body && o.body && *body == *o.body);
  return type == o.type && inputs == o.inputs && outputs == o.outputs && name == o.name && dtype == o.dtype &&
         inputIndex == o.inputIndex && dim == o.dim && group == o.group && shape == o.shape && imap == o.imap &&
         omap == o.omap && fmap == o.fmap && value == o.value && sameBody;
}

} // namespace tcx::mugraph
