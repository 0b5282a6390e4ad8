#include "SearchPanel.h"

#include "GraphTabs.h"
#include "GraphView.h"

#include "support/Error.h"
#include "view/GraphSearch.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

namespace tcx::viz {

namespace {
constexpr view::SearchMode kModes[] = {view::SearchMode::Substring, view::SearchMode::OpType, view::SearchMode::Regex};
} // namespace

SearchPanel::SearchPanel(ExplorerModel& model, GraphTabs& tabs, QWidget* parent)
    : QWidget(parent), model_(model), tabs_(tabs), query_(new QLineEdit), mode_(new QComboBox), list_(new QListWidget),
      status_(new QLabel) {
  query_->setPlaceholderText(tr("Find in the current view"));
  query_->setClearButtonEnabled(true);
  mode_->addItems({tr("name"), tr("op type"), tr("regex")});
  auto* row = new QHBoxLayout;
  row->addWidget(query_, 1);
  row->addWidget(mode_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(row);
  layout->addWidget(status_);
  layout->addWidget(list_, 1);

  connect(query_, &QLineEdit::textChanged, this, &SearchPanel::run);
  connect(mode_, &QComboBox::currentIndexChanged, this, &SearchPanel::run);
  connect(&tabs_, &QTabWidget::currentChanged, this, &SearchPanel::run);
  connect(list_, &QListWidget::currentRowChanged, this, &SearchPanel::choose);
}

void SearchPanel::search(const QString& query, int mode) {
  mode_->setCurrentIndex(mode);
  query_->setText(query);
  run();
}

void SearchPanel::run() {
  results_.clear();
  list_->clear();
  GraphView* v = tabs_.currentView();
  const QString query = query_->text();
  if (!model_.isOpen() || query.isEmpty()) {
    status_->clear();
    v->highlight({});
    return;
  }
  try {
    results_ = view::search(v->graph(), query.toStdString(), kModes[mode_->currentIndex()]);
  } catch (const Error& e) {
    status_->setText(QString::fromStdString(e.what()));
    return;
  }
  const QSignalBlocker quiet(list_);
  for (const view::ItemRef& r : results_) list_->addItem(QString::fromStdString(r.key()));
  status_->setText(tr("%n match(es) in %1", nullptr, static_cast<int>(results_.size())).arg(tabs_.tabText(tabs_.currentIndex())));
  std::vector<view::ItemRef> shown; // a match inside a collapsed group lights the group
  for (const view::ItemRef& r : results_)
    if (std::optional<view::ItemRef> drawn = v->graph().drawnAs(r)) shown.push_back(*drawn);
  v->highlight(shown);
}

void SearchPanel::choose(int row) {
  if (row < 0 || row >= static_cast<int>(results_.size())) return;
  model_.select(results_[row]);
}

void SearchPanel::focusQuery() {
  query_->setFocus();
  query_->selectAll();
}

} // namespace tcx::viz
