#include "codegen/mugraph/ElementCode.h"

#include "codegen/CudaTypes.h"
#include "codegen/mugraph/IndexCode.h"
#include "mugraph/DenseTensor.h"
#include "support/Error.h"

#include <fmt/format.h>

#include <algorithm>

namespace tcx::mugraphcuda {

using mugraph::OpType;

std::string Slot::read(const std::string& offset) const {
  return scalar ? name : fmt::format("ld({}[{}])", name, offset);
}

std::string Slot::write(const std::string& offset, const std::string& value) const {
  return fmt::format("st({}[{}], {});", name, offset, value);
}

std::string indented(const std::string& text, int depth) {
  std::string pad(static_cast<size_t>(depth) * 2, ' '), out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = std::min(text.find('\n', start), text.size());
    out += pad + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

namespace {

// Adds to v the batched product of x [..., m, k] and y [..., k, n] at output
// element i, reducing over the loop variable named `tag`.
std::string matmulTerm(const Slot& x, const Slot& y, const Shape& xShape, const Shape& yShape, const std::string& i,
                       const std::string& tag) {
  size_t r = xShape.size();
  int64_t m = xShape[r - 2], k = xShape[r - 1], n = yShape[r - 1];
  // Batch dims broadcast: each operand's batch offset follows its own strides.
  Shape batch(r - 2), xBatch(xShape.begin(), xShape.end() - 2), yBatch(yShape.begin(), yShape.end() - 2);
  for (size_t d = 0; d + 2 < r; ++d) batch[d] = std::max(xShape[d], yShape[d]);
  std::string b = fmt::format("({} / {})", i, m * n), row = fmt::format("{} / {} % {}", i, n, m);
  std::string col = fmt::format("{} % {}", i, n);
  std::string xb = stridedOffset(b, batch, mugraph::broadcastStrides(xBatch, batch));
  std::string yb = stridedOffset(b, batch, mugraph::broadcastStrides(yBatch, batch));
  std::string xAt = fmt::format("({}) * {} + ({}) * {} + {}", xb, m * k, row, k, tag);
  std::string yAt = fmt::format("({}) * {} + {} * {} + {}", yb, k * n, tag, n, col);
  return fmt::format("for (int {0} = 0; {0} < {1}; ++{0}) v += {2} * {3};\n", tag, k, x.read(xAt), y.read(yAt));
}

std::string sumValue(const mugraph::Operator& op, const Slot& x, const Shape& xShape, const std::string& i) {
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(op.dim) + 1; d < xShape.size(); ++d) inner *= xShape[d];
  int64_t outDim = xShape[op.dim] / op.group;
  // The first summand: the output's outer and inner coordinates, its dim scaled by the group.
  std::string first = fmt::format("{0} / {1} * {2} + {0} / {3} % {4} * {5} + {0} % {3}", i, inner * outDim,
                                  xShape[op.dim] * inner, inner, outDim, op.group * inner);
  return fmt::format("float v = 0.f;\nfor (int j = 0; j < {}; ++j) v += {};\n", op.group,
                     x.read(fmt::format("{} + j * {}", first, inner)));
}

std::string rmsNormValue(const mugraph::Operator& op, const Slot& x, const Shape& xShape, const std::string& i) {
  int64_t n = xShape.back();
  return fmt::format("float squares = 0.f;\n"
                     "for (int j = 0; j < {0}; ++j) {{ float e = {1}; squares += e * e; }}\n"
                     "float v = {2} / sqrtf(squares / {3} + {4});\n",
                     n, x.read(fmt::format("{} / {} * {} + j", i, n, n)), x.read(i), cudaLiteral(double(n), DType::F32),
                     cudaLiteral(op.value, DType::F32));
}

std::string repeatValue(const Slot& x, const Shape& xShape, const Shape& out, const std::string& i) {
  std::vector<int64_t> outStrides = contiguousStrides(out), xStrides = contiguousStrides(xShape);
  std::vector<std::string> terms;
  for (size_t d = 0; d < out.size(); ++d)
    if (xShape[d] > 1) terms.push_back(fmt::format("({} / {} % {}) * {}", i, outStrides[d], xShape[d], xStrides[d]));
  return fmt::format("float v = {};\n", x.read(sumOf(terms)));
}

} // namespace

std::string elementValue(const mugraph::Operator& op, const std::vector<Slot>& operands,
                         const std::vector<Shape>& operandShapes, const Shape& out, const std::string& i) {
  // Broadcasting as ShapeInference allows: aligned right, size-1 dims repeat.
  auto binary = [&](const char* symbol) {
    auto at = [&](size_t k) {
      return operands[k].read(stridedOffset(i, out, mugraph::broadcastStrides(operandShapes[k], out)));
    };
    return fmt::format("float v = {} {} {};\n", at(0), symbol, at(1));
  };
  // `expr` of the operand's element `a`.
  auto unary = [&](const char* expr) {
    return fmt::format("float a = {};\nfloat v = {};\n", operands[0].read(i), expr);
  };
  switch (op.type) {
  case OpType::Matmul:
    return "float v = 0.f;\n" + matmulTerm(operands[0], operands[1], operandShapes[0], operandShapes[1], i, "k0");
  case OpType::ConcatMatmul: // (W || X) x (Y || Z) = W Y + X Z
    return "float v = 0.f;\n" + matmulTerm(operands[0], operands[2], operandShapes[0], operandShapes[2], i, "k0") +
           matmulTerm(operands[1], operands[3], operandShapes[1], operandShapes[3], i, "k1");
  case OpType::Sum: return sumValue(op, operands[0], operandShapes[0], i);
  case OpType::RMSNorm: return rmsNormValue(op, operands[0], operandShapes[0], i);
  case OpType::Repeat: return repeatValue(operands[0], operandShapes[0], out, i);
  case OpType::EwAdd: return binary("+");
  case OpType::EwMul: return binary("*");
  case OpType::EwDiv: return binary("/");
  case OpType::EwExp: return unary("expf(a)");
  case OpType::Sqrt: return unary("sqrtf(a)");
  case OpType::Square: return unary("a * a");
  case OpType::SiLU: return unary("a / (1.f + expf(-a))");
  case OpType::Input:
  case OpType::Constant:
  case OpType::InputIterator:
  case OpType::OutputAccumulator:
  case OpType::Reshape:
  case OpType::GraphDefined:
  case OpType::ForLoopSum:
  case OpType::ForLoopRms: break;
  }
  raise(ErrorKind::Internal, "{} has no element-wise code", mugraph::opTypeName(op.type));
}

} // namespace tcx::mugraphcuda
