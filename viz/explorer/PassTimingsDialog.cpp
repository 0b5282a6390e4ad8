#include "PassTimingsDialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tcx::viz {

namespace {

QTableWidgetItem* cell(const QString& text, bool number = false) {
  auto* item = new QTableWidgetItem(text);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

} // namespace

PassTimingsDialog::PassTimingsDialog(const PassTimings& timings, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Pass Timings"));
  setObjectName("passTimings");
  const std::vector<PassTiming>& entries = timings.entries();
  auto* table = new QTableWidget(static_cast<int>(entries.size()) + 1, 3, this);
  table->setObjectName("passTimingsTable");
  table->setHorizontalHeaderLabels({tr("Pipeline"), tr("Pass"), tr("Wall time (ms)")});
  table->verticalHeader()->hide();
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  for (int row = 0; row < static_cast<int>(entries.size()); ++row) {
    table->setItem(row, 0, cell(QString::fromStdString(entries[row].pipeline)));
    table->setItem(row, 1, cell(QString::fromStdString(entries[row].pass)));
    table->setItem(row, 2, cell(QString::number(entries[row].seconds * 1e3, 'f', 3), true));
  }
  const int total = static_cast<int>(entries.size());
  table->setItem(total, 0, cell(tr("total")));
  table->setItem(total, 2, cell(QString::number(timings.totalSeconds() * 1e3, 'f', 3), true));
  table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table);
  layout->addWidget(buttons);
  resize(520, 360);
}

} // namespace tcx::viz
