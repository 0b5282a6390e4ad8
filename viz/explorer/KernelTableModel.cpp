#include "KernelTableModel.h"

#include <QLocale>

namespace tcx::viz {

void KernelTableModel::reset(const ExecPlan* plan, const PlanLatency* latency, const QString& source) {
  beginResetModel();
  plan_ = plan;
  latency_ = latency;
  source_ = source;
  endResetModel();
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !plan_ ? 0 : static_cast<int>(plan_->kernels.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : NumColumns; }

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
  if (!plan_ || (role != Qt::DisplayRole && role != kSortRole && role != Qt::ToolTipRole)) return {};
  const PlanKernel& k = plan_->kernels[index.row()];
  const KernelEstimate& e = latency_->perKernel[index.row()];
  const double us = e.seconds * 1e6;
  const double share = latency_->seconds > 0 ? e.seconds / latency_->seconds : 0;
  const double gbps = e.seconds > 0 ? e.bytes / e.seconds * 1e-9 : 0;
  const bool sort = role == kSortRole;
  switch (index.column()) {
  case Name: return QString::fromStdString(k.name);
  case FusedOps: return QString::fromStdString(k.fused->opSummary());
  case Time: return sort ? QVariant(us) : QVariant(QString::number(us, 'f', 2));
  case Share: return sort ? QVariant(share) : QVariant(QString::number(100 * share, 'f', 1) + " %");
  case Bytes: return sort ? QVariant(e.bytes) : QVariant(QLocale().formattedDataSize(static_cast<qint64>(e.bytes)));
  case Bandwidth: return sort ? QVariant(gbps) : QVariant(QString::number(gbps, 'f', 0));
  case Bound: return e.memoryBound ? tr("memory") : tr("compute");
  }
  return {};
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case Name: return tr("Kernel");
  case FusedOps: return tr("Fused ops");
  case Time: return tr("Time (µs, %1)").arg(source_);
  case Share: return tr("Share");
  case Bytes: return tr("Bytes (cost model)");
  case Bandwidth: return tr("Achieved GB/s (%1)").arg(source_);
  case Bound: return tr("Bound (cost model)");
  }
  return {};
}

} // namespace tcx::viz
