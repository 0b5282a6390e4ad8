#pragma once
// The μGraph interpreter: executes a kernel graph with exactly the
// block/for-loop/thread semantics of Mirage §2, over any element domain.
//
// One traversal serves every domain: FloatDomain (the numerical reference),
// FieldDomain (Z_p x Z_q fingerprints for the verifier) and ExpTermDomain
// (counting exponential terms for the verifier's bound). A domain supplies
// `Value` and zero, add, sub, mul, div, exp, sqrt and constant(double); the
// interpreter never does arithmetic itself.
//
// Semantics, per graph-defined operator with body B:
//   for every grid index g (row-major over B's grid dims):
//     every output accumulator starts a zero block buffer;
//     for every for-loop index l (row-major over B's for-loop dims):
//       an input iterator yields the chunk of its parent input selected by
//         imap at g, then by fmap at l (φ: the whole extent, replicated);
//       other operators compute on these chunks;
//       an output accumulator adds its value into the block buffer at the
//         chunk fmap selects at l: concatenation along data dims, and
//         accumulation over φ dims;
//     each block buffer is written at the chunk omap selects at g.
// Operators run by loop phase (LoopPhase.h): Invariant ones once before the
// loop, Body ones in every iteration, After ones once after it; ForLoopSum
// and ForLoopRms accumulate in the Body and are read After.
// A thread graph inside a block graph runs the same way with its block dims
// as the grid. Layouts are ignored: they never change values.

#include "mugraph/DenseTensor.h"
#include "mugraph/MuGraph.h"

#include <random>

namespace tcx::mugraph {

template <typename Domain> class Interpreter {
public:
  using Value = typename Domain::Value;
  using Tensor = DenseTensor<Value>;

  explicit Interpreter(const Domain& domain) : domain_(domain) {}

  // `inputs` in the order of graph.inputOps(); returns graph.outputs()'s
  // values. Raises InvalidArgument if an input's shape is wrong.
  std::vector<Tensor> run(const KernelGraph& graph, const std::vector<Tensor>& inputs) const;

private:
  // Each operator's outputs: computed ones are owned; program inputs, and
  // iterator chunks that are a whole parent input, are borrowed, not copied.
  struct Frame {
    std::vector<std::vector<Tensor>> owned;
    std::vector<const Tensor*> borrowed;
    explicit Frame(size_t ops) : owned(ops), borrowed(ops, nullptr) {}
    const Tensor& at(TensorRef t) const { return borrowed[t.op] ? *borrowed[t.op] : owned[t.op][t.output]; }
    std::vector<const Tensor*> operands(const Operator& op) const {
      std::vector<const Tensor*> args;
      for (TensorRef t : op.inputs) args.push_back(&at(t));
      return args;
    }
  };

  std::vector<Tensor> apply(const Operator& op, const std::vector<const Tensor*>& args) const;
  std::vector<Tensor> runPartitioned(const PartitionedGraph& body, const std::vector<const Tensor*>& inputs) const;
  Tensor rmsNorm(const Tensor& x, double epsilon) const;
  // ForLoopRms: adds each row's sum of squares of `x` into `sums`, then
  // turns the sums over `count` elements into sqrt(mean + epsilon).
  void addSquaredRows(Tensor& sums, const Tensor& x) const;
  void finishRms(Tensor& sums, int64_t count, double epsilon) const;

  const Domain& domain_;
};

// Random inputs for `graph`, one tensor per Input operator, in order.
template <typename Domain>
std::vector<DenseTensor<typename Domain::Value>> randomInputs(const Domain& domain, const KernelGraph& graph,
                                                              std::mt19937_64& rng) {
  std::vector<DenseTensor<typename Domain::Value>> inputs;
  for (int i : graph.inputOps()) {
    DenseTensor<typename Domain::Value> t(graph.op(i).shape, domain.zero());
    for (auto& v : t.data) v = domain.random(rng);
    inputs.push_back(std::move(t));
  }
  return inputs;
}

} // namespace tcx::mugraph
