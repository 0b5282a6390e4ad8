#pragma once
// The μGraphs tab: the superoptimizer (Mirage Algorithm 1) on one LAX
// subprogram of the open model. Pick the subprogram (the reference, drawn at
// once), set the search's limits (kernel and block operators, time, abstract
// pruning) and start it: it runs off the UI thread, its counters (explored,
// pruned, candidates, verified, elapsed) follow its progress reports, and
// Cancel stops it. The candidates are listed best first with their
// estimated time, speedup over the reference, verdict and kernels; choosing
// one draws it in the μGraph view beside the list.

#include "CandidateTableModel.h"
#include "ExplorerModel.h"

#include "superopt/SuperoptSearch.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace tcx::viz {

class MuGraphPanel;

class SuperoptPanel : public QWidget {
  Q_OBJECT

public:
  explicit SuperoptPanel(ExplorerModel& model, QWidget* parent = nullptr);
  // Cancels a running search and waits for it.
  ~SuperoptPanel() override;

  // The open model's LAX subprograms as μGraphs, then any added references.
  const std::vector<mugraph::KernelGraph>& references() const { return references_; }
  // Makes reference `index` the one searched and draws it.
  void chooseReference(int index);
  // A program from elsewhere as a reference; it is listed and chosen.
  void addReference(mugraph::KernelGraph reference);

  // The limits set in the panel over SearchOptions' defaults.
  superopt::SearchOptions options() const;
  // Sets the panel's fields from `options` (operators, time limit, pruning).
  void setOptions(const superopt::SearchOptions& options);

  void start();
  void cancel();
  bool isRunning() const { return running_; }
  // The last search's result; nullopt before the first ends.
  const std::optional<superopt::SearchResult>& result() const { return result_; }
  const superopt::SearchProgress& progress() const { return progress_; }
  // "exhausted: 3 candidates, 2 verified, in 1.2 s", "cancelled after ...".
  QString statusText() const;
  // "pass 2 × 3 · explored ... · 1.2 s": the live counters, the deepening pass first.
  QString countersText() const;

  CandidateTableModel& candidates() const { return *candidates_; }
  // Draws candidate `row` (as selecting its row does).
  void chooseCandidate(int row);
  MuGraphPanel& graphPanel() const { return *graphs_; }

signals:
  void searchFinished();

private:
  struct Outcome;

  void loadModel();
  std::shared_ptr<Outcome> search(unsigned generation, mugraph::KernelGraph reference, superopt::SearchOptions options);
  void showProgress(unsigned generation, const superopt::SearchProgress& progress);
  void finish();
  void setRunning(bool running);

  ExplorerModel& model_;
  std::vector<mugraph::KernelGraph> references_;
  QComboBox* reference_;
  QSpinBox* maxKernelOps_;
  QSpinBox* maxBlockOps_;
  QDoubleSpinBox* timeLimit_;
  QCheckBox* pruning_;
  QPushButton* start_;
  QPushButton* cancel_;
  QPushButton* showReference_;
  QProgressBar* elapsed_;
  QLabel* counters_;
  QLabel* status_;
  QTableView* table_;
  CandidateTableModel* candidates_;
  MuGraphPanel* graphs_;

  QFutureWatcher<std::shared_ptr<Outcome>> watcher_;
  std::atomic<bool> cancelSearch_{false};
  // True from start() until finish() has shown the outcome. Not the
  // watcher's state: its future ends before its finished signal is delivered.
  bool running_ = false;
  unsigned generation_ = 0;     // of the latest search: late progress of an older one is dropped
  double timeLimitSeconds_ = 0; // of the running search
  std::string presetName_;      // the GPU its estimates are for
  superopt::SearchProgress progress_;
  std::optional<superopt::SearchResult> result_;
};

} // namespace tcx::viz
