#include "LatencyPanel.h"

#include "view/ItemLinks.h"
#include "PlanChoice.h"
#include "KernelTableModel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStackedBarSeries>
#include <QTableView>
#include <QValueAxis>
#include <QVBoxLayout>

namespace tcx::viz {

LatencyPanel::LatencyPanel(ExplorerModel& model, QWidget* parent)
    : QWidget(parent), model_(model), chart_(new QChart), dataMovement_(new QBarSet(tr("data movement"))),
      compute_(new QBarSet(tr("compute"))), source_(new QLabel), planChoice_(new PlanChoice),
      kernels_(new KernelTableModel(this)), sorted_(new QSortFilterProxyModel(this)), table_(new QTableView) {
  auto* series = new QStackedBarSeries;
  series->append(dataMovement_);
  series->append(compute_);
  chart_->addSeries(series);
  auto* categories = new QBarCategoryAxis;
  categories->append({tr("baseline"), tr("optimised")});
  chart_->addAxis(categories, Qt::AlignBottom);
  series->attachAxis(categories);
  auto* micros = new QValueAxis;
  micros->setTitleText(tr("µs"));
  chart_->addAxis(micros, Qt::AlignLeft);
  series->attachAxis(micros);
  chart_->legend()->setAlignment(Qt::AlignBottom);
  auto* chartView = new QChartView(chart_);
  chartView->setRenderHint(QPainter::Antialiasing);
  chartView->setMinimumHeight(220);

  sorted_->setSourceModel(kernels_);
  sorted_->setSortRole(KernelTableModel::kSortRole);
  table_->setModel(sorted_);
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(source_);
  layout->addWidget(chartView, 1);
  layout->addWidget(planChoice_);
  layout->addWidget(table_, 1);

  connect(&model_, &ExplorerModel::latencyChanged, this, &LatencyPanel::refresh);
  connect(&model_, &ExplorerModel::selectionChanged, this, &LatencyPanel::showSelection);
  connect(planChoice_, &QComboBox::currentIndexChanged, this, &LatencyPanel::refresh);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& row) {
    if (syncing_ || !row.isValid()) return;
    model_.select(view::kernelRef(shownPlan().kernels[sorted_->mapToSource(row).row()]));
  });
  if (model_.isOpen()) refresh();
}

const ExecPlan& LatencyPanel::shownPlan() const { return planChoice_->plan(model_.session()); }

void LatencyPanel::refresh() {
  if (!model_.isOpen()) return;
  const VtcSession& s = model_.session();
  const QString source = model_.latencySource();
  const PlanLatency& before = s.baselineLatency();
  const PlanLatency& after = s.optimizedLatency();
  dataMovement_->remove(0, dataMovement_->count());
  compute_->remove(0, compute_->count());
  *dataMovement_ << before.dataMovementSeconds * 1e6 << after.dataMovementSeconds * 1e6;
  *compute_ << before.computeSeconds * 1e6 << after.computeSeconds * 1e6;
  const double top = std::max(before.seconds, after.seconds) * 1e6;
  for (QAbstractAxis* axis : chart_->axes(Qt::Vertical)) axis->setRange(0.0, top * 1.1);
  chart_->setTitle(tr("Latency, %1: %2 µs → %3 µs")
                       .arg(source)
                       .arg(before.seconds * 1e6, 0, 'f', 1)
                       .arg(after.seconds * 1e6, 0, 'f', 1));
  source_->setText(tr("Every number is %1. %2").arg(source, model_.checkVerdict()).trimmed());
  kernels_->reset(&shownPlan(), &planChoice_->latency(s), source);
  table_->resizeColumnsToContents();
  if (model_.selection()) showSelection(*model_.selection());
}

void LatencyPanel::showSelection(const view::ItemRef& ref) {
  if (!model_.isOpen()) return;
  std::optional<size_t> kernel = view::planKernelOf(shownPlan(), ref);
  syncing_ = true;
  if (kernel) {
    QModelIndex row = sorted_->mapFromSource(kernels_->index(static_cast<int>(*kernel), 0));
    table_->setCurrentIndex(row);
    table_->scrollTo(row);
  } else {
    table_->clearSelection();
  }
  syncing_ = false;
}

int LatencyPanel::selectedRow() const {
  const QModelIndexList rows = table_->selectionModel()->selectedRows();
  return rows.isEmpty() ? -1 : rows.front().row();
}

std::array<double, 4> LatencyPanel::chartValues() const {
  return {dataMovement_->at(0), compute_->at(0), dataMovement_->at(1), compute_->at(1)};
}

QString LatencyPanel::chartTitle() const { return chart_->title(); }

} // namespace tcx::viz
