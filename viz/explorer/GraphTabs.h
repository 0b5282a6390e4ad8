#pragma once
// The explorer's central views, one tab each: the computation graph
// (grouped by name scope or by fused kernel; double-click a group to expand
// or collapse it), the VTOG, the points-to graph of the current strategy,
// and two strategies side by side. Each is a GraphView kept in step with
// the ExplorerModel: rebuilt for a new strategy (when shown), its item selected
// when the model's selection changes (and the other way round), a VTOG
// edge's conflict set highlighted, the latency heat on the computation
// graph. The μGraphs tab holds the superoptimizer and its μGraph view.

#include "ExplorerModel.h"

#include "view/DisplayGraph.h"
#include "view/GroupTree.h"

#include <QTabWidget>

#include <set>

namespace tcx::viz {

class GraphView;
class SideBySideView;
class SuperoptPanel;

class GraphTabs : public QTabWidget {
  Q_OBJECT

public:
  enum Tab { Computation, VtogTab, PointsTo, SideBySide, MuGraphs, NumTabs };

  explicit GraphTabs(ExplorerModel& model, QWidget* parent = nullptr);

  // The view of a tab (the optimised pane for SideBySide, the μGraph drawn for MuGraphs).
  GraphView* view(Tab tab) const;
  GraphView* currentView() const { return view(static_cast<Tab>(currentIndex())); }
  SideBySideView* sideBySide() const { return sideBySide_; }
  SuperoptPanel* superopt() const { return superopt_; }
  static const char* tabKey(Tab tab); // "computation", "vtog", "points-to", "side-by-side", "mugraphs"
  static std::optional<Tab> parseTabKey(const QString& key);

  void setGroupByKernel(bool byKernel);
  void setHeatVisible(bool visible);
  // Whether any view still waits for a layout.
  bool isLayoutPending() const;

signals:
  void layoutFailed(const QString& message);

private:
  void regroup();
  void rebuildCurrent();
  void rebuildComputation();
  void toggleGroup(const view::ItemRef& ref);
  void showSelection();
  void showSelectionIn(GraphView* view);
  void applyHeat();
  void link(GraphView* view);

  ExplorerModel& model_;
  GraphView* computation_;
  GraphView* vtog_;
  GraphView* pointsTo_;
  SideBySideView* sideBySide_;
  SuperoptPanel* superopt_;
  view::GroupTree groups_;
  std::set<view::ItemRef> expanded_;
  std::set<Tab> stale_; // strategy views not yet rebuilt for the current strategy
  bool groupByKernel_ = false;
  bool heatVisible_ = true;
};

} // namespace tcx::viz
