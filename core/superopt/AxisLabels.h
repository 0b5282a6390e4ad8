#pragma once
// Which program axes each tensor dimension indexes. The search partitions
// work along axes, not along arbitrary dimensions: a grid or for-loop
// dimension splits one axis, every operand indexed by that axis is sliced
// along the dimension carrying it (its imap or fmap entry), and every operand
// that does not depend on it is replicated (φ). Outputs are assembled along
// the dimension that carries the axis, or, when the block reduced it away,
// accumulated (for-loop) or laid out along the outermost free unit dimension for a later
// kernel to reduce (grid). This is how FlashDecoding, split-K and Mirage's
// GQA graphs partition their inputs, and it keeps the search from building
// partitions that pair unrelated slices, which can never be equivalent.
//
// Axes are found by unification over the reference program: Matmul unifies
// its operands' batch and reduction dimensions, broadcasts unify aligned
// dimensions, Reshape and Repeat relate merged and split dimensions. An axis
// ("atom") may later be found to be a product of finer axes (GQA's query
// heads are kv-heads × repeats), so atoms carry an optional decomposition.

#include "mugraph/MuGraph.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tcx::superopt {

class AxisUnifier {
public:
  int fresh(int64_t size);
  int64_t size(int atom) const;
  // `atoms` refined to undecomposed representatives, outermost first; atoms
  // of size 1 are dropped (they index nothing).
  std::vector<int> expand(const std::vector<int>& atoms) const;
  // Makes two dimensions index the same axes; false when their factors
  // cannot be aligned (the dimensions then stay unrelated), or when they
  // are different frozen axes (below).
  bool unify(const std::vector<int>& a, const std::vector<int>& b);
  // Fixes the axes found so far, the reference program's: from now on a
  // unify that would make two of them one (or factors split from two of
  // them) is refused and recorded. The reference keeps such axes apart, so
  // an operator that pairs them (multiplies X's hidden dim by W's output
  // dim because both are 4096, or reduces one against the other) computes
  // another function, whatever its abstract expression, which forgets
  // indices, says.
  void freeze();
  bool conflicted() const { return conflicted_; }
  // The outermost factors of `atoms` whose product is `outer`, and the rest;
  // splits an atom where the boundary falls inside it. nullopt when `outer`
  // does not divide along the factors.
  std::optional<std::pair<std::vector<int>, std::vector<int>>> split(const std::vector<int>& atoms, int64_t outer);

private:
  int find(int atom) const;
  void splitAtom(int atom, int64_t outer);

  mutable std::vector<int> parent_;
  std::vector<int64_t> size_;
  std::vector<std::vector<int>> parts_; // decomposition, outermost first
  std::vector<int> origin_;             // the frozen axis a root derives from; -1: none
  bool conflicted_ = false;
};

// One dimension: the axes it indexes and, inside a block or thread graph,
// which partition dimensions (bits 0-2: grid, 3-5: for-loop) split it.
struct DimLabel {
  std::vector<int> atoms;
  unsigned partitions = 0;
};
using TensorLabels = std::vector<DimLabel>;
inline constexpr unsigned kLoopBit = 3; // for-loop dimension i is bit kLoopBit + i

// Cuts `label` by a partition dimension (bit `bit`) of `parts` parts, as an
// input iterator slices the dimension: the chunk keeps the inner atoms and
// records the bit. Returns the outer atoms, which the partition index runs
// over; nullopt when `parts` does not divide along the label's factors.
std::optional<std::vector<int>> cutLabel(AxisUnifier& unifier, DimLabel& label, int64_t parts, unsigned bit);

// The labels of `op`'s first output from its operands' (nullopt when an
// operand is unknown or the rule does not apply). Input, Constant,
// InputIterator, OutputAccumulator and GraphDefined are the caller's.
std::optional<TensorLabels> propagateLabels(AxisUnifier& unifier, const mugraph::OperatorGraph& graph,
                                            const mugraph::Operator& op,
                                            const std::vector<const TensorLabels*>& operands);

// Labels of every kernel-level tensor of a program or prefix. Program inputs
// share axes across programs by name, so the analysis of the reference
// labels the inputs of every prefix the search builds.
class AxisAnalysis {
public:
  explicit AxisAnalysis(const mugraph::KernelGraph& reference);

  struct Labelled {
    AxisUnifier unifier;
    // [op][output]; nullopt where a rule cannot be followed. A graph-defined
    // operator's outputs are followed through its block graph.
    std::vector<std::vector<std::optional<TensorLabels>>> tensors;
    const std::optional<TensorLabels>& of(mugraph::TensorRef t) const {
      return tensors[static_cast<size_t>(t.op)][static_cast<size_t>(t.output)];
    }
  };
  // Its unifier is conflicted() when the program pairs axes the reference
  // keeps apart (AxisUnifier::freeze).
  Labelled label(const mugraph::KernelGraph& program) const;
  // Whether tensor `t` of a labelled program indexes the reference output's
  // axes, dimension by dimension (true where its axes are unknown); unifies
  // them in `labelled`. A
  // program computing the reference's expression into the output's shape
  // can still lay another axis along a dimension (X's hidden dim where W's
  // output dim belongs, both 4096): it computes another function.
  bool indexesOutputAxes(Labelled& labelled, mugraph::TensorRef t) const;

private:
  Labelled run(AxisUnifier unifier, const mugraph::KernelGraph& program) const;

  AxisUnifier unifier_;
  std::vector<std::pair<std::string, TensorLabels>> inputs_;
  std::optional<TensorLabels> output_; // the reference's first output's
};

} // namespace tcx::superopt
