#pragma once
// The strategy table as a panel: VTOG edges sortable by any column, the
// State column edited with a combo box (auto, accepted, forced, forbidden).
// Selecting a row selects its edge; selecting anything else highlights the
// edges it takes part in. Constraints the core rejects show its message
// here, and the previous strategy stays.

#include "ExplorerModel.h"

#include <QWidget>

#include <vector>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace tcx::viz {

class StrategyTableModel;

class StrategyPanel : public QWidget {
  Q_OBJECT

public:
  explicit StrategyPanel(ExplorerModel& model, QWidget* parent = nullptr);

  QTableView* table() const { return table_; }
  // Edge ids of the selected rows (the linked selection).
  std::vector<int> selectedEdges() const;
  // The last error the core gave for a constraint, or empty.
  QString errorText() const;
  // Sets an edge's state through the table, as the combo box does.
  bool editState(int edge, EdgeState state);

private:
  void showSelection(const view::ItemRef& ref);

  ExplorerModel& model_;
  StrategyTableModel* edges_;
  QSortFilterProxyModel* sorted_;
  QTableView* table_;
  QLabel* summary_;
  QLabel* error_;
  bool syncing_ = false;
};

} // namespace tcx::viz
