#pragma once
// Offers a vendor library call (VendorCall.h) as the alternative to a GEMM or
// convolution kernel that GemmLowering or ConvLowering has just emitted,
// where the library can read the operands as they lie in memory: emits the
// kernel that runs the plan kernel's epilogue over the staged result and
// records the alternative. Offering nothing is always correct; the profiler
// then runs the generated kernel.

#include "codegen/ValueCode.h"
#include "plan/StridedView.h"
#include "tcx/launch.h"

namespace tcx {

// `problem` (sizes and strides of A and B in elements) over the views `a`
// and `b`; the epilogue functor indexes the result as (batch, m, n).
void offerVendorGemm(ValueCode& values, const GemmProblem& problem, const StridedView& a, const StridedView& b);

// The convolution `conv` over the views `x` and `w` (NCHW and packed
// filters); the epilogue functor indexes the result as (image, output
// channel, spatial position).
// `prelude`, if any, computes x first (VendorAlternative::prelude).
void offerVendorConv(ValueCode& values, const Node& conv, const StridedView& x, const StridedView& w, ElemType type,
                     std::optional<GeneratedLaunch> prelude = {});

} // namespace tcx
