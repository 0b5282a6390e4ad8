#pragma once
// View > Pass Timings: the table `tcx --time-passes` prints, for the open
// model (ExplorerModel::passTimings).

#include "passes/PassPipeline.h"

#include <QDialog>

namespace tcx::viz {

class PassTimingsDialog : public QDialog {
  Q_OBJECT
public:
  PassTimingsDialog(const PassTimings& timings, QWidget* parent = nullptr);
};

} // namespace tcx::viz
