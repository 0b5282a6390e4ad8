#include "PlanChoice.h"

namespace tcx::viz {

PlanChoice::PlanChoice(QWidget* parent) : QComboBox(parent) { addItems({tr("optimised plan"), tr("baseline plan")}); }

const ExecPlan& PlanChoice::plan(const VtcSession& session) const {
  return optimised() ? session.optimizedPlan() : session.baselinePlan();
}

const PlanLatency& PlanChoice::latency(const VtcSession& session) const {
  return optimised() ? session.optimizedLatency() : session.baselineLatency();
}

} // namespace tcx::viz
