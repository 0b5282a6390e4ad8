#include "GraphView.h"

#include "MiniMap.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QKeyEvent>
#include <QPainter>
#include <QSvgGenerator>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

namespace tcx::viz {

namespace {

constexpr double kMinScale = 0.02, kMaxScale = 8.0;
constexpr double kMaxFitScale = 1.5; // a small graph is not blown up to fill the view
constexpr double kWheelZoomPerDegree = 1.0015;
constexpr double kKeyZoom = 1.25;
constexpr double kPngScale = 2.0, kMaxPngSide = 8000;
constexpr int kMiniMapWidth = 200, kMiniMapHeight = 140, kMiniMapMargin = 8;

// What a worker thread hands back: Graphviz errors travel as text, since
// exceptions do not cross QtConcurrent.
struct LayoutOutcome {
  GraphGeometry geometry;
  QString error;
};

LayoutOutcome layOut(const view::DisplayGraph& graph) {
  try {
    return {layoutGraph(graph), {}};
  } catch (const std::exception& e) {
    return {{}, QString::fromUtf8(e.what())};
  }
}

} // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent), scene_(new GraphScene(this)) {
  setScene(scene_);
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(ScrollHandDrag);
  setTransformationAnchor(AnchorUnderMouse);
  setBackgroundBrush(Qt::white);
  setFocusPolicy(Qt::StrongFocus);
  miniMap_ = new MiniMap(this, this);
  miniMap_->hide();
  connect(this, &GraphView::viewChanged, miniMap_->viewport(), qOverload<>(&QWidget::update));
}

GraphView::~GraphView() = default;

void GraphView::setGraph(view::DisplayGraph graph) {
  graph_ = std::move(graph);
  const unsigned generation = ++generation_;
  ++pendingLayouts_;
  auto* watcher = new QFutureWatcher<LayoutOutcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
    --pendingLayouts_;
    const LayoutOutcome outcome = watcher->result();
    watcher->deleteLater();
    if (generation != generation_) return; // a newer graph is on its way
    if (outcome.error.isEmpty())
      showLayout(outcome.geometry, graph_);
    else
      emit layoutFailed(outcome.error);
  });
  watcher->setFuture(QtConcurrent::run([graph = graph_] { return layOut(graph); }));
}

// Keeps the user's place: the zoom stays, the selection stays where it is
// still drawn; only a first drawing is fitted.
void GraphView::showLayout(const GraphGeometry& geometry, const view::DisplayGraph& graph) {
  const bool first = scene_->items().isEmpty();
  const std::optional<view::ItemRef> selection = selected();
  scene_->setContent(graph, geometry);
  if (first)
    fitAll();
  else if (selection)
    select(*selection);
  miniMap_->setVisible(!graph.nodes.empty());
  miniMap_->refit();
  emit layoutFinished();
}

bool GraphView::select(const view::ItemRef& ref) {
  GraphItem* item = scene_->itemFor(ref);
  if (!item) return false;
  scene_->clearSelection();
  item->setSelected(true);
  centerOn(item);
  return true;
}

std::optional<view::ItemRef> GraphView::selected() const {
  for (QGraphicsItem* item : scene_->selectedItems())
    if (GraphItem* g = GraphScene::graphItem(item); g && g->ref()) return g->ref();
  return std::nullopt;
}

void GraphView::highlight(const std::vector<view::ItemRef>& refs) { scene_->setHighlight(refs); }

void GraphView::setHeat(const std::map<view::ItemRef, double>& heat) { scene_->setHeat(heat); }

QRectF GraphView::drawnRect() const { return scene_->items().isEmpty() ? QRectF() : scene_->sceneRect(); }

void GraphView::fitAll() {
  const QRectF rect = drawnRect();
  if (rect.isEmpty()) return;
  fitInView(rect, Qt::KeepAspectRatio);
  if (transform().m11() > kMaxFitScale) setTransform(QTransform::fromScale(kMaxFitScale, kMaxFitScale));
  centerOn(rect.center());
  emit viewChanged();
}

void GraphView::zoomBy(double factor) {
  const double current = transform().m11();
  const double target = std::clamp(current * factor, kMinScale, kMaxScale);
  scale(target / current, target / current);
  emit viewChanged();
}

QPointF GraphView::viewCentre() const { return mapToScene(viewport()->rect().center()); }

void GraphView::setViewTransform(const QTransform& transform, QPointF centre) {
  setTransform(transform);
  centerOn(centre);
  emit viewChanged();
}

bool GraphView::exportSvg(const QString& path) {
  const QRectF rect = drawnRect();
  if (rect.isEmpty()) return false;
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(rect.size().toSize());
  svg.setViewBox(QRectF(QPointF(0, 0), rect.size()));
  svg.setTitle(QString::fromStdString(graph_.name));
  QPainter painter;
  if (!painter.begin(&svg)) return false;
  scene_->render(&painter, QRectF(QPointF(0, 0), rect.size()), rect);
  painter.end();
  return QFileInfo(path).size() > 0;
}

bool GraphView::exportPng(const QString& path) {
  const QRectF rect = drawnRect();
  if (rect.isEmpty()) return false;
  const double scale = std::min(kPngScale, kMaxPngSide / std::max(rect.width(), rect.height()));
  QImage image((rect.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  scene_->render(&painter, QRectF(QPointF(0, 0), image.size()), rect);
  painter.end();
  return image.save(path, "PNG");
}

std::optional<view::ItemRef> GraphView::refAt(QPoint viewportPos) const {
  for (QGraphicsItem* item : items(viewportPos))
    if (GraphItem* g = GraphScene::graphItem(item); g && g->ref()) return g->ref();
  return std::nullopt;
}

void GraphView::wheelEvent(QWheelEvent* event) {
  if (!(event->modifiers() & Qt::ControlModifier)) {
    QGraphicsView::wheelEvent(event);
    return;
  }
  zoomBy(std::pow(kWheelZoomPerDegree, event->angleDelta().y()));
  event->accept();
}

void GraphView::keyPressEvent(QKeyEvent* event) {
  switch (event->key()) {
  case Qt::Key_Plus:
  case Qt::Key_Equal: zoomBy(kKeyZoom); break;
  case Qt::Key_Minus: zoomBy(1 / kKeyZoom); break;
  case Qt::Key_F: fitAll(); break;
  default: QGraphicsView::keyPressEvent(event); return;
  }
  event->accept();
}

void GraphView::mousePressEvent(QMouseEvent* event) {
  const std::optional<view::ItemRef> ref = refAt(event->pos());
  QGraphicsView::mousePressEvent(event);
  if (ref && event->button() == Qt::LeftButton) {
    // The scene selects what Qt picked; make it the item whose ref we report.
    scene_->clearSelection();
    if (GraphItem* item = scene_->itemFor(*ref)) item->setSelected(true);
    emit itemSelected(*ref);
  }
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
  QGraphicsView::mouseDoubleClickEvent(event);
  if (const std::optional<view::ItemRef> ref = refAt(event->pos()); ref && event->button() == Qt::LeftButton)
    emit itemActivated(*ref);
}

void GraphView::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  const QRect area = viewport()->geometry();
  miniMap_->setGeometry(area.right() - kMiniMapWidth - kMiniMapMargin, area.bottom() - kMiniMapHeight - kMiniMapMargin,
                        kMiniMapWidth, kMiniMapHeight);
  miniMap_->refit();
}

void GraphView::scrollContentsBy(int dx, int dy) {
  QGraphicsView::scrollContentsBy(dx, dy);
  emit viewChanged();
}

} // namespace tcx::viz
