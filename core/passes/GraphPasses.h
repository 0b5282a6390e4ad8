#pragma once
// The pipeline that brings an imported Graph to canonical form: every type
// inferred, shape computations folded, dead nodes gone. The verifier after
// each pass is verifyGraph (ops/Verifier.h).

#include "ir/Graph.h"
#include "passes/InferAndFold.h"
#include "passes/PassPipeline.h"

namespace tcx {

// "canonicalize": infer-and-fold, elementwise-out-of-reshapes,
// scales-out-of-matmuls and batch-norm-to-affine (each followed by
// infer-and-fold where it rewrote), dead-code-elimination.
PassPipeline<Graph> graphCleanupPipeline(const FoldOptions& options = {});

} // namespace tcx
