#pragma once
// Everything known about the selected item: an op's attributes and operand
// types, a tensor's type, producer and users, a VTOG edge's mapping
// function, contiguity, conflicts and state, a kernel's ops and latency.

#include "ExplorerModel.h"

#include <QWidget>

class QTextBrowser;

namespace tcx::viz {

class DetailsPanel : public QWidget {
  Q_OBJECT

public:
  explicit DetailsPanel(ExplorerModel& model, QWidget* parent = nullptr);

  QString text() const; // the shown details, as plain text

private:
  void refresh();

  ExplorerModel& model_;
  QTextBrowser* browser_;
};

} // namespace tcx::viz
