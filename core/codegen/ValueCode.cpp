#include "codegen/ValueCode.h"

#include "codegen/AccessCode.h"
#include "codegen/CudaTypes.h"
#include "codegen/GemmLowering.h"
#include "ops/OpDef.h"

#include <fmt/format.h>

namespace tcx {

namespace {

// Constants bigger than this are model weights, which tcx expects as
// inputs: embedding them would make every module megabytes of source.
constexpr int64_t kMaxInlineConstant = 1 << 16;

const TensorAccess* findAccess(const std::vector<TensorAccess>& accesses, const Value* v) {
  for (const TensorAccess& a : accesses)
    if (a.value == v) return &a;
  return nullptr;
}

// "x2 + x1 * 5 + x0 * 20": the offset of index x0, x1, ... in a row-major
// tensor of `shape`.
std::string rowMajorOffset(const Shape& shape) {
  std::string offset = "0";
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0; stride *= shape[d])
    offset = fmt::format("{} + x{} * {}", offset, d, stride);
  return offset;
}

} // namespace

std::vector<std::string> broadcastIndex(const Shape& operandShape, const Shape& outputShape,
                                        const std::vector<std::string>& index) {
  std::vector<std::string> result;
  const size_t offset = outputShape.size() - operandShape.size();
  for (size_t d = 0; d < operandShape.size(); ++d)
    result.push_back(operandShape[d] == 1 && outputShape[d + offset] != 1 ? "0" : index[d + offset]);
  return result;
}

ValueCode::ValueCode(const ExecPlan& plan, const PlanKernel& kernel, int planKernelIndex, ModuleBuilder& module,
                     const CodegenTarget& target)
    : plan_(plan), kernel_(kernel), index_(planKernelIndex), module_(module), target_(target) {}

std::optional<StridedView> ValueCode::memoryView(const Value* v) {
  if (const TensorAccess* access = findAccess(kernel_.inputs, v)) return stridedView(*access);
  if (v->isConstant()) return std::nullopt;
  function(v);
  auto it = stagedScratch_.find(v);
  if (it == stagedScratch_.end()) return std::nullopt;
  StridedView view;
  view.buffer = it->second;
  const Shape& shape = v->type().shape;
  view.strides.assign(shape.size(), 0);
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0; stride *= shape[d]) view.strides[d] = stride;
  return view;
}

const TensorAccess* ValueCode::inputAccess(const Value* v) const { return findAccess(kernel_.inputs, v); }

std::string ValueCode::prefix() const { return ModuleBuilder::kernelPrefix(index_); }

const std::string& ValueCode::define(const Value* v, std::string name, const std::string& code) {
  module_.append(code);
  return functions_[v] = std::move(name);
}

std::string ValueCode::call(const Value* v, const std::vector<std::string>& index) {
  if (auto it = locals_.find(v); it != locals_.end()) return it->second;
  const std::string& f = function(v);
  return fmt::format("{}(b{}{})", f, index.empty() ? "" : ", ", joinIndex(index));
}

const std::string& ValueCode::function(const Value* v) {
  if (auto it = functions_.find(v); it != functions_.end()) return it->second;
  std::string name = fmt::format("{}v{}", prefix(), names_++);
  if (const TensorAccess* access = findAccess(kernel_.inputs, v))
    return define(v, name, accessLoadFunction(name, *access, plan_));
  if (v->isConstant()) return define(v, name, constantFunction(v, name));
  const Node* node = v->producer();
  TCX_CHECK(node, ErrorKind::Internal, "value '{}' is neither an input of kernel '{}' nor computed in it", v->name(),
            kernel_.name);
  const OpDef& op = node->op();
  const size_t rank = v->type().shape.size();
  if (op.cudaExpr) {
    const std::string expr = elementwiseExpr(*node, indexNames(rank));
    const char* storage = cudaStorageType(v->type().dtype);
    return define(v, name,
                  fmt::format("__device__ __forceinline__ {} {}(const Buffers& b{}{}) {{\n  return "
                              "tcx::roundTo<{}>({});\n}}\n\n",
                              cudaComputeType(v->type().dtype), name, rank ? ", " : "", indexParams(rank), storage,
                              expr));
  }
  TCX_CHECK(op.cudaElement, ErrorKind::Unsupported, "{} has no CUDA lowering yet", node->describe());
  if (op.cudaElementPointwise) return define(v, name, pointwiseFunction(*node, *v, name));
  return define(v, name, stage(*node, *v, name));
}

std::string ValueCode::elementwiseExpr(const Node& node, const std::vector<std::string>& index) {
  const Value* out = node.output(0);
  CudaExprContext ctx{node, {}, cudaComputeType(out->type().dtype)};
  for (const Value* in : node.inputs())
    ctx.operands.push_back(in ? call(in, broadcastIndex(in->type().shape, out->type().shape, index)) : "");
  return node.op().cudaExpr(ctx);
}

std::string ValueCode::constantFunction(const Value* v, const std::string& name) {
  const Tensor& t = v->constant();
  TCX_CHECK(t.numElements() <= kMaxInlineConstant, ErrorKind::Unsupported,
            "constant '{}' has {} elements; code generation embeds constants of up to {} (pass weights as inputs)",
            v->name(), t.numElements(), kMaxInlineConstant);
  const DType dtype = t.dtype();
  std::string values;
  for (int64_t i = 0; i < t.numElements(); ++i)
    values += (i ? ", " : "") + cudaLiteral(t.elementAsDouble(i), dtype);
  const Shape& shape = t.shape();
  const std::string offset = rowMajorOffset(shape);
  const char* type = cudaComputeType(dtype);
  return fmt::format("__device__ const {0} {1}_data[{2}] = {{{3}}};\n"
                     "__device__ __forceinline__ {0} {1}(const Buffers&{4}{5}) {{\n  return {1}_data[{6}];\n}}\n\n",
                     type, name, std::max<int64_t>(t.numElements(), 1), values, shape.empty() ? "" : ", ",
                     indexParams(shape.size()), offset);
}

namespace {

// A warp's worth of elements folded by a block; fewer and most of the block
// idles.
constexpr int64_t kMinFolded = 32;

// The block form of a reduction beats one thread per output element when
// enough elements fold into each, and either the folded axes are the
// innermost (the block's threads then read consecutive elements, where a
// thread per output would walk its own line) or the outputs are too few to
// fill the GPU with one thread each.
bool preferBlockFold(const CudaBlockFold& fold, int64_t outputs) {
  constexpr int64_t kFewOutputs = 4096;
  return fold.count >= kMinFolded && (fold.innermostFolded || outputs <= kFewOutputs);
}

// A block per row beats a thread per element, which folds the row's
// statistics again for each of its elements, whenever rows are not tiny.
bool preferRowKernel(const CudaRowForm& row) { return row.rowWise && row.rowCount() >= kMinFolded; }

// The device function `name` that reads a stage's scratch buffer.
std::string loadFunction(const std::string& name, DType dtype, const Shape& shape, int scratch,
                         const std::string& offset) {
  return fmt::format("__device__ __forceinline__ {} {}(const Buffers& b{}{}) {{\n  return tcx::load<{}>({}, "
                     "{});\n}}\n\n",
                     cudaComputeType(dtype), name, shape.empty() ? "" : ", ", indexParams(shape.size()),
                     cudaStorageType(dtype), ModuleBuilder::bufferRef(scratch), offset);
}

} // namespace

// The context of node's element form for its output `out` at `index`, its
// operands read through their functions.
CudaElementContext ValueCode::elementContext(const Node& node, const Value& out, const std::vector<std::string>& index) {
  size_t output = 0;
  while (node.output(output) != &out) ++output;
  return {node, output, index,
          [this, &node](size_t operand, const std::vector<std::string>& at) { return call(node.input(operand), at); },
          cudaComputeType(out.type().dtype)};
}

// A pointwise element form as out's function: computed wherever it is read.
std::string ValueCode::pointwiseFunction(const Node& node, const Value& out, const std::string& name) {
  const DType dtype = out.type().dtype;
  const size_t rank = out.type().shape.size();
  const std::string element = node.op().cudaElement(elementContext(node, out, indexNames(rank)));
  return fmt::format("__device__ __forceinline__ {t} {name}(const Buffers& b{sep}{params}) {{\n  {t} out;\n  {{\n"
                     "{element}  }}\n  return tcx::roundTo<{storage}>(out);\n}}\n\n",
                     fmt::arg("t", cudaComputeType(dtype)), fmt::arg("name", name), fmt::arg("sep", rank ? ", " : ""),
                     fmt::arg("params", indexParams(rank)), fmt::arg("element", element),
                     fmt::arg("storage", cudaStorageType(dtype)));
}

// A stage: a kernel computing every element of one of the node's outputs
// into a scratch buffer (row-major, the output's dtype), and a function
// reading it. Each output the kernel reads is a stage of its own.
std::string ValueCode::stage(const Node& node, const Value& out, const std::string& name) {
  const DType dtype = out.type().dtype;
  const Shape& shape = out.type().shape;
  const std::vector<std::string> index = indexNames(shape.size());
  const CudaElementContext ctx = elementContext(node, out, index);
  const int scratch = module_.addScratch(out.type().byteSize(), out.name() + ", staged");
  stagedScratch_[&out] = scratch;
  const std::string offset = rowMajorOffset(shape);
  const std::string entry = fmt::format("{}stage{}", prefix(), stages_++);
  if (node.op().fusionRole == FusionRole::MatrixProduct && emitStagedMatMul(*this, node, entry, scratch, offset))
    return loadFunction(name, dtype, shape, scratch, offset);
  if (node.op().cudaBlockFold) {
    const CudaBlockFold fold = node.op().cudaBlockFold(ctx);
    if (preferBlockFold(fold, numElements(shape))) {
      module_.addBlockFoldKernel(index_, entry, shape, fold,
                                 fmt::format("      tcx::store<{}>({}, {}, out);\n", cudaStorageType(dtype),
                                             ModuleBuilder::bufferRef(scratch), offset),
                                 fmt::format("stage {} (a block per element)", node.describe()));
      return loadFunction(name, dtype, shape, scratch, offset);
    }
  }
  if (node.op().cudaRow) {
    const CudaRowForm row = node.op().cudaRow(ctx);
    if (preferRowKernel(row)) {
      module_.addRowKernel(index_, entry, row, cudaComputeType(dtype),
                           fmt::format("      tcx::store<{}>({}, {}, out);\n", cudaStorageType(dtype),
                                       ModuleBuilder::bufferRef(scratch), offset),
                           fmt::format("stage {} (a block per row)", node.describe()));
      return loadFunction(name, dtype, shape, scratch, offset);
    }
  }
  const std::string element = node.op().cudaElement(ctx);
  std::string body = fmt::format("    {} out;\n    {{\n{}    }}\n    tcx::store<{}>({}, {}, out);\n",
                                 cudaComputeType(dtype), element, cudaStorageType(dtype),
                                 ModuleBuilder::bufferRef(scratch), offset);
  module_.addElementKernel(index_, entry, shape, body, fmt::format("stage {}", node.describe()));
  return loadFunction(name, dtype, shape, scratch, offset);
}

void ValueCode::storeOutputs() {
  for (size_t i = 0; i < kernel_.outputs.size(); ++i) {
    const TensorAccess& out = kernel_.outputs[i];
    const Shape& shape = out.value->type().shape;
    std::string body = fmt::format("    const {} v = {};\n", cudaComputeType(out.value->type().dtype),
                                   call(out.value, indexNames(shape.size())));
    body += accessStore(out, plan_, "v");
    module_.addElementKernel(index_, fmt::format("{}store{}", prefix(), i), shape, body,
                             fmt::format("store {}", out.value->name()));
  }
}

} // namespace tcx
