#pragma once
// The operators of a μGraph (Mirage Table 1 plus Sqrt, Square, SiLU, RMSNorm,
// Constant and LoRA's concat-then-matmul) and the tensors they produce.
//
// Everything here is a small value type: a search (issue 7) copies a graph
// prefix and appends one operator, so operators hold their attributes inline
// and share nested graphs through shared_ptr<const ...>, never mutate them.

#include "ir/DType.h"
#include "ir/Shape.h"

#include <compare>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tcx::mugraph {

// The three levels of the GPU hierarchy a graph can describe (Mirage §2).
enum class Level : uint8_t { Kernel, Block, Thread };
std::string_view levelName(Level level);

// Declaration order is the `t` of the canonical rank (I, t): it must stay
// stable, since hashes and search orders depend on it.
enum class OpType : uint8_t {
  Input,             // kernel: a program input
  Constant,          // a scalar broadcast to shape [1] (RMSNorm's epsilon, a mean's 1/n)
  InputIterator,     // block/thread: loads its slice of a parent input (imap, fmap)
  OutputAccumulator, // block/thread: concatenates or accumulates into a parent output (omap, fmap)
  Matmul,            // batched over leading dims: [..., m, k] x [..., k, n]
  ConcatMatmul,      // (W || X) x (Y || Z) = W Y + X Z: LoRA's fused form
  Sum,               // sums every `group` consecutive elements along `dim`
  EwAdd,
  EwMul,
  EwDiv,
  EwExp,
  Sqrt,
  Square,
  SiLU,         // x / (1 + exp(-x))
  RMSNorm,      // x / sqrt(mean(x^2 over the last dim) + epsilon)
  Repeat,       // tiles each dim `factors[d]` times
  Reshape,      // row-major reinterpretation as `shape`
  GraphDefined, // defined by a block graph (at kernel level) or a thread graph (at block level)
  // Block level: the sum of the operand over every for-loop iteration,
  // available after the loop (Mirage's forloop_accum). Operators that read it
  // run once, after the loop, and an output accumulator then stores it once.
  ForLoopSum,
  // Block level: sqrt(mean(x^2 over the last dim and every iteration) + epsilon),
  // one value per row, after the loop (Mirage's RMS accumulation: RMSNorm's
  // denominator, so the division can follow a matmul accumulated in the same loop).
  ForLoopRms,
};
// The last OpType: a loop over every operator runs up to it.
inline constexpr OpType kLastOpType = OpType::ForLoopRms;

// The arithmetic an operator performs, for cost models to price
// (superopt/MuGraphCost.cpp): `arithmetic` adds, multiplies and divides and
// `transcendental` exps and square roots, per element of what `per` names.
struct ElementWork {
  enum class Per : uint8_t {
    Nothing,         // moves or names data, computes nothing
    Output,          // each output element
    Operand,         // each element of the first operand, read once (a reduction)
    ContractionStep, // each output element times its reduction length k: a matmul's multiply-adds
    LoopAccumulated, // each operand element when the fmap accumulates over a for-loop dim (φ); else nothing
    Body,            // what the operator's body computes (GraphDefined)
  };
  Per per = Per::Nothing;
  double arithmetic = 0;
  double transcendental = 0;
};

// What holds for every operator of a type: one row per OpType in
// Operator.cpp, the one place an operator is described. Facts that depend on
// an instance's attributes or shapes are switches over OpType without a
// `default:`, so the compiler names each one a new operator must fill in.
struct OpInfo {
  OpType type;
  std::string_view name; // JSON, DOT, the views, diagnostics
  uint8_t levels;        // bit 1 << Level for each level Mirage Table 1 (extended) allows it at: ShapeInference
  unsigned arity;        // operands, checked by ShapeInference; 0 for GraphDefined: its body decides
  // Computes each output element from the operands' elements at the same
  // (broadcast) index: thread-graph construction and the search's phases.
  bool elementwise;
  bool lax;          // may appear in a LAX program (Mirage Definition 2; Lax.h)
  int exponentials;  // exponentiations it puts on a path through it (Lax.h)
  ElementWork work;  // superopt/MuGraphCost.cpp
};
const OpInfo& opInfo(OpType type);

// Shorthands for columns of opInfo(type).
std::string_view opTypeName(OpType type);
OpType parseOpType(std::string_view name); // the inverse; raises InvalidModel for an unknown name
bool allowedAt(OpType type, Level level);
unsigned numOperands(OpType type);
bool isElementwise(OpType type);

// How a tensor is linearised in memory: dimension indices from outermost to
// innermost; empty is row-major. Layout never changes values (Mirage §2), so
// the interpreter ignores it; it is kept for the optimizer and the DOT view.
struct Layout {
  std::vector<int> order;
  bool isRowMajor() const { return order.empty(); }
  bool operator==(const Layout&) const = default;
};

struct TensorDesc {
  Shape shape;
  DType dtype = DType::F16;
  Layout layout;
  bool operator==(const TensorDesc&) const = default;
};

// The j-th output of the i-th operator of the same graph: Mirage's (i, j).
struct TensorRef {
  int op = -1;
  int output = 0;
  auto operator<=>(const TensorRef&) const = default;
};

// A grid or for-loop dimension's image: a data dimension of the tensor, or the
// replica dimension φ (the tensor is replicated, or for an output accumulator's
// fmap, accumulated).
inline constexpr int kReplica = -1;
using DimMap = std::vector<int>; // one entry per grid (or for-loop) dimension

class PartitionedGraph;

struct Operator {
  OpType type = OpType::Input;
  std::vector<TensorRef> inputs;
  std::vector<TensorDesc> outputs; // inferred when the operator is added

  // Attributes; each type reads only those its comment names.
  std::string name;                             // Input: the program input's name
  DType dtype = DType::F16;                     // Input
  int inputIndex = 0;                           // InputIterator: which parent input it reads
  int dim = 0;                                  // Sum
  int64_t group = 1;                            // Sum
  Shape shape;                                  // Input: its shape; Reshape: the target; Repeat: the factors
  DimMap imap, omap;                            // InputIterator / OutputAccumulator, over the grid dims
  DimMap fmap;                                  // InputIterator / OutputAccumulator, over the for-loop dims
  double value = 0;                             // Constant; RMSNorm, ForLoopRms: epsilon
  std::shared_ptr<const PartitionedGraph> body; // GraphDefined

  bool operator==(const Operator& other) const;
};

} // namespace tcx::mugraph
