#pragma once
// The op registry's entry: everything tcx knows about one ONNX op. This is
// the single source of truth for op semantics: the importer checks operands
// and attributes against it, shape inference and constant folding call its
// infer function, the reference executor calls its CPU kernel, and the
// virtual-tensor rules, fusion, the cost model, code generation and the
// conversion to μGraphs key on its class and the fields below. No layer
// above recognises an op by its name.

#include "ir/Attribute.h"
#include "ir/Tensor.h"
#include "ops/CudaLowering.h"
#include "ops/MuGraphLowering.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tcx {

class Node;

// What an op does to data; drives fusion, VTC and the latency breakdown.
enum class OpClass {
  DataMovement,  // moves elements without arithmetic (VTC Definition 2)
  Elementwise,   // unary, binary, comparison and select ops, casts
  Reduction,     // reduces axes: ReduceSum, Softmax, ArgMax, ...
  Normalization, // LayerNormalization, BatchNormalization
  Contraction,   // MatMul, Gemm, Conv
  Pooling,       // MaxPool, AveragePool, GlobalAveragePool
  Metadata,      // Shape, Size, Constant, ConstantOfShape, Range: folded away at import
};
const char* opClassName(OpClass c);

// The ops that operator fusion's patterns, code generation's library
// kernels and the canonicalize passes match one by one (core/fusion,
// core/codegen, core/passes); every other op takes part through its OpClass
// alone.
enum class FusionRole {
  None,
  MatrixProduct,         // NumPy-batched (MatMul): attention's Q K^T and P V; the library GEMM
  GeneralMatrixProduct,  // with transposes, scale and bias (Gemm): a GEMM kernel
  Convolution,           // Conv: a convolution kernel, implicit GEMM on the GPU
  TransposedConvolution, // ConvTranspose: a convolution kernel
  Softmax,               // attention's normalisation; the attention library kernel's
  LogSoftmax,            // a softmax to fusion's attention pattern, not to the library kernel
  SumReduction,          // ReduceSum: the denominator of a softmax written out (Exp, ReduceSum, Div)
  MaxReduction,          // ReduceMax: the maximum a softmax written out subtracts first
  TypeConversion,        // Cast: all that attention's library kernel allows between softmax and P V
  NanTest,               // IsNaN: with a Select after attention's softmax, PyTorch's safe softmax
  Select,                // Where: safe softmax's "rows of NaN (all scores -inf) become 0"
  Reshape,               // Reshape: the same elements in row-major order, which element-wise ops commute with
  Product,               // Mul: a one-element scale that moves from a matrix product's operand to its result
  Quotient,              // Div: the same, dividing
};

// Where random values of a graph input lie: uniform in [lo, hi).
struct RandomRange {
  double lo = -1, hi = 1;
};

// Per channel, y = x * scale + shift: `scale` and `shift` hold one element
// a channel, in x's dtype.
struct ChannelAffine {
  Tensor scale, shift;
};

struct AttrSpec {
  std::string name;
  AttrKind kind;
  bool required = false;
};

class InferContext;
class KernelContext;
struct MovementSemantics;
struct MovementContext;

struct OpDef {
  std::string name;
  OpClass opClass;
  int minInputs = 1;
  int maxInputs = 1;  // kVariadic: any number >= minInputs
  int minOutputs = 1;
  int maxOutputs = 1; // kVariadic: as many as the node declares
  std::vector<AttrSpec> attributes;
  // Sets every output's type from the input types, attributes and, where
  // known, input values; raises ShapeInference or DataDependentShape.
  std::function<void(InferContext&)> infer;
  // The CPU reference kernel: outputs are allocated by the caller with the
  // types infer() gave for these exact input values.
  std::function<void(KernelContext&)> kernel;
  // Data-movement ops only: the op as mapping functions; nullopt when an
  // index operand is not a constant. Drives the VTC rules.
  std::function<std::optional<MovementSemantics>(const MovementContext&)> movement;
  // The op on the GPU (ops/CudaLowering.h): element-wise ops set cudaExpr,
  // the scatters cudaScatter, others cudaElement; an op with none has no GPU
  // lowering yet.
  CudaExprFn cudaExpr;
  CudaElementFn cudaElement;
  // cudaElement reads each operand once, at an index of the output's (no
  // loop over other elements; BatchNormalization's per-channel statistics):
  // code generation makes it a value's function, computed in its consumers'
  // loops, instead of a stage that writes a scratch buffer.
  bool cudaElementPointwise = false;
  // A per-channel affine map (BatchNormalization): its coefficients as
  // expressions at a channel, for code that computes them once a channel
  // (ops/CudaLowering.h); fusion lets such an op into a pointwise
  // convolution's prologue (fusion/FusionPass.h rule 4).
  CudaChannelAffineFn cudaChannelAffine;
  CudaScatterForm cudaScatter;
  // Reductions that fold associatively also have a block form, which code
  // generation picks over cudaElement by the shape (codegen/ValueCode.cpp).
  CudaBlockFoldFn cudaBlockFold;
  // Row-wise ops also have a row form, run as a warp or a block per row; their
  // cudaElement is its element form (ops/CudaLowering.h CudaRowForm).
  CudaRowFormFn cudaRow;
  // The output equals this operand except at the elements the op writes
  // (ScatterND, ScatterElements): plan lowering may store the output in
  // the operand's buffer, an in-place update, when nothing else reads the
  // operand (plan/PlanLowering.cpp).
  std::optional<size_t> inPlaceOperand;
  // What fusion patterns and library kernels match the op as.
  FusionRole fusionRole = FusionRole::None;
  // The node's floating-point operations (ops/Flops.h), for the cost
  // model's roofline (core/cost): set for every op that computes.
  // Contractions run on tensor cores, the others on CUDA cores.
  std::function<double(const Node&)> flops;
  // How exec/RandomInputs draws a graph input that the op reads as operand
  // `operand` (directly or through data-movement ops), so that a model run
  // on random weights computes like an initialised one instead of growing
  // by a factor per layer into inf and NaN: a contraction's weight uniform in
  // +-1/sqrt(fan-in) (PyTorch's default initialisation), a variance
  // positive. nullopt, or unset: uniform in [-1, 1).
  std::function<std::optional<RandomRange>(const Node&, size_t operand)> randomRange;
  // The op at inference as y = x * scale + shift with one scale and shift a
  // channel (dimension 1 of operand 0), both computed from its other,
  // constant operands (BatchNormalization with given statistics); nullopt
  // where one is not a constant. passes/BatchNormToAffine rewrites the op as
  // that Mul and Add, which fuse as the element-wise ops they are and cost a
  // multiply-add an element where the op's form takes a square root and a
  // division.
  std::function<std::optional<ChannelAffine>(const Node&)> inferenceAffine;
  // The op in a μGraph (ops/MuGraphLowering.h): LAX or not, and the μGraph
  // operators that compute it (core/mugraph).
  MuGraphForm muGraph;
  // Constant folding (passes/InferAndFold). An op whose result depends on
  // its operand's type alone (Shape, Size) computes it from the node, so it
  // folds while the operand's value is unknown.
  std::function<Tensor(const Node&)> resultFromTypes;
  // The result is in the graph already (Constant): folding costs no memory,
  // so it folds whatever its size.
  bool foldsAtAnySize = false;

  static constexpr int kVariadic = -1;
  bool isDataMovement() const { return opClass == OpClass::DataMovement; }
  const AttrSpec* findAttr(const std::string& attr) const;
};

// Shape inference's view of one node: input types, the input values that are
// known (constants at import; every input at run time), attributes.
class InferContext {
public:
  InferContext(const Node& node, std::span<const TensorType* const> inputTypes,
               std::span<const Tensor* const> inputValues, std::vector<TensorType>& outputTypes)
      : node_(node), inputTypes_(inputTypes), inputValues_(inputValues), outputTypes_(outputTypes) {}

  const Node& node() const { return node_; }
  const AttrMap& attrs() const;
  size_t numInputs() const { return inputTypes_.size(); }
  size_t numOutputs() const { return outputTypes_.size(); }
  bool hasInput(size_t i) const { return i < inputTypes_.size() && inputTypes_[i] != nullptr; }
  const TensorType& inputType(size_t i) const;
  // The value of input i if known, else nullptr.
  const Tensor* inputValue(size_t i) const { return i < inputValues_.size() ? inputValues_[i] : nullptr; }
  // The value of input i; raises DataDependentShape naming `what` if unknown.
  const Tensor& requireInputValue(size_t i, const char* what) const;
  void setOutputType(size_t i, TensorType type);

private:
  const Node& node_;
  std::span<const TensorType* const> inputTypes_;
  std::span<const Tensor* const> inputValues_;
  std::vector<TensorType>& outputTypes_;
};

class KernelContext {
public:
  KernelContext(const Node& node, std::span<const Tensor* const> inputs, std::span<Tensor> outputs)
      : node_(node), inputs_(inputs), outputs_(outputs) {}

  const Node& node() const { return node_; }
  const AttrMap& attrs() const;
  size_t numInputs() const { return inputs_.size(); }
  size_t numOutputs() const { return outputs_.size(); }
  bool hasInput(size_t i) const { return i < inputs_.size() && inputs_[i] != nullptr; }
  const Tensor& input(size_t i) const;
  Tensor& output(size_t i) { return outputs_[i]; }

private:
  const Node& node_;
  std::span<const Tensor* const> inputs_;
  std::span<Tensor> outputs_;
};

} // namespace tcx
