#pragma once
// The values of one fused kernel as device functions of their index: the
// generic lowering every compute kernel can fall back on.
//
// A value is a function v(x0, ..., xn): a kernel input reads through its
// TensorAccess, a constant reads a __device__ array, and an element-wise
// node's output is an expression of its operands' functions at the
// broadcast index, so chains of element-wise ops fuse into one loop with
// their intermediates in registers; so is a node whose element form is
// pointwise (OpDef::cudaElementPointwise). Any other node (a reduction, a
// contraction, a window) is a stage: a kernel that computes each element
// with the op's CUDA form and stores it in a scratch buffer, which its
// function then reads; a matrix product whose operands are in memory as
// strided views (kernel inputs, or earlier stages) is staged by the library
// GEMM instead. Intermediates are rounded to their dtype exactly where the
// CPU reference rounds them.

#include "codegen/ModuleBuilder.h"
#include "ops/CudaLowering.h"
#include "plan/ExecPlan.h"
#include "plan/StridedView.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace tcx {

struct CodegenTarget;

class ValueCode {
public:
  ValueCode(const ExecPlan& plan, const PlanKernel& kernel, int planKernelIndex, ModuleBuilder& module,
            const CodegenTarget& target);

  // The name of v's device function, emitting it (and what it needs) first.
  const std::string& function(const Value* v);
  // "f(b, x0, x1)": v's value at `index`.
  std::string call(const Value* v, const std::vector<std::string>& index);
  // The expression of node's element-wise result at x0, x1, ..., given its
  // operands at the broadcast index (for library kernels' epilogues).
  std::string elementwiseExpr(const Node& node, const std::vector<std::string>& index);
  // Emits one kernel per output of the plan kernel that stores it.
  void storeOutputs();
  // Makes `call(v, ...)` yield the local variable `name`: inside a library
  // kernel's epilogue, where v's element at the current index is in hand.
  void bindLocal(const Value* v, std::string name) { locals_[v] = std::move(name); }
  void unbindLocal(const Value* v) { locals_.erase(v); }
  // v as a library kernel operand: a kernel input whose access is a strided
  // view, or a value the kernel computes in a stage (emitted first, if it
  // was not yet), in its row-major scratch buffer; nullopt for a value
  // computed on the fly (an element-wise chain) or a constant.
  std::optional<StridedView> memoryView(const Value* v);
  // v in memory for a library kernel: memoryView, or else v computed into a
  // row-major scratch buffer by a stage of its own (a convolution's
  // element-wise prologue that its kernel cannot apply as it loads).
  std::optional<StridedView> stagedView(const Value* v);
  // Appends a kernel computing v into `buffer`, row-major (rowMajorView),
  // and returns its launch for the caller to record or run otherwise.
  GeneratedLaunch stagingKernel(const Value* v, int buffer);
  // v's access as an input of the kernel (its buffer and mapping function),
  // or null when the kernel computes v.
  const TensorAccess* inputAccess(const Value* v) const;

  const ExecPlan& plan() const { return plan_; }
  const PlanKernel& kernel() const { return kernel_; }
  ModuleBuilder& module() { return module_; }
  int planKernelIndex() const { return index_; }
  const CodegenTarget& target() const { return target_; }
  // The elements a thread of an element-wise kernel over `count` takes on
  // this target (codegen/KernelText.h).
  unsigned elementsPerThread(int64_t count) const;
  std::string prefix() const;

private:
  const std::string& define(const Value* v, std::string name, const std::string& code);
  std::string constantFunction(const Value* v, const std::string& name);
  CudaElementContext elementContext(const Node& node, const Value& out, const std::vector<std::string>& index);
  std::string pointwiseFunction(const Node& node, const Value& out, const std::string& name);
  std::string stage(const Node& node, const Value& out, const std::string& name);
  const TensorAccess* directOutput(const Value& out) const;
  bool rowsSideBySide(const Node& node, const CudaRowForm& row) const;

  const ExecPlan& plan_;
  const PlanKernel& kernel_;
  int index_;
  ModuleBuilder& module_;
  const CodegenTarget& target_;
  std::unordered_map<const Value*, std::string> functions_;
  std::unordered_map<const Value*, int> stagedScratch_; // staged value -> its scratch buffer
  std::unordered_map<const Value*, std::string> locals_;
  std::unordered_set<const Value*> storedByStage_; // kernel outputs their stage stored (directOutput)
  int names_ = 0;
  int stages_ = 0;
};

// The index of `operand` (of shape `operandShape`) that NumPy broadcasting
// reads for the output index `index`.
std::vector<std::string> broadcastIndex(const Shape& operandShape, const Shape& outputShape,
                                        const std::vector<std::string>& index);

} // namespace tcx
