#pragma once
// The latency panel's per-kernel table: one row per kernel of a plan with
// its fused ops, time, share of the plan, bytes moved, achieved bandwidth
// and whether it is memory- or compute-bound; the headers say whether the
// numbers are measured (GPU) or estimated (preset).

#include "pipeline/VtcSession.h"

#include <QAbstractTableModel>

namespace tcx::viz {

class KernelTableModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Name, FusedOps, Time, Share, Bytes, Bandwidth, Bound, NumColumns };
  // The sort key of a cell (numbers as numbers).
  static constexpr int kSortRole = Qt::UserRole;

  using QAbstractTableModel::QAbstractTableModel;

  // Shows `plan` with `latency` (parallel per kernel); `source` labels them.
  void reset(const ExecPlan* plan, const PlanLatency* latency, const QString& source);
  const ExecPlan* plan() const { return plan_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
  const ExecPlan* plan_ = nullptr;
  const PlanLatency* latency_ = nullptr;
  QString source_;
};

} // namespace tcx::viz
