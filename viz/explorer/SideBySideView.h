#pragma once
// Two strategies' points-to graphs in split panes: a pinned one on the left
// (the baseline, no virtual tensors, until the user pins the current
// strategy) and the current one on the right. Zoom and scroll follow each
// other; what differs between the two (core's strategyDifferences) is
// highlighted in both.

#include "ExplorerModel.h"

#include "vt/PointsToGraph.h"

#include <QWidget>

#include <memory>
#include <set>
#include <vector>

class QLabel;

namespace tcx::viz {

class GraphView;

class SideBySideView : public QWidget {
  Q_OBJECT

public:
  explicit SideBySideView(ExplorerModel& model, QWidget* parent = nullptr);
  ~SideBySideView() override;

  GraphView* left() const { return left_; }
  GraphView* right() const { return right_; }
  // Compares later strategies with the current one instead of the baseline.
  void pinCurrent();
  const std::vector<view::ItemRef>& differences() const { return differences_; }
  bool isLayoutPending() const;

protected:
  void showEvent(QShowEvent* event) override;

private:
  void pin(std::set<int> selected, const QString& label);
  void rebuild();
  void follow(GraphView* from, GraphView* to);

  ExplorerModel& model_;
  GraphView* left_;
  GraphView* right_;
  QLabel* leftLabel_;
  QLabel* rightLabel_;
  std::unique_ptr<PointsToGraph> pinned_;
  std::vector<view::ItemRef> differences_;
  bool following_ = false;
  bool stale_ = false; // the current strategy changed while hidden
};

} // namespace tcx::viz
