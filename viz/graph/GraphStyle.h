#pragma once
// The look of graph items: fills and pens per DisplayGraph style, and the
// colours for selection, highlights and the heat overlay. The DOT writer
// uses the same colours, so `tcx dot` renderings match the explorer.

#include "view/DisplayGraph.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QPen>

namespace tcx::viz {

QBrush nodeFill(view::NodeStyle style);
QPen nodePen(view::NodeStyle style);
QPen edgePen(view::EdgeStyle style, bool chosen);
QBrush clusterFill(view::ClusterKind kind);

// 0 (cool) .. 1 (hot), for latency overlays.
QColor heatColour(double heat);
QColor selectionColour();
QColor highlightFill();
QColor highlightColour();

QFont nodeFont();
QFont edgeFont();
QFont clusterFont();

} // namespace tcx::viz
