#include "StrategyPanel.h"

#include "view/ItemLinks.h"
#include "StrategyTableModel.h"

#include "view/VtogView.h"

#include <QComboBox>
#include <QHeaderView>
#include <QItemSelection>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace tcx::viz {

namespace {

// Edits the State column with the four states.
class EdgeStateDelegate : public QStyledItemDelegate {
public:
  using QStyledItemDelegate::QStyledItemDelegate;

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const override {
    auto* box = new QComboBox(parent);
    for (EdgeState s : kEdgeStates) box->addItem(edgeStateName(s));
    return box;
  }
  void setEditorData(QWidget* editor, const QModelIndex& index) const override {
    static_cast<QComboBox*>(editor)->setCurrentText(index.data(Qt::EditRole).toString());
  }
  void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override {
    model->setData(index, static_cast<QComboBox*>(editor)->currentText(), Qt::EditRole);
  }
};

} // namespace

StrategyPanel::StrategyPanel(ExplorerModel& model, QWidget* parent)
    : QWidget(parent), model_(model), edges_(new StrategyTableModel(model, this)),
      sorted_(new QSortFilterProxyModel(this)), table_(new QTableView), summary_(new QLabel), error_(new QLabel) {
  sorted_->setSourceModel(edges_);
  sorted_->setSortRole(StrategyTableModel::kSortRole);
  table_->setModel(sorted_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(StrategyTableModel::Edge, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::SelectedClicked |
                          QAbstractItemView::EditKeyPressed);
  table_->setItemDelegateForColumn(StrategyTableModel::State, new EdgeStateDelegate(table_));
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  error_->setWordWrap(true);
  error_->setStyleSheet("color: #c0392b");
  error_->hide();

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(summary_);
  layout->addWidget(table_, 1);
  layout->addWidget(error_);

  auto updateSummary = [this] {
    const VtcSession& s = model_.session();
    summary_->setText(tr("%1 VTOG edges, %2 chosen; savings %3; selection took %4 ms")
                          .arg(s.vtog().edges().size())
                          .arg(s.greedy().selected.size())
                          .arg(QString::fromStdString(s.selectionSource()))
                          .arg(model_.lastSelectSeconds() * 1e3, 0, 'f', 1));
    error_->hide();
    table_->resizeColumnsToContents();
  };
  connect(&model_, &ExplorerModel::opened, this, updateSummary);
  connect(&model_, &ExplorerModel::strategyChanged, this, updateSummary);
  connect(&model_, &ExplorerModel::strategyRejected, this, [this](const QString& message) {
    error_->setText(message);
    error_->show();
  });
  connect(&model_, &ExplorerModel::selectionChanged, this, &StrategyPanel::showSelection);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& row) {
    if (syncing_ || !row.isValid()) return;
    model_.select(view::vtogEdgeRef(sorted_->mapToSource(row).row()));
  });
}

void StrategyPanel::showSelection(const view::ItemRef& ref) {
  if (!model_.isOpen()) return;
  syncing_ = true;
  table_->clearSelection();
  QItemSelection rows;
  for (int edge : view::vtogEdgesOf(model_.session().vtog(), ref)) {
    QModelIndex first = sorted_->mapFromSource(edges_->index(edge, 0));
    rows.select(first, first.siblingAtColumn(StrategyTableModel::NumColumns - 1));
  }
  table_->selectionModel()->select(rows, QItemSelectionModel::Select);
  if (!rows.isEmpty()) table_->scrollTo(rows.indexes().front());
  syncing_ = false;
}

std::vector<int> StrategyPanel::selectedEdges() const {
  std::vector<int> edges;
  for (const QModelIndex& row : table_->selectionModel()->selectedRows()) edges.push_back(sorted_->mapToSource(row).row());
  std::sort(edges.begin(), edges.end());
  return edges;
}

QString StrategyPanel::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

bool StrategyPanel::editState(int edge, EdgeState state) {
  return edges_->setData(edges_->index(edge, StrategyTableModel::State), QString(edgeStateName(state)), Qt::EditRole);
}

} // namespace tcx::viz
