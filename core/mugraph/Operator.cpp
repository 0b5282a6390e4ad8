#include "mugraph/Operator.h"

#include "mugraph/MuGraph.h"
#include "support/Error.h"

#include <iterator>

namespace tcx::mugraph {

namespace {

constexpr uint8_t K = 1 << static_cast<int>(Level::Kernel);
constexpr uint8_t B = 1 << static_cast<int>(Level::Block);
constexpr uint8_t T = 1 << static_cast<int>(Level::Thread);

using Per = ElementWork::Per;

// Levels (Mirage Table 1, column 2): Repeat and Reshape exist at kernel and
// block level only; so do the operators whose operands are whole rows
// (RMSNorm) or two GEMMs, constants, and GraphDefined, since a thread graph
// is the lowest level and has nothing below it to define an operator. The
// for-loop accumulations exist only where there is a loop to accumulate
// over and shared memory to hold the sum: in block graphs.
//
// LAX (Lax.h): Matmul, ConcatMatmul, Sum and EwMul are multi-linear; EwAdd
// and Square are polynomials, which Mirage's Equation (2) covers as well;
// Repeat, Reshape, the iterators and accumulators only move data; SiLU is
// x / (1 + e^-x), one exponentiation and a division. Sqrt, RMSNorm and
// ForLoopRms take square roots, which are not LAX.
//
// Work: exp and sqrt are transcendental. SiLU is an exp, an add and a
// division; RMSNorm a square, a sum and a division per element; ForLoopRms
// a square and an add per operand element. A matmul does a multiply-add,
// 2 flops, per step of its reduction.
constexpr OpInfo kOps[] = {
    // type, name, levels, arity, elementwise, lax, exponentials, work
    {OpType::Input, "Input", K, 0, false, true, 0, {}},
    {OpType::Constant, "Constant", K | B, 0, false, true, 0, {}},
    {OpType::InputIterator, "InputIterator", B | T, 0, false, true, 0, {}},
    {OpType::OutputAccumulator, "OutputAccumulator", B | T, 1, false, true, 0, {Per::LoopAccumulated, 1, 0}},
    {OpType::Matmul, "Matmul", K | B | T, 2, false, true, 0, {Per::ContractionStep, 2, 0}},
    {OpType::ConcatMatmul, "ConcatMatmul", K | B, 4, false, true, 0, {Per::ContractionStep, 2, 0}},
    {OpType::Sum, "Sum", K | B | T, 1, false, true, 0, {Per::Operand, 1, 0}},
    {OpType::EwAdd, "EwAdd", K | B | T, 2, true, true, 0, {Per::Output, 1, 0}},
    {OpType::EwMul, "EwMul", K | B | T, 2, true, true, 0, {Per::Output, 1, 0}},
    {OpType::EwDiv, "EwDiv", K | B | T, 2, true, true, 0, {Per::Output, 1, 0}},
    {OpType::EwExp, "EwExp", K | B | T, 1, true, true, 1, {Per::Output, 0, 1}},
    {OpType::Sqrt, "Sqrt", K | B | T, 1, true, false, 0, {Per::Output, 0, 1}},
    {OpType::Square, "Square", K | B | T, 1, true, true, 0, {Per::Output, 1, 0}},
    {OpType::SiLU, "SiLU", K | B | T, 1, true, true, 1, {Per::Output, 2, 1}},
    {OpType::RMSNorm, "RMSNorm", K | B, 1, false, false, 0, {Per::Output, 3, 0}},
    {OpType::Repeat, "Repeat", K | B, 1, false, true, 0, {}},
    {OpType::Reshape, "Reshape", K | B, 1, false, true, 0, {}},
    {OpType::GraphDefined, "GraphDefined", K | B, 0, false, true, 0, {Per::Body, 0, 0}},
    {OpType::ForLoopSum, "ForLoopSum", B, 1, false, true, 0, {Per::Operand, 1, 0}},
    {OpType::ForLoopRms, "ForLoopRms", B, 1, false, false, 0, {Per::Operand, 2, 0}},
};

constexpr bool oneRowPerType() {
  if (std::size(kOps) != static_cast<size_t>(kLastOpType) + 1) return false;
  for (size_t i = 0; i < std::size(kOps); ++i)
    if (kOps[i].type != static_cast<OpType>(i) || kOps[i].name.empty()) return false;
  return true;
}
static_assert(oneRowPerType(), "kOps needs one row per OpType, in declaration order");

} // namespace

std::string_view levelName(Level level) {
  switch (level) {
  case Level::Kernel: return "kernel";
  case Level::Block: return "block";
  case Level::Thread: return "thread";
  }
  return "?";
}

const OpInfo& opInfo(OpType type) { return kOps[static_cast<size_t>(type)]; }

std::string_view opTypeName(OpType type) { return opInfo(type).name; }

OpType parseOpType(std::string_view name) {
  for (const OpInfo& row : kOps)
    if (row.name == name) return row.type;
  raise(ErrorKind::InvalidModel, "unknown μGraph operator '{}'", name);
}

bool allowedAt(OpType type, Level level) { return (opInfo(type).levels >> static_cast<int>(level)) & 1; }

unsigned numOperands(OpType type) { return opInfo(type).arity; }

bool isElementwise(OpType type) { return opInfo(type).elementwise; }

bool Operator::operator==(const Operator& o) const {
  bool sameBody = body == o.body || (body && o.body && *body == *o.body);
  return type == o.type && inputs == o.inputs && outputs == o.outputs && name == o.name && dtype == o.dtype &&
         inputIndex == o.inputIndex && dim == o.dim && group == o.group && shape == o.shape && imap == o.imap &&
         omap == o.omap && fmap == o.fmap && value == o.value && sameBody;
}

} // namespace tcx::mugraph
