#include "DetailsPanel.h"

#include "ItemDetails.h"

#include <QTextBrowser>
#include <QVBoxLayout>

namespace tcx::viz {

DetailsPanel::DetailsPanel(ExplorerModel& model, QWidget* parent)
    : QWidget(parent), model_(model), browser_(new QTextBrowser) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(browser_);
  connect(&model_, &ExplorerModel::selectionChanged, this, &DetailsPanel::refresh);
  // A new strategy changes an edge's state, a tensor's storage, a kernel's time.
  connect(&model_, &ExplorerModel::strategyChanged, this, &DetailsPanel::refresh);
  connect(&model_, &ExplorerModel::latencyChanged, this, &DetailsPanel::refresh);
  refresh();
}

void DetailsPanel::refresh() {
  if (!model_.isOpen() || !model_.selection()) {
    browser_->setHtml(tr("<i>Select an op, tensor, edge or kernel in any view.</i>"));
    return;
  }
  QString html = itemDetailsHtml(model_.session(), *model_.selection());
  browser_->setHtml(html.isEmpty() ? tr("<i>%1 is not in this model.</i>")
                                         .arg(QString::fromStdString(model_.selection()->key()).toHtmlEscaped())
                                   : html);
}

QString DetailsPanel::text() const { return browser_->toPlainText(); }

} // namespace tcx::viz
