#pragma once
// The superoptimizer's candidates as a table, best first as the search ranks
// them: rank, estimated (or measured, on a GPU) µs, speedup over the reference
// program, the verifier's verdict and the kernels launched (graph-defined
// ones are custom kernels, the rest library operators).

#include "superopt/SuperoptSearch.h"

#include <QAbstractTableModel>

#include <vector>

namespace tcx::viz {

class CandidateTableModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Rank, Micros, Speedup, Verdict, Kernels, NumColumns };

  using QAbstractTableModel::QAbstractTableModel;

  // Shows `candidates` against a reference taking `referenceMicros`.
  void reset(std::vector<superopt::Candidate> candidates, double referenceMicros);
  const std::vector<superopt::Candidate>& candidates() const { return candidates_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
  std::vector<superopt::Candidate> candidates_;
  double referenceMicros_ = 0;
  bool measured_ = false; // some candidate was timed on a GPU: the ranking uses those times
};

} // namespace tcx::viz
