#include "MiniMap.h"

#include <QMouseEvent>

namespace tcx::viz {

MiniMap::MiniMap(QGraphicsView* main, QWidget* parent) : QGraphicsView(main->scene(), parent), main_(main) {
  setInteractive(false);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setRenderHint(QPainter::Antialiasing, false);
  setFrameShape(QFrame::Box);
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("Overview: click to move the view"));
}

void MiniMap::refit() {
  if (scene()) fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
  viewport()->update();
}

void MiniMap::drawForeground(QPainter* painter, const QRectF&) {
  const QRectF visible = main_->mapToScene(main_->viewport()->rect()).boundingRect();
  painter->setPen(QPen(QColor("#1971c2"), 0));
  painter->setBrush(QColor(25, 113, 194, 40));
  painter->drawRect(visible);
}

void MiniMap::mousePressEvent(QMouseEvent* event) { moveMainTo(event->pos()); }

void MiniMap::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) moveMainTo(event->pos());
}

// The overview stays fitted: the wheel zooms nothing here.
void MiniMap::wheelEvent(QWheelEvent* event) { event->accept(); }

void MiniMap::moveMainTo(QPoint pos) {
  main_->centerOn(mapToScene(pos));
  viewport()->update();
}

} // namespace tcx::viz
