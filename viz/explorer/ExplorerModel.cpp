#include "ExplorerModel.h"

#include "backend/GpuBackend.h"
#include "target/GpuPreset.h"
#include "onnx/OnnxImporter.h"
#include "support/Error.h"

#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <functional>

namespace tcx::viz {

// What a background import hands back: the session, or why there is none.
struct ExplorerModel::Loaded {
  std::unique_ptr<VtcSession> session;
  PassTimings importTimings;
  double selectSeconds = 0;
  QString error;
};

struct ExplorerModel::Measured {
  unsigned session = 0;                            // the sessionGeneration_ it measured
  std::optional<backend::MeasuredLatency> latency; // nullopt: cancelled
  QString error;
};

namespace {

// Repetitions per plan in measured mode: enough for a stable median, few
// enough to keep the explorer responsive.
constexpr int kMeasureRepetitions = 20;

// Seconds `work` took.
double timed(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

ExplorerModel::ExplorerModel(QObject* parent) : QObject(parent) {
  connect(&loader_, &QFutureWatcherBase::finished, this, &ExplorerModel::finishOpen);
  connect(&measurer_, &QFutureWatcherBase::finished, this, &ExplorerModel::finishMeasure);
}

ExplorerModel::~ExplorerModel() {
  cancelMeasure_ = true;
  measurer_.waitForFinished();
  loader_.waitForFinished();
}

bool ExplorerModel::isLoading() const { return loader_.isRunning(); }
bool ExplorerModel::isMeasuring() const { return measurer_.isRunning(); }

void ExplorerModel::open(const QString& path) {
  emit busy(true, -1, tr("Opening %1").arg(path));
  pendingPath_ = path;
  loader_.setFuture(QtConcurrent::run([p = path.toStdString()] { return load(p); }));
}

void ExplorerModel::finishOpen() {
  std::shared_ptr<Loaded> loaded = loader_.result();
  emit busy(false, 100, {});
  if (!loaded->session) {
    emit error(loaded->error);
    return;
  }
  // A measurement reads the session about to be replaced: it stops after
  // its current step.
  cancel();
  measurer_.waitForFinished();
  session_ = std::move(loaded->session);
  ++sessionGeneration_;
  lastSelectSeconds_ = loaded->selectSeconds;
  importTimings_ = std::move(loaded->importTimings);
  modelPath_ = pendingPath_;
  selection_.reset();
  emit opened();
  emit strategyChanged();
  emit latencyChanged();
}

EdgeState ExplorerModel::edgeState(int edge) const { return tcx::edgeState(session_->constraints(), edge); }

bool ExplorerModel::setEdgeState(int edge, EdgeState state) {
  return isOpen() && setConstraints(withEdgeState(session_->constraints(), edge, state));
}

bool ExplorerModel::setConstraints(const StrategyConstraints& constraints) {
  return reselect([&] { session_->select(constraints); });
}

bool ExplorerModel::setConstraints(const EdgeConstraintSpecs& specs) {
  return reselect([&] { session_->select(specs); });
}

// VtcSession::select changes nothing when it raises, so a rejected
// constraint leaves the previous strategy in place.
bool ExplorerModel::reselect(const std::function<void()>& select) {
  if (!isOpen()) return false;
  if (isMeasuring()) {
    rejectStrategy(tr("A measurement is running: cancel it before changing the strategy."));
    return false;
  }
  try {
    lastSelectSeconds_ = timed(select);
  } catch (const Error& e) {
    rejectStrategy(QString::fromStdString(e.what()));
    return false;
  }
  emit strategyChanged();
  emit latencyChanged();
  return true;
}

void ExplorerModel::rejectStrategy(const QString& message) {
  emit strategyRejected(message);
  emit error(message);
}

void ExplorerModel::select(const view::ItemRef& ref) {
  if (selection_ == ref) return;
  selection_ = ref;
  emit selectionChanged(ref);
}

void ExplorerModel::measure() {
  if (!isOpen() || isMeasuring()) return;
  const QString unavailable = gpuUnavailableReason();
  if (!unavailable.isEmpty()) {
    emit error(tr("Latencies stay %1: %2").arg(latencySource(), unavailable));
    return;
  }
  cancelMeasure_ = false;
  emit busy(true, 0, tr("Measuring on the GPU"));
  const VtcSession* session = session_.get();
  measurer_.setFuture(QtConcurrent::run([this, session, generation = sessionGeneration_] {
    auto m = std::make_shared<Measured>();
    m->session = generation;
    // Progress arrives on the worker thread; the UI hears of it through the event loop.
    auto progress = [this](size_t done, size_t total, std::string_view what) {
      const int percent = static_cast<int>(100 * done / std::max<size_t>(total, 1));
      QMetaObject::invokeMethod(this, [this, percent, w = QString::fromUtf8(what.data(), static_cast<int>(what.size()))] {
        reportProgress(percent, w);
      });
    };
    const backend::MeasureControl control{
        .repetitions = kMeasureRepetitions, .cancel = &cancelMeasure_, .progress = progress};
    try {
      m->latency = backend::measurePlans(*session, control);
    } catch (const Error& e) {
      m->error = QString::fromStdString(e.what());
    }
    return m;
  }));
}

void ExplorerModel::reportProgress(int percent, const QString& what) {
  if (isMeasuring()) emit busy(true, percent, tr("Measuring: %1").arg(what));
}

void ExplorerModel::finishMeasure() {
  std::shared_ptr<Measured> m = measurer_.result();
  emit busy(false, 100, {});
  if (!m->error.isEmpty()) {
    emit error(m->error);
    return;
  }
  // Cancelled, or measured a session since replaced: the estimates stay.
  if (!m->latency || m->session != sessionGeneration_) return;
  backend::MeasuredLatency& measured = *m->latency;
  QStringList failures;
  for (const auto& [plan, check] : {std::pair{tr("baseline"), &measured.baselineCheck}, {tr("optimised"), &measured.optimizedCheck}})
    if (*check && !(*check)->passed) failures << tr("%1 %2").arg(plan, QString::fromStdString((*check)->describe()));
  checkVerdict_ = QString::fromStdString(backend::checkVerdict(measured));
  session_->setMeasuredLatency(std::move(measured.baseline), std::move(measured.optimized), std::move(measured.device));
  emit latencyChanged();
  if (!failures.isEmpty())
    emit error(tr("The GPU outputs differ from the CPU reference, so these timings are of a wrong result: %1")
                   .arg(failures.join("; ")));
}

QString ExplorerModel::checkVerdict() const {
  return session_ && session_->latencyMeasured() ? checkVerdict_ : QString();
}

void ExplorerModel::cancel() { cancelMeasure_ = true; }

QString ExplorerModel::latencySource() const {
  return session_ ? QString::fromStdString(session_->latencySource()) : QString();
}

PassTimings ExplorerModel::passTimings() const {
  PassTimings all = importTimings_;
  if (session_) all.append(session_->passTimings());
  return all;
}

QString ExplorerModel::gpuUnavailableReason() const {
  const backend::GpuStatus status = backend::gpuStatus();
  return status.available ? QString() : QString::fromStdString(status.describe);
}

std::shared_ptr<ExplorerModel::Loaded> ExplorerModel::load(const std::string& path) {
  auto loaded = std::make_shared<Loaded>();
  try {
    loaded->session =
        std::make_unique<VtcSession>(importOnnx(path, {.timings = &loaded->importTimings}), defaultGpuPreset());
    loaded->selectSeconds = timed([&] { loaded->session->select(StrategyConstraints{}); });
  } catch (const Error& e) {
    loaded->error = QString::fromStdString(e.what());
  } catch (const std::exception& e) {
    loaded->error = QString::fromStdString(path + ": " + e.what());
  }
  return loaded;
}

} // namespace tcx::viz
