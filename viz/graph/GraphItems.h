#pragma once
// The items of a GraphScene, drawn by Qt from a laid-out DisplayGraph: each
// knows the ItemRef it stands for and restyles itself when selected,
// highlighted or heated.

#include "GraphLayout.h"
#include "view/DisplayGraph.h"

#include <QFont>
#include <QGraphicsPathItem>
#include <optional>

namespace tcx::viz {

class GraphItem : public QGraphicsPathItem {
public:
  enum { Type = UserType + 1 };
  int type() const override { return Type; }

  const std::optional<view::ItemRef>& ref() const { return ref_; }
  bool highlighted() const { return highlighted_; }
  void setHighlighted(bool on);
  // 0..1, or nullopt for the item's own colours.
  void setHeat(std::optional<double> heat);

  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
  GraphItem(std::optional<view::ItemRef> ref, QString label, QFont font);
  void setLabelRect(const QRectF& rect) { labelRect_ = rect; }
  // Applies the base look, then heat, highlight and selection over it.
  // Not pure: Qt may report a selection change while the item is being
  // destroyed, when only this base is left.
  virtual void restyle();
  QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;
  std::optional<double> heat() const { return heat_; }

private:
  std::optional<view::ItemRef> ref_;
  QString label_;
  QFont font_;
  QRectF labelRect_;
  bool highlighted_ = false;
  std::optional<double> heat_;
};

class GraphNodeItem : public GraphItem {
public:
  GraphNodeItem(const view::DisplayNode& node, const NodeGeometry& geometry);

protected:
  void restyle() override;

private:
  view::NodeStyle style_;
};

class GraphEdgeItem : public GraphItem {
public:
  GraphEdgeItem(const view::DisplayEdge& edge, const EdgeGeometry& geometry);
  // Wider than the stroke, so that thin edges can be clicked.
  QPainterPath shape() const override;
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
  void restyle() override;

private:
  view::EdgeStyle style_;
  bool chosen_;
  QPolygonF arrow_;
};

class GraphClusterItem : public GraphItem {
public:
  GraphClusterItem(const view::DisplayCluster& cluster, const ClusterGeometry& geometry, int depth);

protected:
  void restyle() override;

private:
  view::ClusterKind kind_;
};

} // namespace tcx::viz
