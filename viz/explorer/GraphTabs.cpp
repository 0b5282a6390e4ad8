#include "GraphTabs.h"

#include "GraphView.h"
#include "MuGraphPanel.h"
#include "view/ItemLinks.h"
#include "view/LatencyHeat.h"
#include "SideBySideView.h"
#include "SuperoptPanel.h"

#include "view/ComputationGraphView.h"
#include "view/MuGraphView.h"
#include "view/PointsToView.h"
#include "view/VtogView.h"

namespace tcx::viz {

namespace {
constexpr const char* kTabKeys[GraphTabs::NumTabs] = {"computation", "vtog", "points-to", "side-by-side", "mugraphs"};
} // namespace

GraphTabs::GraphTabs(ExplorerModel& model, QWidget* parent)
    : QTabWidget(parent), model_(model), computation_(new GraphView), vtog_(new GraphView), pointsTo_(new GraphView),
      sideBySide_(new SideBySideView(model)), superopt_(new SuperoptPanel(model)) {
  addTab(computation_, tr("Computation graph"));
  addTab(vtog_, tr("VTOG"));
  addTab(pointsTo_, tr("Points-to graph"));
  addTab(sideBySide_, tr("Side by side"));
  addTab(superopt_, tr("μGraphs"));
  connect(superopt_->graphPanel().view(), &GraphView::layoutFailed, this, &GraphTabs::layoutFailed);
  for (GraphView* v : {computation_, vtog_, pointsTo_}) link(v);
  connect(computation_, &GraphView::itemActivated, this, &GraphTabs::toggleGroup);
  connect(&model_, &ExplorerModel::opened, this, &GraphTabs::regroup);
  connect(&model_, &ExplorerModel::strategyChanged, this, [this] {
    stale_ = {VtogTab, PointsTo};
    rebuildCurrent();
    applyHeat();
  });
  connect(this, &QTabWidget::currentChanged, this, &GraphTabs::rebuildCurrent);
  connect(&model_, &ExplorerModel::latencyChanged, this, &GraphTabs::applyHeat);
  connect(&model_, &ExplorerModel::selectionChanged, this, &GraphTabs::showSelection);
}

void GraphTabs::link(GraphView* v) {
  connect(v, &GraphView::itemSelected, &model_, &ExplorerModel::select);
  connect(v, &GraphView::layoutFinished, this, [this, v] {
    showSelectionIn(v);
    if (v == computation_) applyHeat();
  });
  connect(v, &GraphView::layoutFailed, this, &GraphTabs::layoutFailed);
}

GraphView* GraphTabs::view(Tab tab) const {
  switch (tab) {
  case Computation: return computation_;
  case VtogTab: return vtog_;
  case PointsTo: return pointsTo_;
  case SideBySide: return sideBySide_->right();
  case MuGraphs: return superopt_->graphPanel().view();
  case NumTabs: break;
  }
  return nullptr;
}

const char* GraphTabs::tabKey(Tab tab) { return kTabKeys[tab]; }

std::optional<GraphTabs::Tab> GraphTabs::parseTabKey(const QString& key) {
  for (int t = 0; t < NumTabs; ++t)
    if (key == kTabKeys[t]) return static_cast<Tab>(t);
  return std::nullopt;
}

void GraphTabs::setGroupByKernel(bool byKernel) {
  groupByKernel_ = byKernel;
  if (model_.isOpen()) regroup();
}

void GraphTabs::regroup() {
  groups_ = groupByKernel_ ? view::kernelTree(model_.session().kernels()) : view::scopeTree(model_.session().graph());
  expanded_ = view::defaultExpansion(groups_);
  rebuildComputation();
}

void GraphTabs::setHeatVisible(bool visible) {
  heatVisible_ = visible;
  applyHeat();
}

bool GraphTabs::isLayoutPending() const {
  return computation_->isLayoutPending() || vtog_->isLayoutPending() || pointsTo_->isLayoutPending() ||
         sideBySide_->isLayoutPending() || superopt_->graphPanel().view()->isLayoutPending();
}

// The computation graph depends on the model only; the strategy views on
// the strategy, and are rebuilt when shown: on a large model each costs as
// much as the selection itself.
void GraphTabs::rebuildCurrent() {
  const Tab tab = static_cast<Tab>(currentIndex());
  if (!model_.isOpen() || !stale_.erase(tab)) return;
  const VtcSession& s = model_.session();
  if (tab == VtogTab) vtog_->setGraph(view::buildVtogGraph(s.vtog(), view::vtogAnnotations(s)));
  if (tab == PointsTo) pointsTo_->setGraph(view::buildPointsToGraph(s.strategy()));
}

void GraphTabs::rebuildComputation() {
  computation_->setGraph(view::buildComputationGraph(model_.session().graph(), groups_, expanded_));
}

void GraphTabs::toggleGroup(const view::ItemRef& ref) {
  if (groups_.find(ref) < 0) return;
  if (!expanded_.erase(ref)) expanded_.insert(ref);
  rebuildComputation();
}

void GraphTabs::showSelection() {
  for (GraphView* v : {computation_, vtog_, pointsTo_}) showSelectionIn(v);
  // A μGraph operator (chosen in Find) is only ever drawn in the μGraph view.
  MuGraphPanel& muGraph = superopt_->graphPanel();
  if (std::optional<view::MuOpId> id = view::parseMuOpRef(*model_.selection()); id && id->level == muGraph.level())
    muGraph.selectOp(id->op);
}

void GraphTabs::showSelectionIn(GraphView* v) {
  if (!model_.isOpen() || !model_.selection()) return;
  const view::ItemRef& ref = *model_.selection();
  if (std::optional<view::ItemRef> drawn = view::counterpartIn(v->graph(), model_.session(), ref)) v->select(*drawn);
  if (v != vtog_) return;
  // An edge's conflict set (VTC's S(v)): the edges it excludes.
  std::optional<int> edge = view::edgeIdOf(ref);
  v->highlight(edge ? view::conflictSetOf(model_.session().vtog(), *edge) : std::vector<view::ItemRef>{});
}

void GraphTabs::applyHeat() {
  if (!model_.isOpen()) return;
  const VtcSession& s = model_.session();
  computation_->setHeat(heatVisible_ ? view::kernelHeat(s.optimizedPlan(), s.optimizedLatency())
                                     : std::map<view::ItemRef, double>{});
}

} // namespace tcx::viz
