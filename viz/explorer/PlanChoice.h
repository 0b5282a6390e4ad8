#pragma once
// Which of the session's two plans a panel shows: the optimised one (the
// current strategy) or the baseline (every data-movement op a kernel).

#include "pipeline/VtcSession.h"

#include <QComboBox>

namespace tcx::viz {

class PlanChoice : public QComboBox {
  Q_OBJECT

public:
  explicit PlanChoice(QWidget* parent = nullptr);

  bool optimised() const { return currentIndex() == 0; }
  const ExecPlan& plan(const VtcSession& session) const;
  const PlanLatency& latency(const VtcSession& session) const;
};

} // namespace tcx::viz
