#include "CandidateTableModel.h"

#include "superopt/MuGraphCost.h"

#include <algorithm>

namespace tcx::viz {

void CandidateTableModel::reset(std::vector<superopt::Candidate> candidates, double referenceMicros) {
  beginResetModel();
  candidates_ = std::move(candidates);
  referenceMicros_ = referenceMicros;
  measured_ = std::any_of(candidates_.begin(), candidates_.end(),
                          [](const superopt::Candidate& c) { return c.measuredMicros.has_value(); });
  endResetModel();
}

int CandidateTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(candidates_.size());
}

int CandidateTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : NumColumns; }

QVariant CandidateTableModel::data(const QModelIndex& index, int role) const {
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  const superopt::Candidate& c = candidates_.at(static_cast<size_t>(index.row()));
  const double micros = c.measuredMicros.value_or(c.estimatedMicros);
  switch (index.column()) {
  case Rank: return index.row() + 1;
  case Micros:
    return role == Qt::ToolTipRole
               ? tr("estimated %1 µs%2, found after %3 s")
                     .arg(c.estimatedMicros, 0, 'f', 3)
                     .arg(c.measuredMicros ? tr(", measured %1 µs").arg(*c.measuredMicros, 0, 'f', 3) : QString())
                     .arg(c.foundAtSeconds, 0, 'f', 2)
               : QVariant(QString::number(micros, 'f', 3));
  case Speedup:
    return micros > 0 ? QVariant(QStringLiteral("%1×").arg(referenceMicros_ / micros, 0, 'f', 2)) : QVariant();
  case Verdict: return QString::fromUtf8(verify::verdictName(c.verdict.verdict));
  case Kernels: {
    const superopt::KernelCount k = superopt::countKernels(c.graph);
    return tr("%1 (%2 graph-defined)").arg(k.launches).arg(k.graphDefined);
  }
  }
  return {};
}

QVariant CandidateTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case Rank: return tr("Rank");
  case Micros: return measured_ ? tr("µs (measured)") : tr("µs (estimated)");
  case Speedup: return tr("Speedup");
  case Verdict: return tr("Verdict");
  case Kernels: return tr("Kernels");
  }
  return {};
}

} // namespace tcx::viz
