#include "codegen/ValueCode.h"
#include "codegen/AccessCode.h"
#include "codegen/CudaCodegen.h"
#include "codegen/CudaTypes.h"
#include "codegen/GemmLowering.h"
#include "codegen/KernelText.h"
#include "ops/OpDef.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

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
  return rowMajorView(it->second, v->type().shape);
}

std::optional<StridedView> ValueCode::stagedView(const Value* v) {
  if (std::optional<StridedView> view = memoryView(v)) return view;
  if (v->isConstant()) return std::nullopt;
  const int scratch = module_.addScratch(v->type().byteSize(), v->name() + ", staged");
  stagedScratch_[v] = scratch;
  module_.recordLaunch(stagingKernel(v, scratch));
  return rowMajorView(scratch, v->type().shape);
}

GeneratedLaunch ValueCode::stagingKernel(const Value* v, int buffer) {
  const Shape& shape = v->type().shape;
  const DType dtype = v->type().dtype;
  return module_.valueKernel(index_, fmt::format("{}stage{}", prefix(), stages_++), shape,
                             elementsPerThread(numElements(shape)), cudaComputeType(dtype),
                             fmt::format("    out = {};\n", call(v, indexNames(shape.size()))),
                             fmt::format("      tcx::store<{}>({}, {}, out);\n", cudaStorageType(dtype),
                                         ModuleBuilder::bufferRef(buffer), rowMajorOffset(shape)),
                             fmt::format("stage {}", v->name()));
}

const TensorAccess* ValueCode::inputAccess(const Value* v) const { return findAccess(kernel_.inputs, v); }

std::string ValueCode::prefix() const { return ModuleBuilder::kernelPrefix(index_); }

const std::string& ValueCode::define(const Value* v, std::string name, const std::string& code) {
  module_.append(code);
  return functions_[v] = std::move(name);
}

unsigned ValueCode::elementsPerThread(int64_t count) const {
  return tcx::elementsPerThread(count, target_.smCount, target_.threadsPerSm);
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
constexpr int64_t kWarpRow = 1024;

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
// Up to kWarpRow elements a row (Swin's window softmax over 49, ViT's
// LayerNorm over 768 at 32 images), a warp per row folds without barriers
// and keeps every lane busy where a block would idle most of its threads at
// the tree; preferWarpFold says where rows are too few for that.
bool preferRowKernel(const CudaRowForm& row) { return row.rowWise && row.rowCount() >= kMinFolded; }

// A warp's fold of `count` elements (a row, or a reduction's output
// element) is a chain of count / 32 loads on each lane; a block cuts it to
// count / 256 and a barrier tree. Where the folds are many the warps of one
// multiprocessor overlap their chains and the warp form wins by skipping the
// barriers; where they are few (a batch-1 LayerNorm over 49 to 197 tokens)
// each warp's chain is the kernel's time and the block form, on more
// multiprocessors, is several times faster. Folds shorter than a block always
// take a warp each: a block would idle the threads past them (SqueezeNet's
// global mean over 13 x 13 at 32 images: 169 of 256).
constexpr int64_t kBlockRow = 256;
constexpr int64_t kWarpRowsPerSm = 16;
bool preferWarpFold(int64_t count, int64_t folds, int smCount) {
  if (count > kWarpRow) return false;
  return count < kBlockRow || folds >= kWarpRowsPerSm * smCount;
}

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
// reading it. Each output the kernel reads is a stage of its own. A stage
// of a kernel output stores it where it belongs instead (directOutput), and
// its function reads it there.
std::string ValueCode::stage(const Node& node, const Value& out, const std::string& name) {
  const DType dtype = out.type().dtype;
  const Shape& shape = out.type().shape;
  const std::vector<std::string> index = indexNames(shape.size());
  const CudaElementContext ctx = elementContext(node, out, index);
  const std::string entry = fmt::format("{}stage{}", prefix(), stages_++);
  int scratch = -1;
  if (node.op().fusionRole == FusionRole::MatrixProduct) {
    scratch = module_.addScratch(out.type().byteSize(), out.name() + ", staged");
    stagedScratch_[&out] = scratch;
    if (emitStagedMatMul(*this, node, entry, scratch, rowMajorOffset(shape)))
      return loadFunction(name, dtype, shape, scratch, rowMajorOffset(shape));
  }
  const TensorAccess* direct = scratch < 0 ? directOutput(out) : nullptr;
  if (direct) {
    storedByStage_.insert(&out);
  } else if (scratch < 0) {
    scratch = module_.addScratch(out.type().byteSize(), out.name() + ", staged");
    stagedScratch_[&out] = scratch;
  }
  const std::string store =
      direct ? accessStore(*direct, plan_, "out")
             : fmt::format("      tcx::store<{}>({}, {}, out);\n", cudaStorageType(dtype),
                           ModuleBuilder::bufferRef(scratch), rowMajorOffset(shape));
  const std::string function =
      direct ? accessLoadFunction(name, *direct, plan_) : loadFunction(name, dtype, shape, scratch, rowMajorOffset(shape));
  if (node.op().cudaBlockFold) {
    const CudaBlockFold fold = node.op().cudaBlockFold(ctx);
    if (preferBlockFold(fold, numElements(shape))) {
      if (preferWarpFold(fold.count, numElements(shape), target_.smCount))
        module_.addWarpFoldKernel(index_, entry, shape, fold, store,
                                  fmt::format("stage {} (a warp per element)", node.describe()));
      else
        module_.addBlockFoldKernel(index_, entry, shape, fold, store,
                                   fmt::format("stage {} (a block per element)", node.describe()));
      return function;
    }
  }
  if (node.op().cudaRow) {
    const CudaRowForm row = node.op().cudaRow(ctx);
    if (rowsSideBySide(node, row)) {
      // The row form again, reading operand 0 from the kernel's shared tile.
      CudaElementContext tiled = ctx;
      tiled.operandAt = [at = ctx.operandAt](size_t operand, const std::vector<std::string>& where) {
        return operand == 0 ? std::string(ModuleBuilder::kRowTileValue) : at(operand, where);
      };
      const DType inType = node.input(0)->type().dtype;
      const ModuleBuilder::RowTile tile{call(node.input(0), index), cudaComputeType(inType), cudaComputeBytes(inType)};
      module_.addInterleavedRowKernel(index_, entry, node.op().cudaRow(tiled), tile, cudaComputeType(dtype), store,
                                      fmt::format("stage {} (32 rows a block, a row a lane)", node.describe()));
      return function;
    }
    if (preferRowKernel(row)) {
      if (preferWarpFold(row.rowCount(), numElements(shape) / row.rowCount(), target_.smCount))
        module_.addWarpRowKernel(index_, entry, row, cudaComputeType(dtype), store,
                                 fmt::format("stage {} (a warp per row)", node.describe()));
      else
        module_.addRowKernel(index_, entry, row, cudaComputeType(dtype), store,
                             fmt::format("stage {} (a block per row)", node.describe()));
      return function;
    }
  }
  const std::string element = fmt::format("    {{\n{}    }}\n", node.op().cudaElement(ctx));
  module_.addValueKernel(index_, entry, shape, elementsPerThread(numElements(shape)),
                         cudaComputeType(dtype), element, store,
                         fmt::format("stage {}", node.describe()), direct ? storeWalk(*direct, plan_) : Layout{});
  return function;
}

// Where the stage of kernel output `out` may store it instead of a scratch
// buffer, which saves the store kernel's pass over it: its access, when
// that is one piece of a buffer of out's dtype that no input of the kernel
// reads. The stage then writes the buffer before the kernel's later stages
// have read their inputs, where the store kernel ran after them all.
const TensorAccess* ValueCode::directOutput(const Value& out) const {
  const TensorAccess* access = findAccess(kernel_.outputs, &out);
  if (!access || access->mapping.pieces().size() != 1 ||
      access->mapping.pieces().front().source == MappingPiece::kFill || access->buffers.size() != 1 ||
      plan_.buffers[access->buffers.front()].dtype != out.type().dtype)
    return nullptr;
  for (const TensorAccess& in : kernel_.inputs)
    if (std::find(in.buffers.begin(), in.buffers.end(), access->buffers.front()) != in.buffers.end()) return nullptr;
  return access;
}

// Whether operand 0 of a row form lies in memory with its rows side by side
// and each row's elements apart: ConvNeXt's LayerNorms read NCHW activations
// across channels, through the transpose VTC made virtual. A block per row
// then loads one element per 32-byte sector; a lane per row reads a warp's
// 32 rows in one access, when there are rows enough to fill the GPU and a
// block's 32 rows fit its shared tile. It takes short rows too, whose element
// form would walk each row again for every element.
bool ValueCode::rowsSideBySide(const Node& node, const CudaRowForm& row) const {
  constexpr int64_t kManyRows = 4096;
  // Two blocks' tiles fit a multiprocessor's shared memory.
  constexpr int64_t kMaxTileBytes = 100 << 10;
  if (ModuleBuilder::rowTileBytes(row.rowCount(), cudaComputeBytes(node.input(0)->type().dtype)) > kMaxTileBytes)
    return false;
  const TensorAccess* access = inputAccess(node.input(0));
  const std::optional<StridedView> view = access ? stridedView(*access) : std::nullopt;
  if (!view || !row.rowWise || row.rowCount() == 0 || numElements(row.shape) / row.rowCount() < kManyRows)
    return false;
  int outer = -1; // the innermost dimension outside the row
  for (size_t d = 0; d < row.shape.size(); ++d)
    if (std::find(row.rowDims.begin(), row.rowDims.end(), d) == row.rowDims.end()) outer = static_cast<int>(d);
  return outer >= 0 && std::abs(view->strides[outer]) == 1 && std::abs(view->strides[row.rowDims.back()]) != 1;
}

void ValueCode::storeOutputs() {
  for (size_t i = 0; i < kernel_.outputs.size(); ++i) {
    const TensorAccess& out = kernel_.outputs[i];
    function(out.value);
    if (storedByStage_.count(out.value)) continue;
    const Shape& shape = out.value->type().shape;
    module_.addValueKernel(index_, fmt::format("{}store{}", prefix(), i), shape,
                           elementsPerThread(numElements(shape)),
                           cudaComputeType(out.value->type().dtype),
                           fmt::format("    out = {};\n", call(out.value, indexNames(shape.size()))),
                           accessStore(out, plan_, "out"), fmt::format("store {}", out.value->name()),
                           storeWalk(out, plan_));
  }
}

} // namespace tcx
