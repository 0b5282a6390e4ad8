#pragma once
// The explorer's state, shared by every view: the open model's VtcSession,
// the user's strategy constraints, the current selection (an ItemRef) and
// where the latencies come from. Views read the session and listen to the
// signals; they change the state only through this class, so every view
// sees the same strategy and selection.
//
// Importing and measuring run off the UI thread. While a measurement runs
// it reads the session, so strategy changes wait until it ends or is
// cancelled (they are refused with a message meanwhile).

#include "vt/EdgeState.h"

#include "pipeline/VtcSession.h"
#include "view/ItemRef.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace tcx::viz {

class ExplorerModel : public QObject {
  Q_OBJECT

public:
  explicit ExplorerModel(QObject* parent = nullptr);
  ~ExplorerModel() override;

  // Imports `path` and runs selection with no constraints, off the UI
  // thread; emits opened() or error() (naming file, node and op).
  void open(const QString& path);
  bool isOpen() const { return session_ != nullptr; }
  bool isLoading() const;
  const QString& modelPath() const { return modelPath_; }
  // Requires isOpen().
  const VtcSession& session() const { return *session_; }

  EdgeState edgeState(int edge) const;
  // Re-run selection on the cost model (synchronously: it takes
  // milliseconds). Contradictory constraints emit error() with the core's
  // message and keep the previous strategy; the result says which happened.
  bool setEdgeState(int edge, EdgeState state);
  bool setConstraints(const StrategyConstraints& constraints);
  bool setConstraints(const EdgeConstraintSpecs& specs);
  // Wall time of the last selection run, in seconds.
  double lastSelectSeconds() const { return lastSelectSeconds_; }
  // Every pass the open model went through, timed: import's canonicalising
  // passes, then the session's VTC pipelines (what `tcx --time-passes` prints).
  PassTimings passTimings() const;

  const std::optional<view::ItemRef>& selection() const { return selection_; }
  // Emits selectionChanged when `ref` differs from the current selection.
  void select(const view::ItemRef& ref);

  // Times both plans on the GPU in the background and checks their outputs
  // against the CPU reference (progress through busy(), then
  // latencyChanged); without a device it emits error() saying why, and a
  // plan that fails its check emits error() as well.
  void measure();
  void cancel();
  bool isMeasuring() const;
  // "estimated (h100-sxm)" or "measured (NVIDIA H100 ...)".
  QString latencySource() const;
  // While the latencies are measured: the check of both plans' GPU outputs
  // ("GPU outputs checked against the CPU reference: baseline passed ..."); else empty.
  QString checkVerdict() const;
  // Why measured mode is unavailable ("no CUDA device: ..."), or empty.
  QString gpuUnavailableReason() const;

signals:
  void opened();
  void selectionChanged(const tcx::view::ItemRef& ref);
  void strategyChanged();
  void latencyChanged();
  // Long work: `what` is running, `percent` done (-1: unknown); finished
  // when `running` is false.
  void busy(bool running, int percent, const QString& what);
  void error(const QString& message);
  // Constraints the core rejected (also reported through error()).
  void strategyRejected(const QString& message);

private:
  struct Loaded;
  struct Measured;

  static std::shared_ptr<Loaded> load(const std::string& path);
  void finishOpen();
  void finishMeasure();
  void reportProgress(int percent, const QString& what);
  bool reselect(const std::function<void()>& select);
  void rejectStrategy(const QString& message);

  std::unique_ptr<VtcSession> session_;
  unsigned sessionGeneration_ = 0; // counts opened models
  QString checkVerdict_;           // of the last measurement
  QString modelPath_, pendingPath_;
  std::optional<view::ItemRef> selection_;
  double lastSelectSeconds_ = 0;
  PassTimings importTimings_;
  QFutureWatcher<std::shared_ptr<Loaded>> loader_;
  QFutureWatcher<std::shared_ptr<Measured>> measurer_;
  std::atomic<bool> cancelMeasure_{false};
};

} // namespace tcx::viz
