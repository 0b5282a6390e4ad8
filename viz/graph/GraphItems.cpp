#include "GraphItems.h"

#include "GraphStyle.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>
#include <QtMath>

namespace tcx::viz {

namespace {

constexpr double kNodeZ = 2, kEdgeZ = 1, kClusterZ = -100;
constexpr double kArrowWidth = 3.5;
constexpr double kPickWidth = 8;

QString qstring(const std::string& s) { return QString::fromStdString(s); }

QRectF textRect(const QString& text, const QFont& font, QPointF centre) {
  QRectF r = QFontMetricsF(font).boundingRect(QRectF(), Qt::AlignCenter, text);
  r.moveCenter(centre);
  return r;
}

QPainterPath nodeShape(view::NodeStyle style, const QRectF& box) {
  QPainterPath path;
  path.setFillRule(Qt::WindingFill);
  switch (style) {
  case view::NodeStyle::Op:
  case view::NodeStyle::DataMovementOp: path.addRoundedRect(box, 6, 6); break;
  case view::NodeStyle::Tensor:
  case view::NodeStyle::GraphInput:
  case view::NodeStyle::GraphOutput:
  case view::NodeStyle::Constant: path.addEllipse(box); break;
  case view::NodeStyle::CollapsedGroup:
    // A stack of boxes: the group's ops behind its face.
    path.addRect(box.adjusted(4, 0, 0, -4));
    path.addRect(box.adjusted(0, 4, -4, 0));
    break;
  case view::NodeStyle::PhysicalTensor:
  case view::NodeStyle::VirtualTensor: path.addRect(box); break;
  }
  return path;
}

QPainterPath bezierPath(const std::vector<QPointF>& points) {
  QPainterPath path;
  if (points.empty()) return path;
  path.moveTo(points[0]);
  for (size_t i = 1; i + 2 < points.size(); i += 3) path.cubicTo(points[i], points[i + 1], points[i + 2]);
  return path;
}

QPolygonF arrowHead(QPointF from, QPointF tip) {
  const QPointF d = tip - from;
  const double length = std::hypot(d.x(), d.y());
  if (length < 1e-6) return {};
  const QPointF normal(-d.y() / length * kArrowWidth, d.x() / length * kArrowWidth);
  return QPolygonF({tip, from + normal, from - normal});
}

} // namespace

GraphItem::GraphItem(std::optional<view::ItemRef> ref, QString label, QFont font)
    : ref_(std::move(ref)), label_(std::move(label)), font_(std::move(font)) {}

void GraphItem::setHighlighted(bool on) {
  if (highlighted_ == on) return;
  highlighted_ = on;
  restyle();
}

void GraphItem::setHeat(std::optional<double> heat) {
  if (heat_ == heat) return;
  heat_ = heat;
  restyle();
}

void GraphItem::restyle() {}

QRectF GraphItem::boundingRect() const { return QGraphicsPathItem::boundingRect().united(labelRect_); }

void GraphItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) {
  // Selection shows as the item's own pen (restyle), not Qt's dashed frame.
  QStyleOptionGraphicsItem plain(*option);
  plain.state &= ~QStyle::State_Selected;
  QGraphicsPathItem::paint(painter, &plain, widget);
  if (label_.isEmpty()) return;
  painter->setFont(font_);
  painter->setPen(Qt::black);
  painter->drawText(labelRect_, Qt::AlignCenter, label_);
}

QVariant GraphItem::itemChange(GraphicsItemChange change, const QVariant& value) {
  if (change == ItemSelectedHasChanged) restyle();
  return QGraphicsPathItem::itemChange(change, value);
}

GraphNodeItem::GraphNodeItem(const view::DisplayNode& node, const NodeGeometry& geometry)
    : GraphItem(node.ref, qstring(node.label), nodeFont()), style_(node.style) {
  setPath(nodeShape(style_, geometry.box));
  setLabelRect(textRect(qstring(node.label), nodeFont(), geometry.box.center()));
  setToolTip(qstring(node.tooltip));
  setFlag(ItemIsSelectable);
  setZValue(kNodeZ);
  restyle();
}

void GraphNodeItem::restyle() {
  QBrush fill = nodeFill(style_);
  QPen pen = nodePen(style_);
  if (heat()) fill = heatColour(*heat());
  if (highlighted()) {
    fill = highlightFill();
    pen = QPen(highlightColour(), 2.5);
  }
  if (isSelected()) pen = QPen(selectionColour(), 3.5);
  setBrush(fill);
  setPen(pen);
}

GraphEdgeItem::GraphEdgeItem(const view::DisplayEdge& edge, const EdgeGeometry& geometry)
    : GraphItem(edge.ref, qstring(edge.label), edgeFont()), style_(edge.style), chosen_(edge.chosen),
      arrow_(arrowHead(geometry.arrowFrom, geometry.arrowTip)) {
  setPath(bezierPath(geometry.bezier));
  if (!edge.label.empty()) setLabelRect(textRect(qstring(edge.label), edgeFont(), geometry.labelCentre));
  setToolTip(qstring(edge.tooltip));
  if (edge.ref) setFlag(ItemIsSelectable);
  setZValue(kEdgeZ);
  restyle();
}

QPainterPath GraphEdgeItem::shape() const {
  QPainterPathStroker stroker;
  stroker.setWidth(kPickWidth);
  QPainterPath s = stroker.createStroke(path());
  s.addPolygon(arrow_);
  return s;
}

QRectF GraphEdgeItem::boundingRect() const {
  const double margin = pen().widthF() + kArrowWidth;
  return GraphItem::boundingRect().united(arrow_.boundingRect()).adjusted(-margin, -margin, margin, margin);
}

void GraphEdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) {
  GraphItem::paint(painter, option, widget);
  painter->setPen(Qt::NoPen);
  painter->setBrush(pen().color());
  painter->drawPolygon(arrow_);
}

void GraphEdgeItem::restyle() {
  QPen pen = edgePen(style_, chosen_);
  if (heat()) pen.setColor(heatColour(*heat()).darker(120));
  if (highlighted()) pen = QPen(highlightColour(), 3.0);
  if (isSelected()) pen = QPen(selectionColour(), 3.5);
  setPen(pen);
  setBrush(Qt::NoBrush);
  update();
}

GraphClusterItem::GraphClusterItem(const view::DisplayCluster& cluster, const ClusterGeometry& geometry, int depth)
    : GraphItem(cluster.ref, qstring(cluster.label), clusterFont()), kind_(cluster.kind) {
  QPainterPath path;
  path.addRoundedRect(geometry.box, 8, 8);
  setPath(path);
  setLabelRect(textRect(qstring(cluster.label), clusterFont(), geometry.labelCentre));
  setToolTip(qstring(cluster.ref.name));
  setFlag(ItemIsSelectable);
  setZValue(kClusterZ + depth);
  restyle();
}

void GraphClusterItem::restyle() {
  QBrush fill = clusterFill(kind_);
  QPen pen(QColor("#ced4da"), 1.0);
  if (heat()) fill = heatColour(*heat()).lighter(110);
  if (highlighted()) pen = QPen(highlightColour(), 2.5);
  if (isSelected()) pen = QPen(selectionColour(), 3.0);
  setBrush(fill);
  setPen(pen);
}

} // namespace tcx::viz
