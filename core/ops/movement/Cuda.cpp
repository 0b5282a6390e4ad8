// The CUDA form of this family's ops that are mapping functions of their
// inputs, and of Pad. Code generation needs them only where VTC has no
// mapping for an op (otherwise the plan copies regions, or no copy is left
// at all); the gathers and scatters, whose index operands may be run-time
// values, are in CudaIndexed.cpp.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/movement/MovementOps.h"
#include "ops/movement/MovementRules.h"
#include "ops/movement/Pad.h"

#include <fmt/format.h>

namespace tcx {

namespace {

// Ops whose shapes fix their mapping (MovementRules.h): each output element
// reads the data input that the first piece holding at its index names, at
// the piece's index, or the piece's fill value. The mapping is VTC's own, so
// this form agrees with the plan's region copies and virtual tensors by
// construction.
std::string mappingElement(const CudaElementContext& ctx) {
  std::optional<MovementSemantics> sem = nodeMovement(ctx.node);
  TCX_CHECK(sem, ErrorKind::Unsupported, "{} has no mapping function", ctx.node.describe());
  const MappingFunction& map = sem->outputMaps.at(ctx.output);
  const VarExtents extents = map.extents();
  const std::vector<MappingPiece>& pieces = map.pieces();
  std::string code;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const MappingPiece& p = pieces[i];
    std::string value;
    if (p.source == MappingPiece::kFill) {
      value = cudaExactValue(p.fillValue, ctx.resultType);
    } else {
      std::vector<std::string> index;
      for (const IndexExpr& e : p.index) index.push_back(e.toString(ctx.outIndex, extents));
      value = ctx.operandAt(sem->dataInputs[p.source], index);
    }
    const std::string condition = cudaPieceCondition(p, ctx.outIndex, extents);
    const char* otherwise = i ? "else " : "";
    // The pieces cover the output: the last one holds wherever the others do not.
    if (condition.empty() || i + 1 == pieces.size()) {
      code += fmt::format("{}out = {};\n", otherwise, value);
      break;
    }
    code += fmt::format("{}if ({}) out = {};\n", otherwise, condition, value);
  }
  return code;
}

// Statements declaring `s`, the input index that output index `x` of one
// axis reads (AxisPad::source on the GPU), through the kept window's index
// `j` = x - before, which they declare first. In constant mode an index
// outside the window reads the constant, which the caller tests for.
std::string padAxis(const AxisPad& pad, PadMode mode, const std::string& x, const std::string& j,
                    const std::string& s) {
  std::string code = fmt::format("const Index {} = {} - {};\n", j, x, pad.before);
  switch (mode) {
  case PadMode::Constant: return code + fmt::format("const Index {} = {} + {};\n", s, pad.cropBegin, j);
  case PadMode::Edge:
    return code + fmt::format("const Index {0} = {1} + ({2} < 0 ? 0 : ({2} >= {3} ? {3} - 1 : {2}));\n", s,
                              pad.cropBegin, j, pad.kept);
  case PadMode::Wrap:
    return code + fmt::format("const Index {} = {} + Index(tcx::floormod({}, {}));\n", s, pad.cropBegin, j, pad.kept);
  case PadMode::Reflect: {
    // Mirrored about the first and last elements: periodic with 2*(kept-1).
    if (pad.kept == 1) return code + fmt::format("const Index {} = {};\n", s, pad.cropBegin);
    const int64_t period = 2 * (pad.kept - 1);
    const std::string r = j + "r";
    return code + fmt::format("const Index {0} = Index(tcx::floormod({1}, {2}));\n"
                              "const Index {3} = {4} + ({0} < {5} ? {0} : {2} - {0});\n",
                              r, j, period, s, pad.cropBegin, pad.kept);
  }
  }
  return code;
}

// Pad in every mode: each axis maps its output index to an input index on
// its own (Pad.h); in constant mode an element outside the kept window of
// any axis is the constant, which may be a run-time operand.
std::string padElement(const CudaElementContext& ctx) {
  const Node& node = ctx.node;
  const PadMode mode = padMode(node.attrs());
  auto constantOperand = [&](size_t i) -> const Tensor* {
    if (i >= node.numInputs() || !node.input(i)) return nullptr;
    TCX_CHECK(node.input(i)->isConstant(), ErrorKind::Unsupported, "{}: operand {} is computed at run time",
              node.describe(), i);
    return &node.input(i)->constant();
  };
  const std::vector<AxisPad> pads =
      axisPads(node.input(0)->type().shape, *constantOperand(1), constantOperand(3), mode);
  std::string code = "bool _inside = true;\n";
  std::vector<std::string> index;
  for (size_t d = 0; d < pads.size(); ++d) {
    const AxisPad& pad = pads[d];
    const std::string& x = ctx.outIndex[d];
    // An axis without padding reads its own index (and an empty one nothing).
    if ((pad.before == 0 && pad.cropBegin == 0 && pad.kept == pad.size) || pad.size == 0) {
      index.push_back(x);
      continue;
    }
    const std::string j = fmt::format("_j{}", d), s = fmt::format("_s{}", d);
    code += padAxis(pad, mode, x, j, s);
    if (mode == PadMode::Constant) code += fmt::format("_inside = _inside && {0} >= 0 && {0} < {1};\n", j, pad.kept);
    index.push_back(s);
  }
  std::string fill = fmt::format("static_cast<{}>(0)", ctx.resultType);
  if (node.numInputs() > 2 && node.input(2))
    fill = ctx.operandAt(2, std::vector<std::string>(node.input(2)->type().shape.size(), "0"));
  return code + fmt::format("if (_inside) out = {};\nelse out = {};\n", ctx.operandAt(0, index), fill);
}

} // namespace

void registerMovementCudaForms(OpRegistry& registry) {
  for (const char* name : {"Reshape", "Squeeze", "Unsqueeze", "Flatten", "Identity", "Transpose", "DepthToSpace",
                           "SpaceToDepth", "Slice", "Expand", "Tile", "Concat", "Split"})
    registry.edit(name).cudaElement = mappingElement;
  registry.edit("Pad").cudaElement = padElement;
}

} // namespace tcx
