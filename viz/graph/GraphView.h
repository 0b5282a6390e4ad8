#pragma once
// A DisplayGraph on screen: laid out by Graphviz off the UI thread, drawn
// by a GraphScene, with zoom (Ctrl+wheel, +/-), pan (drag), fit (F), a
// minimap and selection that reports ItemRefs. The explorer's views all
// use it; it holds no compiler logic: what to show comes in as a
// DisplayGraph, highlights and heat as ItemRefs.

#include "GraphScene.h"
#include "view/DisplayGraph.h"

#include <QGraphicsView>
#include <map>
#include <optional>
#include <vector>

namespace tcx::viz {

class MiniMap;

class GraphView : public QGraphicsView {
  Q_OBJECT

public:
  explicit GraphView(QWidget* parent = nullptr);
  ~GraphView() override;

  // Lays the graph out off the UI thread; the old drawing stays until the
  // new one is ready (layoutFinished) or has failed (layoutFailed).
  void setGraph(tcx::view::DisplayGraph graph);
  // The graph last given to setGraph (drawn once no layout is pending).
  const tcx::view::DisplayGraph& graph() const { return graph_; }

  // Selects the item drawn for `ref` and centres on it; false if none is
  // drawn. Emits nothing: the caller already knows.
  bool select(const tcx::view::ItemRef& ref);
  std::optional<tcx::view::ItemRef> selected() const;
  void highlight(const std::vector<tcx::view::ItemRef>& refs); // empty clears
  void setHeat(const std::map<tcx::view::ItemRef, double>& heat); // 0..1 per item; empty clears

  void fitAll();
  void zoomBy(double factor);
  bool isLayoutPending() const { return pendingLayouts_ > 0; }

  bool exportSvg(const QString& path);
  bool exportPng(const QString& path);

  // For synchronised side-by-side panes.
  QTransform viewTransform() const { return transform(); }
  QPointF viewCentre() const;
  void setViewTransform(const QTransform& transform, QPointF centre);

  GraphScene& graphScene() { return *scene_; }

signals:
  void itemSelected(tcx::view::ItemRef ref);  // the user clicked an item
  void itemActivated(tcx::view::ItemRef ref); // double-click (a group: the owner toggles it)
  void layoutFinished();
  void layoutFailed(QString message);
  void viewChanged(); // zoom or scroll changed

protected:
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void scrollContentsBy(int dx, int dy) override;

private:
  void showLayout(const GraphGeometry& geometry, const tcx::view::DisplayGraph& graph);
  std::optional<tcx::view::ItemRef> refAt(QPoint viewportPos) const;
  // The drawing's bounds, for fitting and export; empty when nothing is drawn.
  QRectF drawnRect() const;

  GraphScene* scene_;
  MiniMap* miniMap_;
  tcx::view::DisplayGraph graph_;
  unsigned generation_ = 0; // of the latest setGraph: older layouts are dropped
  int pendingLayouts_ = 0;
};

} // namespace tcx::viz
