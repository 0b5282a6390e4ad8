#pragma once
// The graph views' latency heat overlay: each plan kernel's share of the
// slowest kernel's time (0..1), on the kernel and on every op it runs, so
// both a collapsed kernel group and an expanded op are shaded.

#include "pipeline/VtcSession.h"
#include "view/ItemRef.h"

#include <map>

namespace tcx::view {

std::map<ItemRef, double> kernelHeat(const ExecPlan& plan, const PlanLatency& latency);

} // namespace tcx::view
