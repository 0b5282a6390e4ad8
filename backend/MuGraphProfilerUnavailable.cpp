// μGraph profiling in a build without the CUDA toolkit: each entry says why
// it cannot run, and the superoptimizer ranks by the cost model.
#include "MuGraphProfiler.h"

#include "support/Error.h"

namespace tcx::backend {

namespace {

[[noreturn]] void noToolkit() {
  raise(ErrorKind::Unsupported, "this build has no CUDA toolkit: μGraphs are ranked by the cost model");
}

} // namespace

MuGraphMeasurement measureMuGraph(const mugraph::KernelGraph&, const MuGraphMeasureOptions&) { noToolkit(); }
MuGraphCheck checkMuGraph(const mugraph::KernelGraph&, const MuGraphMeasureOptions&) { noToolkit(); }

} // namespace tcx::backend
