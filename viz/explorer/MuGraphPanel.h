#pragma once
// One μGraph, a level at a time (core's buildMuGraphView): the kernel graph
// first; double-clicking a graph-defined operator opens its block graph, and
// one of a block graph's opens its thread graph. A breadcrumb ("kernel ›
// block 3 › thread 4") names the level and goes back up; the title gives the
// level's grid and for-loop dims; selecting an operator shows its details
// (type, maps, what it reads, shapes).

#include "view/MuGraphView.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;

namespace tcx::viz {

class GraphView;

class MuGraphPanel : public QWidget {
  Q_OBJECT

public:
  explicit MuGraphPanel(QWidget* parent = nullptr);

  // Shows `graph`'s kernel graph; `caption` says what it is ("candidate 2")
  // in front of each level's title.
  void setGraph(mugraph::KernelGraph graph, const QString& caption = {});
  // Shows nothing but `message` ("This model has no LAX subprogram").
  void clear(const QString& message);
  const std::optional<mugraph::KernelGraph>& graph() const { return graph_; }

  // Opens the graph-defined operator `op` of the shown level, as
  // double-clicking it does; false (and nothing changes) for any other op.
  bool descend(int op);
  // Returns to the breadcrumb's entry `depth` (0: the kernel graph), as
  // clicking it does.
  void ascend(int depth);
  const view::MuGraphPath& level() const { return level_; }

  // Selects operator `op` of the shown level, as clicking it does.
  bool selectOp(int op);
  QString breadcrumbText() const; // plain text: "kernel › block 3 › thread 4"
  QString titleText() const;
  QString detailsText() const;
  GraphView* view() const { return view_; }

signals:
  void levelChanged();

private:
  void showLevel();
  void showDetails(const view::ItemRef& ref);
  void activate(const view::ItemRef& ref);

  GraphView* view_;
  QLabel* breadcrumb_;
  QLabel* title_;
  QPlainTextEdit* details_;
  std::optional<mugraph::KernelGraph> graph_;
  QString caption_;
  view::MuGraphPath level_;
};

} // namespace tcx::viz
