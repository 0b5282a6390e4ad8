#include "SuperoptPanel.h"

#include "MuGraphPanel.h"

#include "superopt/Superoptimize.h"
#include "support/Error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <fmt/format.h>

namespace tcx::viz {

// What a background search hands back: its result, or why there is none.
struct SuperoptPanel::Outcome {
  unsigned generation = 0; // the search's: one a newer model superseded is dropped
  std::optional<superopt::SearchResult> result;
  QString error;
};

namespace {

// A search the panel starts without a limit would run for hours (Mirage
// reports up to 4 h for its largest programs): the field starts at a minute.
constexpr double kDefaultTimeLimitSeconds = 60;
constexpr int kSideWidth = 460; // the settings and candidates, against three for the μGraph

QString countersOf(const superopt::SearchProgress& p) {
  return QObject::tr("pass %10 × %11 · explored %1 · pruned %2 · invalid %3 · frontier %4\n"
                     "candidates %5 (%6 size variants) · verified %7 · rejected %8 · %9 s")
      .arg(p.explored)
      .arg(p.pruned)
      .arg(p.invalid)
      .arg(p.frontier)
      .arg(p.candidates)
      .arg(p.variants)
      .arg(p.verified)
      .arg(p.rejected)
      .arg(p.elapsedSeconds, 0, 'f', 1)
      .arg(p.kernelOps)
      .arg(p.blockOps);
}

} // namespace

SuperoptPanel::SuperoptPanel(ExplorerModel& model, QWidget* parent)
    : QWidget(parent), model_(model), reference_(new QComboBox), maxKernelOps_(new QSpinBox),
      maxBlockOps_(new QSpinBox), timeLimit_(new QDoubleSpinBox), pruning_(new QCheckBox(tr("Abstract pruning"))),
      start_(new QPushButton(tr("Start"))), cancel_(new QPushButton(tr("Cancel"))),
      showReference_(new QPushButton(tr("Show Reference"))), elapsed_(new QProgressBar), counters_(new QLabel),
      status_(new QLabel), table_(new QTableView), candidates_(new CandidateTableModel(this)),
      graphs_(new MuGraphPanel) {
  maxKernelOps_->setRange(1, 12);
  maxBlockOps_->setRange(1, 16);
  timeLimit_->setRange(0, 24 * 3600);
  timeLimit_->setDecimals(1);
  timeLimit_->setSpecialValueText(tr("none"));
  timeLimit_->setSuffix(tr(" s"));
  pruning_->setToolTip(tr("Prune prefixes whose abstract expression is not a subexpression of the reference's "
                          "(Mirage §4.3); off is Table 5's \"w/o abstract expression\"."));
  superopt::SearchOptions defaults;
  defaults.timeLimitSeconds = kDefaultTimeLimitSeconds;
  setOptions(defaults);
  reference_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  counters_->setWordWrap(true);
  status_->setWordWrap(true);
  elapsed_->setTextVisible(false);
  table_->setModel(candidates_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->setWordWrap(false);

  auto* form = new QFormLayout;
  form->addRow(tr("Program"), reference_);
  form->addRow(tr("Kernel operators"), maxKernelOps_);
  form->addRow(tr("Block operators"), maxBlockOps_);
  form->addRow(tr("Time limit"), timeLimit_);
  form->addRow(pruning_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(start_);
  buttons->addWidget(cancel_);
  buttons->addStretch(1);
  buttons->addWidget(showReference_);
  auto* side = new QWidget;
  auto* column = new QVBoxLayout(side);
  column->setContentsMargins(0, 0, 0, 0);
  column->addLayout(form);
  column->addLayout(buttons);
  column->addWidget(elapsed_);
  column->addWidget(counters_);
  column->addWidget(status_);
  column->addWidget(table_, 1);
  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(side);
  splitter->addWidget(graphs_);
  splitter->setSizes({kSideWidth, 3 * kSideWidth}); // scaled to the splitter's width
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);

  connect(reference_, &QComboBox::currentIndexChanged, this, &SuperoptPanel::chooseReference);
  connect(start_, &QPushButton::clicked, this, &SuperoptPanel::start);
  connect(cancel_, &QPushButton::clicked, this, &SuperoptPanel::cancel);
  connect(showReference_, &QPushButton::clicked, this, [this] { chooseReference(reference_->currentIndex()); });
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { chooseCandidate(current.row()); });
  connect(&watcher_, &QFutureWatcherBase::finished, this, &SuperoptPanel::finish);
  connect(&model_, &ExplorerModel::opened, this, &SuperoptPanel::loadModel);
  setRunning(false);
  status_->setText(tr("Open a model to search its LAX subprograms."));
}

SuperoptPanel::~SuperoptPanel() {
  cancelSearch_ = true;
  watcher_.waitForFinished();
}

// The programs `tcx superopt` searches (superoptPrograms): the LAX
// subprograms with a μGraph form.
void SuperoptPanel::loadModel() {
  cancel();
  watcher_.waitForFinished();
  setRunning(false); // the old search's finish() is stale
  ++generation_;
  references_.clear();
  const QSignalBlocker quiet(reference_);
  reference_->clear();
  candidates_->reset({}, 0);
  result_.reset();
  counters_->clear();
  std::vector<superopt::SuperoptProgram> programs;
  QString none = tr("This model has no LAX subprogram: nothing to superoptimize.");
  try {
    programs = superopt::superoptPrograms(model_.session().graph());
  } catch (const Error& e) {
    none = tr("The model's LAX subprograms have no μGraph form: %1").arg(QString::fromStdString(e.what()));
  }
  for (size_t i = 0; i < programs.size(); ++i) {
    reference_->addItem(QString::fromStdString(superopt::describeProgram(programs[i], i)));
    references_.push_back(std::move(programs[i].program));
  }
  if (references_.empty()) {
    status_->setText(none);
    graphs_->clear(none);
    setRunning(false);
    return;
  }
  status_->setText(tr("%n program(s) to search. Not searched yet.", nullptr, static_cast<int>(references_.size())));
  chooseReference(0);
}

void SuperoptPanel::addReference(mugraph::KernelGraph reference) {
  const QString name = QString::fromStdString(reference.name());
  references_.push_back(std::move(reference));
  const QSignalBlocker quiet(reference_);
  reference_->addItem(name);
  status_->setText(tr("Not searched yet."));
  chooseReference(reference_->count() - 1);
}

void SuperoptPanel::chooseReference(int index) {
  if (index < 0 || index >= static_cast<int>(references_.size())) return;
  if (reference_->currentIndex() != index) {
    const QSignalBlocker quiet(reference_);
    reference_->setCurrentIndex(index);
  }
  const QSignalBlocker quiet(table_->selectionModel());
  table_->clearSelection();
  graphs_->setGraph(references_[static_cast<size_t>(index)], tr("Reference"));
  setRunning(isRunning()); // Start needs a reference
}

superopt::SearchOptions SuperoptPanel::options() const {
  superopt::SearchOptions o;
  o.maxKernelOps = maxKernelOps_->value();
  o.maxBlockOps = maxBlockOps_->value();
  o.timeLimitSeconds = timeLimit_->value();
  o.abstractPruning = pruning_->isChecked();
  return o;
}

void SuperoptPanel::setOptions(const superopt::SearchOptions& options) {
  maxKernelOps_->setValue(options.maxKernelOps);
  maxBlockOps_->setValue(options.maxBlockOps);
  timeLimit_->setValue(options.timeLimitSeconds);
  pruning_->setChecked(options.abstractPruning);
}

void SuperoptPanel::start() {
  const int index = reference_->currentIndex();
  if (isRunning() || index < 0 || index >= static_cast<int>(references_.size())) return;
  const superopt::SearchOptions options = this->options();
  cancelSearch_ = false;
  progress_ = {};
  timeLimitSeconds_ = options.timeLimitSeconds;
  presetName_ = options.preset.name;
  const unsigned generation = ++generation_;
  candidates_->reset({}, 0);
  counters_->setText(countersOf(progress_));
  status_->setText(tr("Searching %1…").arg(reference_->currentText()));
  elapsed_->setRange(0, timeLimitSeconds_ > 0 ? 1000 : 0); // 0..0: no limit, a busy bar
  elapsed_->setValue(0);
  setRunning(true);
  watcher_.setFuture(
      QtConcurrent::run(&SuperoptPanel::search, this, generation, references_[static_cast<size_t>(index)], options));
}

// On a worker thread: the search, its progress reported to the UI thread
// through the event loop.
std::shared_ptr<SuperoptPanel::Outcome> SuperoptPanel::search(unsigned generation, mugraph::KernelGraph reference,
                                                              superopt::SearchOptions options) {
  auto outcome = std::make_shared<Outcome>();
  outcome->generation = generation;
  auto onProgress = [this, generation](const superopt::SearchProgress& p) {
    QMetaObject::invokeMethod(
        this, [this, generation, p] { showProgress(generation, p); }, Qt::QueuedConnection);
  };
  try {
    outcome->result =
        superopt::SuperoptSearch(std::move(reference), std::move(options)).run(onProgress, &cancelSearch_);
  } catch (const std::exception& e) { // tcx::Error and what Z3 or the allocator throw
    outcome->error = QString::fromStdString(e.what());
  }
  return outcome;
}

void SuperoptPanel::cancel() {
  if (!isRunning()) return;
  cancelSearch_ = true;
  status_->setText(tr("Cancelling…"));
}

void SuperoptPanel::showProgress(unsigned generation, const superopt::SearchProgress& progress) {
  if (generation != generation_ || !isRunning()) return;
  progress_ = progress;
  counters_->setText(countersOf(progress));
  if (timeLimitSeconds_ > 0)
    elapsed_->setValue(static_cast<int>(1000 * std::min(1.0, progress.elapsedSeconds / timeLimitSeconds_)));
}

void SuperoptPanel::finish() {
  std::shared_ptr<Outcome> outcome = watcher_.result();
  setRunning(false);
  if (outcome->generation != generation_) return;
  if (!outcome->result) {
    status_->setText(tr("The search failed: %1").arg(outcome->error));
    emit searchFinished();
    return;
  }
  result_ = std::move(outcome->result);
  progress_ = result_->progress;
  counters_->setText(countersOf(progress_));
  const QString reason = QString::fromUtf8(superopt::stopReasonName(result_->stop));
  status_->setText(tr("%1 after %2 s: %n candidate(s); the reference takes %3 µs, estimated (%4)\n"
                      "pruning: %5 proved by normal forms, %6 not, %7 by Z3 · %8 passes cut short · ranked in %9 s",
                      nullptr, static_cast<int>(result_->candidates.size()))
                       .arg(reason)
                       .arg(progress_.elapsedSeconds, 0, 'f', 1)
                       .arg(result_->referenceMicros, 0, 'f', 3)
                       .arg(QString::fromStdString(presetName_))
                       .arg(result_->solver.closureProved)
                       .arg(result_->solver.closureMissed)
                       .arg(result_->solver.solverCalls)
                       .arg(progress_.passesCut)
                       .arg(result_->rankingSeconds, 0, 'f', 1));
  candidates_->reset(result_->candidates, result_->referenceMicros);
  if (!result_->candidates.empty()) table_->selectRow(0);
  emit searchFinished();
}

void SuperoptPanel::chooseCandidate(int row) {
  const std::vector<superopt::Candidate>& c = candidates_->candidates();
  if (row < 0 || row >= static_cast<int>(c.size())) return;
  if (table_->currentIndex().row() != row) {
    const QSignalBlocker quiet(table_->selectionModel());
    table_->selectRow(row);
  }
  const superopt::Candidate& chosen = c[static_cast<size_t>(row)];
  graphs_->setGraph(
      chosen.graph,
      tr("Candidate %1 (%2)").arg(row + 1).arg(QString::fromUtf8(verify::verdictName(chosen.verdict.verdict))));
}

// While a search runs its program and limits stay as they are.
void SuperoptPanel::setRunning(bool running) {
  running_ = running;
  for (QWidget* w : std::initializer_list<QWidget*>{reference_, maxKernelOps_, maxBlockOps_, timeLimit_, pruning_})
    w->setEnabled(!running);
  start_->setEnabled(!running && !references_.empty());
  cancel_->setEnabled(running);
  elapsed_->setVisible(running);
}

QString SuperoptPanel::statusText() const { return status_->text(); }
QString SuperoptPanel::countersText() const { return counters_->text(); }

} // namespace tcx::viz
