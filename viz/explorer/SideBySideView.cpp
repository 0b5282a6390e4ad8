#include "SideBySideView.h"

#include "GraphView.h"
#include "view/ItemLinks.h"

#include "view/PointsToView.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace tcx::viz {

namespace {

QWidget* pane(QLabel* label, GraphView* view) {
  auto* w = new QWidget;
  auto* layout = new QVBoxLayout(w);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(label);
  layout->addWidget(view, 1);
  return w;
}

} // namespace

SideBySideView::SideBySideView(ExplorerModel& model, QWidget* parent)
    : QWidget(parent), model_(model), left_(new GraphView), right_(new GraphView), leftLabel_(new QLabel),
      rightLabel_(new QLabel) {
  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(pane(leftLabel_, left_));
  splitter->addWidget(pane(rightLabel_, right_));
  splitter->setStretchFactor(0, 1); // two equal panes
  splitter->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);

  connect(&model_, &ExplorerModel::opened, this, [this] { pin({}, tr("baseline (no virtual tensors)")); });
  connect(&model_, &ExplorerModel::strategyChanged, this, &SideBySideView::rebuild);
  connect(left_, &GraphView::viewChanged, this, [this] { follow(left_, right_); });
  connect(right_, &GraphView::viewChanged, this, [this] { follow(right_, left_); });
  for (GraphView* v : {left_, right_}) {
    connect(v, &GraphView::itemSelected, &model_, &ExplorerModel::select);
    connect(v, &GraphView::layoutFinished, this, [this, v] { v->highlight(differences_); });
  }
  connect(&model_, &ExplorerModel::selectionChanged, this, [this](const view::ItemRef& ref) {
    if (!model_.isOpen()) return;
    for (GraphView* v : {left_, right_})
      if (std::optional<view::ItemRef> drawn = view::counterpartIn(v->graph(), model_.session(), ref)) v->select(*drawn);
  });
}

SideBySideView::~SideBySideView() = default;

void SideBySideView::pinCurrent() {
  pin(model_.session().strategy().selected(), tr("pinned strategy"));
  rebuild();
}

void SideBySideView::pin(std::set<int> selected, const QString& label) {
  pinned_ = std::make_unique<PointsToGraph>(model_.session().vtog(), std::move(selected));
  leftLabel_->setText(tr("%1: %2 edges").arg(label).arg(pinned_->selected().size()));
  left_->setGraph(view::buildPointsToGraph(*pinned_));
}

void SideBySideView::rebuild() {
  if (!pinned_) return;
  stale_ = !isVisible(); // built when shown: two points-to graphs cost as much as a selection
  if (stale_) return;
  const PointsToGraph& current = model_.session().strategy();
  differences_ = view::strategyDifferences(*pinned_, current);
  rightLabel_->setText(tr("current strategy: %1 edges, %2 differences").arg(current.selected().size()).arg(differences_.size()));
  right_->setGraph(view::buildPointsToGraph(current));
  left_->highlight(differences_);
}

// Synchronised navigation: the other pane takes the same zoom and centre.
void SideBySideView::follow(GraphView* from, GraphView* to) {
  if (following_) return;
  following_ = true;
  to->setViewTransform(from->viewTransform(), from->viewCentre());
  following_ = false;
}

void SideBySideView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (stale_) rebuild();
}

bool SideBySideView::isLayoutPending() const { return left_->isLayoutPending() || right_->isLayoutPending(); }

} // namespace tcx::viz
