#pragma once
// A plan whose data-movement ops run through their CUDA forms: VTC turns
// every op it has a mapping function for into region copies (or nothing),
// so no plan it lowers runs the forms of Transpose, Concat, Slice and the
// like. This one does, for the tests that compile and run those forms.

#include "plan/ExecPlan.h"

namespace tcx::test {

// `plan` with each region-copy kernel run as its op instead (RunNodes),
// reading its inputs from their buffers. `plan` must store every input of
// those kernels in a buffer of its own, as baseline plans do.
ExecPlan withElementForms(const ExecPlan& plan);

} // namespace tcx::test
