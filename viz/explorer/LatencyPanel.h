#pragma once
// Latency, as VTC's Figures 2 and 10 break it down: stacked bars of data
// movement and compute for the baseline and the optimised plan, and a
// sortable per-kernel table of either plan. Every number is labelled
// measured (GPU) or estimated (preset). Selecting a row selects its kernel.

#include "ExplorerModel.h"

#include <QWidget>

#include <array>

class QBarSet;
class QChart;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace tcx::viz {

class PlanChoice;
class KernelTableModel;

class LatencyPanel : public QWidget {
  Q_OBJECT

public:
  explicit LatencyPanel(ExplorerModel& model, QWidget* parent = nullptr);

  // Microseconds on the chart: baseline data movement, baseline compute,
  // optimised data movement, optimised compute.
  std::array<double, 4> chartValues() const;
  QString chartTitle() const;
  QTableView* kernelTable() const { return table_; }
  // The table's row (in view order) of the selected kernel, or -1.
  int selectedRow() const;

private:
  void refresh();
  void showSelection(const view::ItemRef& ref);
  const ExecPlan& shownPlan() const;

  ExplorerModel& model_;
  QChart* chart_;
  QBarSet* dataMovement_;
  QBarSet* compute_;
  QLabel* source_;
  PlanChoice* planChoice_;
  KernelTableModel* kernels_;
  QSortFilterProxyModel* sorted_;
  QTableView* table_;
  bool syncing_ = false;
};

} // namespace tcx::viz
