// The layered half of view/GraphLayout.h: a Sugiyama-style layout reduced to
// what stays linear in the graph's size, for graphs `dot` cannot lay out in
// interactive time. Layers are longest paths from the sources (dataflow reads
// top to bottom as in `dot`), each layer is ordered once by the mean position
// of its predecessors and once by that of its successors (one barycentric
// sweep each way: enough to untangle the chains of a network's blocks), and
// edges are straight. Clusters are boxed around their nodes; unlike `dot`'s,
// their boxes may overlap other nodes.
#include "view/GraphLayout.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tcx::view {

namespace {

constexpr double kNodeHeight = 36;   // dot's default 0.5 in
constexpr double kMinNodeWidth = 54; // dot's default 0.75 in
constexpr double kCharWidth = 6;     // Helvetica 10 pt, about
constexpr double kLabelPadding = 16;
constexpr double kLayerGap = 48;
constexpr double kNodeGap = 18;
constexpr double kClusterPadding = 8;
constexpr double kArrowLength = 8;

// Longest-path layers in topological order; nodes on a cycle (no view
// builds one, but a layout must not loop) go one layer below their laid-out
// predecessors.
std::vector<int> assignLayers(const DisplayGraph& graph, const std::vector<std::vector<size_t>>& succs) {
  const size_t n = graph.nodes.size();
  std::vector<int> indegree(n, 0), layer(n, 0);
  for (const DisplayEdge& e : graph.edges)
    if (e.from != e.to) ++indegree[e.to];
  std::vector<size_t> ready;
  for (size_t i = 0; i < n; ++i)
    if (indegree[i] == 0) ready.push_back(i);
  std::vector<bool> placed(n, false);
  for (size_t next = 0; next < ready.size(); ++next) {
    const size_t u = ready[next];
    placed[u] = true;
    for (size_t v : succs[u]) {
      layer[v] = std::max(layer[v], layer[u] + 1);
      if (--indegree[v] == 0) ready.push_back(v);
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (!placed[i]) layer[i] = std::max(layer[i], 1);
  return layer;
}

// Orders `rows` (node indices per layer) by the mean position of each node's
// neighbours in `neighbours`, visiting layers in `order`.
void sweep(std::vector<std::vector<size_t>>& rows, const std::vector<std::vector<size_t>>& neighbours,
           std::vector<double>& position, bool downward) {
  const int count = static_cast<int>(rows.size());
  for (int step = 0; step < count; ++step) {
    std::vector<size_t>& row = rows[static_cast<size_t>(downward ? step : count - 1 - step)];
    std::vector<double> key(row.size());
    for (size_t i = 0; i < row.size(); ++i) {
      const std::vector<size_t>& adj = neighbours[row[i]];
      double sum = 0;
      for (size_t v : adj) sum += position[v];
      key[i] = adj.empty() ? position[row[i]] : sum / static_cast<double>(adj.size());
    }
    std::vector<size_t> perm(row.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
    std::vector<size_t> sorted(row.size());
    for (size_t i = 0; i < row.size(); ++i) sorted[i] = row[perm[i]];
    row = std::move(sorted);
    for (size_t i = 0; i < row.size(); ++i) position[row[i]] = static_cast<double>(i);
  }
}

LayoutRect unite(const LayoutRect& a, const LayoutRect& b) {
  const double x0 = std::min(a.x, b.x), y0 = std::min(a.y, b.y);
  const double x1 = std::max(a.x + a.width, b.x + b.width), y1 = std::max(a.y + a.height, b.y + b.height);
  return {x0, y0, x1 - x0, y1 - y0};
}

EdgeLayout straightEdge(const LayoutRect& from, const LayoutRect& to) {
  const LayoutPoint start{from.x + from.width / 2, from.y + from.height};
  const LayoutPoint tip{to.x + to.width / 2, to.y};
  const double dx = tip.x - start.x, dy = tip.y - start.y;
  const double length = std::max(1.0, std::hypot(dx, dy));
  const LayoutPoint end{tip.x - dx / length * kArrowLength, tip.y - dy / length * kArrowLength};
  EdgeLayout e;
  e.bezier = {start, {start.x + (end.x - start.x) / 3, start.y + (end.y - start.y) / 3},
              {start.x + 2 * (end.x - start.x) / 3, start.y + 2 * (end.y - start.y) / 3}, end};
  e.hasArrow = true;
  e.arrowFrom = end;
  e.arrowTip = tip;
  return e;
}

} // namespace

GraphLayout layeredLayout(const DisplayGraph& graph) {
  const size_t n = graph.nodes.size();
  std::vector<std::vector<size_t>> succs(n), preds(n);
  for (const DisplayEdge& e : graph.edges) {
    if (e.from == e.to) continue;
    succs[e.from].push_back(e.to);
    preds[e.to].push_back(e.from);
  }
  const std::vector<int> layer = assignLayers(graph, succs);
  const int layers = n == 0 ? 0 : *std::max_element(layer.begin(), layer.end()) + 1;
  std::vector<std::vector<size_t>> rows(static_cast<size_t>(layers));
  std::vector<double> position(n);
  for (size_t i = 0; i < n; ++i) {
    std::vector<size_t>& row = rows[static_cast<size_t>(layer[i])];
    position[i] = static_cast<double>(row.size());
    row.push_back(i);
  }
  sweep(rows, preds, position, /*downward=*/true);
  sweep(rows, succs, position, /*downward=*/false);

  GraphLayout out;
  out.engine = LayoutEngine::Layered;
  out.nodes.resize(n);
  std::vector<double> rowWidth(rows.size(), 0);
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t i : rows[r]) {
      const double width = std::max(kMinNodeWidth, kCharWidth * static_cast<double>(graph.nodes[i].label.size()) + kLabelPadding);
      out.nodes[i] = {0, 0, width, kNodeHeight};
      rowWidth[r] += width + kNodeGap;
    }
  const double widest = rows.empty() ? 0 : *std::max_element(rowWidth.begin(), rowWidth.end());
  for (size_t r = 0; r < rows.size(); ++r) {
    double x = (widest - rowWidth[r]) / 2; // each layer centred under the widest
    for (size_t i : rows[r]) {
      out.nodes[i].x = x;
      out.nodes[i].y = static_cast<double>(r) * (kNodeHeight + kLayerGap);
      x += out.nodes[i].width + kNodeGap;
    }
  }
  out.edges.reserve(graph.edges.size());
  for (const DisplayEdge& e : graph.edges) out.edges.push_back(straightEdge(out.nodes[e.from], out.nodes[e.to]));

  // Clusters: children follow their parents in DisplayGraph::clusters, so a
  // backward walk has every child's box ready before its parent takes it in.
  out.clusters.resize(graph.clusters.size());
  std::vector<bool> hasBox(graph.clusters.size(), false);
  auto include = [&](int cluster, const LayoutRect& box) {
    if (cluster < 0) return;
    const size_t c = static_cast<size_t>(cluster);
    out.clusters[c].box = hasBox[c] ? unite(out.clusters[c].box, box) : box;
    hasBox[c] = true;
  };
  for (size_t i = 0; i < n; ++i) include(graph.nodes[i].cluster, out.nodes[i]);
  for (size_t c = graph.clusters.size(); c-- > 0;) {
    LayoutRect& box = out.clusters[c].box;
    box = {box.x - kClusterPadding, box.y - kClusterPadding - kCharWidth * 2, box.width + 2 * kClusterPadding,
           box.height + 2 * kClusterPadding + kCharWidth * 2};
    out.clusters[c].labelCentre = {box.x + kClusterPadding + kCharWidth * static_cast<double>(graph.clusters[c].label.size()) / 2,
                                   box.y + kCharWidth + kClusterPadding / 2};
    if (hasBox[c]) include(graph.clusters[c].parent, box);
  }

  bool any = false;
  for (const LayoutRect& box : out.nodes) {
    out.bounds = any ? unite(out.bounds, box) : box;
    any = true;
  }
  for (size_t c = 0; c < out.clusters.size(); ++c)
    if (hasBox[c]) out.bounds = any ? unite(out.bounds, out.clusters[c].box) : out.clusters[c].box;
  return out;
}

} // namespace tcx::view
