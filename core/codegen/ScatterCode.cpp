#include "codegen/ScatterCode.h"

#include "codegen/AccessCode.h"
#include "codegen/CudaTypes.h"
#include "ops/OpDef.h"

#include <fmt/format.h>

namespace tcx {

namespace {

// Statements writing the update `out` to the output element at x0, x1, ...
std::string writeUpdate(ScatterCombine combine, const TensorAccess& output, const ExecPlan& plan) {
  switch (combine) {
  case ScatterCombine::Store: return accessStore(output, plan, "out");
  case ScatterCombine::Add: return accessCombine(output, plan, "tcx::combine::Add", "out");
  case ScatterCombine::Mul: return accessCombine(output, plan, "tcx::combine::Mul", "out");
  case ScatterCombine::Max: return accessCombine(output, plan, "tcx::combine::Max", "out");
  case ScatterCombine::Min: return accessCombine(output, plan, "tcx::combine::Min", "out");
  }
  return {};
}

} // namespace

bool emitScatter(ValueCode& values) {
  const PlanKernel& kernel = values.kernel();
  const Node& node = *kernel.fused->anchor;
  const OpDef& op = node.op();
  if (!op.cudaScatter) return false;
  TCX_CHECK(op.inPlaceOperand && kernel.fused->nodes.size() == 1, ErrorKind::Internal,
            "{} has a scatter form but is not alone in its kernel with the operand it updates", node.describe());
  const ExecPlan& plan = values.plan();
  ModuleBuilder& module = values.module();
  const Value* data = node.input(*op.inPlaceOperand);
  for (size_t i = 0; i < kernel.outputs.size(); ++i) {
    const TensorAccess& output = kernel.outputs[i];
    const Value* out = output.value;
    const Shape& shape = out->type().shape;
    const char* type = cudaComputeType(out->type().dtype);
    // In place, the output's buffer holds the data already.
    const int buffer = plan.bufferOf(out);
    if (buffer < 0 || buffer != plan.bufferOf(data)) {
      const std::string copy =
          fmt::format("    const {} v = {};\n", type, values.call(data, indexNames(shape.size()))) +
          accessStore(output, plan, "v");
      module.addElementKernel(values.planKernelIndex(), fmt::format("{}scatter_copy{}", values.prefix(), i), shape,
                              copy, fmt::format("copy {} into {}", data->name(), out->name()));
    }
    const Shape updates = op.cudaScatter.updateShape(node);
    const CudaScatterContext ctx{node, indexNames(updates.size()),
                                 [&](size_t operand, const std::vector<std::string>& at) {
                                   return values.call(node.input(operand), at);
                                 },
                                 type};
    // The destination shadows the update's index, so that the output's
    // mapping function reads it as its own x0, x1, ...
    std::string destination;
    for (size_t d = 0; d < shape.size(); ++d) destination += fmt::format("      const Index x{0} = _d{0};\n", d);
    const std::string body = fmt::format("    {} out;\n    {{\n{}    {{\n{}{}    }}\n    }}\n", type,
                                         op.cudaScatter.update(ctx), destination,
                                         writeUpdate(op.cudaScatter.combine(node), output, plan));
    module.addElementKernel(values.planKernelIndex(), fmt::format("{}scatter{}", values.prefix(), i), updates, body,
                            fmt::format("scatter {} into {}", node.describe(), out->name()));
  }
  return true;
}

} // namespace tcx
