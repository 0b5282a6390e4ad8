#include "passes/GraphPasses.h"

#include "ops/Verifier.h"
#include "passes/BatchNormToAffine.h"
#include "passes/DeadCodeElimination.h"
#include "passes/ElementwiseOutOfReshapes.h"
#include "passes/ScalesOutOfMatMuls.h"

namespace tcx {

PassPipeline<Graph> graphCleanupPipeline(const FoldOptions& options) {
  PassPipeline<Graph> pipeline("canonicalize", [](const Graph& g) { verifyGraph(g); });
  pipeline.add("infer-and-fold", [options](Graph& g) { inferAndFold(g, options); });
  // Needs the types the walk above inferred, and leaves its new nodes to the
  // walk below.
  pipeline.add("elementwise-out-of-reshapes", [options](Graph& g) {
    if (moveElementwiseOutOfReshapes(g)) inferAndFold(g, options);
  });
  pipeline.add("scales-out-of-matmuls", [options](Graph& g) {
    if (moveScalesOutOfMatMuls(g)) inferAndFold(g, options);
  });
  pipeline.add("batch-norm-to-affine", [options](Graph& g) {
    if (batchNormsToAffine(g)) inferAndFold(g, options);
  });
  pipeline.add("dead-code-elimination", [](Graph& g) { eliminateDeadCode(g); });
  return pipeline;
}

} // namespace tcx
