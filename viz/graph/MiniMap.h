#pragma once
// The overview in a GraphView's corner: the whole scene, small, with the
// main view's visible area outlined; a click or drag moves the main view.

#include <QGraphicsView>

namespace tcx::viz {

class MiniMap : public QGraphicsView {
  Q_OBJECT

public:
  MiniMap(QGraphicsView* main, QWidget* parent);
  // Re-fits the whole scene (after a new drawing or resize).
  void refit();

protected:
  void drawForeground(QPainter* painter, const QRectF& rect) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

private:
  void moveMainTo(QPoint pos);

  QGraphicsView* main_;
};

} // namespace tcx::viz
