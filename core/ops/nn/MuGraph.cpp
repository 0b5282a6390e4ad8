// The μGraph form of this family's ops: MatMul is Mirage's Matmul operator.
// An op missing here has no μGraph form.

#include "ir/Graph.h"
#include "ops/OpRegistry.h"
#include "ops/nn/Ops.h"

namespace tcx::nn {

namespace {

using Handle = MuGraphBuilder::Handle;

// Matmul batches over equal leading dimensions; the one broadcast it
// takes is [..., m, k] x [k, n], whose batches fold into the rows.
Handle lowerMatMul(const Node& n, MuGraphBuilder& b) {
  const Shape &xs = n.input(0)->type().shape, &ys = n.input(1)->type().shape;
  Handle x = b.value(n.input(0)), y = b.value(n.input(1));
  if (xs.size() == ys.size()) return b.matmul(x, y);
  TCX_CHECK(ys.size() == 2 && xs.size() > 2, ErrorKind::Unsupported, "MatMul with batch broadcasting");
  Handle rows = b.reshape(x, {numElements(xs) / xs.back(), xs.back()});
  return b.reshape(b.matmul(rows, y), n.output(0)->type().shape);
}

} // namespace

void registerMuGraphForms(OpRegistry& registry) {
  registry.edit("MatMul").muGraph = {.lower = lowerMatMul, .dataOperands = 2};
}

} // namespace tcx::nn
