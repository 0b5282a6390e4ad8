#pragma once
// An op's CUDA form, part of its registry entry: what code generation
// (core/codegen) emits to compute one element of the op's output. The
// device functions it names live in kernels/include/tcx/scalar.cuh.
//
// Element-wise ops are expressions over their operands' values; code
// generation inlines them into one another and into the epilogues of
// library kernels. Most other ops compute one output element with a
// statement block (a loop over reduced axes, a dot product, a window),
// which code generation runs as a stage of its own. The scatters instead
// run one thread per update: computing an output element would mean
// searching every update for the ones that land on it.

#include "ir/Shape.h"

#include <functional>
#include <string>
#include <vector>

namespace tcx {

class Node;
struct MappingPiece;
struct OpDef;

// The value of operand i at the given index (one C expression per
// dimension), in the operand's compute type. Reads go through the operand's
// mapping function, so operands may be virtual tensors.
using CudaOperandFn = std::function<std::string(size_t operand, const std::vector<std::string>& index)>;

struct CudaExprContext {
  const Node& node;
  std::vector<std::string> operands; // each operand's value, in its compute type; "" for an absent optional one
  std::string resultType;            // the output's compute type: "float", "double", "long long", "bool", ...
};

struct CudaElementContext {
  const Node& node;
  size_t output = 0;                 // which of the node's outputs the statements compute
  std::vector<std::string> outIndex; // names of the output's index variables (of the module's `Index` type), outermost first
  CudaOperandFn operandAt;
  std::string resultType; // the output's compute type
  // The statements must assign the output element to a variable named `out`
  // (declared by the caller, of resultType); names they declare start with
  // an underscore.
};

using CudaExprFn = std::function<std::string(const CudaExprContext&)>;
using CudaElementFn = std::function<std::string(const CudaElementContext&)>;

// An op that maps each element of operand 0 by its channel (dimension 1) as
// y = x * scale + shift, scale and shift computed from its other operands
// at the channel (BatchNormalization at inference): their expressions, the
// channel being ctx.outIndex[1], shift's written with scale as the variable
// `scaleName`. Code generation computes them once a channel where elements
// of one channel come together (a pointwise convolution's prologue,
// codegen/PrologueCode.h) instead of a square root and a division an element.
struct CudaChannelAffine {
  std::string scale, shift;
};
using CudaChannelAffineFn = std::function<CudaChannelAffine(const CudaElementContext&, const std::string& scaleName)>;

// How an update combines with the output element it lands on: stored over
// it, or (a scatter's reduction) combined with it atomically, since several
// updates may land on one element.
enum class ScatterCombine { Store, Add, Mul, Max, Min };

struct CudaScatterContext {
  const Node& node;
  std::vector<std::string> updateIndex; // names of the update's index variables (`Index`), outermost first
  CudaOperandFn operandAt;
  std::string resultType; // the output's compute type
  // The statements must declare the update's destination, the output index
  // `_d0`, `_d1`, ... (of type `Index`, one per output dimension), and assign
  // its value to `out` (declared by the caller, of resultType); names they
  // declare start with an underscore.
};

// An op whose output is one operand (OpDef::inPlaceOperand) with some
// elements overwritten or combined: code generation copies that operand
// into the output unless the two share a buffer, then runs `update` once
// for every index of `updateShape`.
struct CudaScatterForm {
  std::function<Shape(const Node&)> updateShape;
  std::function<ScatterCombine(const Node&)> combine;
  std::function<std::string(const CudaScatterContext&)> update;

  explicit operator bool() const { return static_cast<bool>(update); }
};

// A reduction whose elements fold with an associative operation, as one
// block per output element: the block's threads stride over the folded
// elements, each folds its share, and a tree in shared memory folds the
// threads' accumulators. Where the folded axes are the innermost (a mean
// over H×W, a sum over a row) the threads read consecutive elements, and a
// few outputs of many elements each still fill the GPU, where one thread
// per output element would walk each line alone.
//
// The statements use the names of CudaReducer (reduction/Cuda.cpp): `_T` the
// compute type and `_A` the accumulator's, declared by `types`; an element
// `_v` (of _T) maps to `_m` (of _A), which `fold` (of `_acc` and `_m`)
// folds in; `finish` (of `_acc` and `_count`) gives the output element, of _T.
struct CudaBlockFold {
  std::string types; // typedef statements for _T and _A
  std::string init, map, fold, finish;
  // The folded axes' index variables and extents, outermost first; `value`
  // is the input element at the output index with these variables on the
  // folded axes.
  std::vector<std::pair<std::string, int64_t>> folded;
  std::string value;
  int64_t count = 1; // the elements folded into each output element
  bool innermostFolded = false; // the input's last axis is among the folded ones
};
using CudaBlockFoldFn = std::function<CudaBlockFold(const CudaElementContext&)>;

// A row-wise op (Softmax, LogSoftmax, LayerNormalization,
// InstanceNormalization) as statistics of a row, one after another, then
// every element of the row from them. Code generation runs it as a block per
// row (ModuleBuilder::addRowKernel): the block folds each statistic as
// CudaBlockFold does (threads on consecutive elements, a tree in shared
// memory), then writes the row; or, where rows lie side by side in memory
// and a row's elements apart, as a block per 32 rows, a row a lane
// (ModuleBuilder::addInterleavedRowKernel). Its element form (cudaRowElement), which is
// the op's cudaElement, has each element's thread fold the statistics alone,
// walking the whole row again for every element.
//
// A statistic uses CudaBlockFold's names: the row element `_v` (of _T) maps
// to `_m`, folded into `_acc` (of `type`); `finish` (of `_acc` and `_count`,
// the row's elements) gives the statistic, of `type`, in the variable
// `name`, which later statistics and the element read.
struct CudaRowStatistic {
  std::string type, name;
  std::string init, map, fold, finish;
};
struct CudaRowForm {
  std::string types; // typedef statement for _T, the row elements' compute type
  // The row: these dimensions of the output index, which equals operand 0's
  // index (the statements of output 0 see the same shape in and out).
  std::vector<size_t> rowDims;
  Shape shape; // operand 0's
  // Operand 0 at an index: the output index (in the block form), or that
  // index with the row's dimensions replaced by loop variables.
  std::function<std::string(const std::vector<std::string>&)> valueAt;
  std::vector<CudaRowStatistic> statistics;
  std::string element; // statements assigning `out`, this output element
  // Whether the block form applies: output 0, whose shape is operand 0's.
  bool rowWise = true;

  int64_t rowCount() const {
    int64_t count = 1;
    for (size_t d : rowDims) count *= shape[d];
    return count;
  }
};
using CudaRowFormFn = std::function<CudaRowForm(const CudaElementContext&)>;

// The element form of a row form: each statistic folded in a loop over the
// row, in row-major order, then the element.
std::string cudaRowElement(const CudaRowForm& form, const std::vector<std::string>& outIndex);
// Gives `op` the row form and, as its cudaElement, the row form's element form.
void setCudaRowForm(OpDef& op, CudaRowFormFn row);

// "tcx::op::<function>(operands...)": the common form.
CudaExprFn cudaCall(std::string function);

// "tcx::inRange(e, lo, hi) && ...": where `piece` of a mapping function
// holds, its constraints spelled over the index variables `index`; "" when it
// holds everywhere. Mapping-function loads and stores (codegen/AccessCode)
// and the movement ops' element form test pieces with it.
std::string cudaPieceCondition(const MappingPiece& piece, const std::vector<std::string>& index,
                               const std::vector<int64_t>& extents);

// `value` as an expression of the compute type `type`, exactly: built from
// the double's bits, so that infinities and NaN need no spelling.
std::string cudaExactValue(double value, const std::string& type);

} // namespace tcx
