#include "GraphStyle.h"

#include <algorithm>

namespace tcx::viz {

using view::NodeStyle;

QBrush nodeFill(NodeStyle style) {
  switch (style) {
  case NodeStyle::Op: return QColor("#d0ebff");
  case NodeStyle::DataMovementOp: return QColor("#ffd8a8");
  case NodeStyle::Tensor: return QColor("#f1f3f5");
  case NodeStyle::GraphInput: return QColor("#d3f9d8");
  case NodeStyle::GraphOutput: return QColor("#ffe3e3");
  case NodeStyle::Constant: return QColor("#e9ecef");
  case NodeStyle::CollapsedGroup: return QColor("#e5dbff");
  case NodeStyle::PhysicalTensor: return QColor("#adb5bd");
  case NodeStyle::VirtualTensor: return QColor("#ffffff");
  }
  return Qt::white;
}

QPen nodePen(NodeStyle style) {
  switch (style) {
  // Data-movement ops are what VTC eliminates: a heavy orange border.
  case NodeStyle::DataMovementOp: return QPen(QColor("#e8590c"), 2.5);
  case NodeStyle::Constant:
  case NodeStyle::VirtualTensor: return QPen(QColor("#495057"), 1.2, Qt::DashLine);
  case NodeStyle::CollapsedGroup: return QPen(QColor("#5f3dc4"), 1.5);
  default: return QPen(QColor("#495057"), 1.0);
  }
}

QPen edgePen(view::EdgeStyle style, bool chosen) {
  const double width = chosen ? 3.0 : 1.3;
  switch (style) {
  case view::EdgeStyle::Dataflow: return QPen(QColor("#495057"), width);
  case view::EdgeStyle::TypeI: return QPen(QColor("#2b8a3e"), width);
  case view::EdgeStyle::TypeII: return QPen(QColor("#e8590c"), width, Qt::DashLine);
  case view::EdgeStyle::PointsTo: return QPen(QColor("#1c7ed6"), width);
  }
  return QPen(Qt::black, width);
}

QBrush clusterFill(view::ClusterKind kind) { return QColor(kind == view::ClusterKind::Kernel ? "#fff9db" : "#f8f9fa"); }

QColor heatColour(double heat) {
  const double h = std::clamp(heat, 0.0, 1.0);
  // Pale yellow through orange to red.
  return QColor::fromHsvF(static_cast<float>((1.0 - h) * 55.0 / 360.0), static_cast<float>(0.15 + 0.85 * h), 1.0f);
}

QColor selectionColour() { return QColor("#1971c2"); }
QColor highlightFill() { return QColor("#ffe066"); }
QColor highlightColour() { return QColor("#d6336c"); }

QFont nodeFont() {
  QFont f("Helvetica");
  f.setPixelSize(10);
  return f;
}

QFont edgeFont() {
  QFont f("Helvetica");
  f.setPixelSize(8);
  return f;
}

QFont clusterFont() {
  QFont f("Helvetica");
  f.setPixelSize(10);
  f.setBold(true);
  return f;
}

} // namespace tcx::viz
