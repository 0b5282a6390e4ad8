#pragma once
// tcx-gui's window: the graph views as central tabs, the panels as docks
// (strategy, latency, source, details, search), menus with shortcuts, and a
// status bar saying where latencies come from and when the strategy last
// changed. Long work shows a progress bar with a cancel button; errors show
// as non-blocking message boxes and are kept for lastError().
//
// Menus, file and session handling live in MainWindowActions.cpp.

#include "ExplorerModel.h"
#include "SessionFile.h"

#include <QMainWindow>

#include <optional>

class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;

namespace tcx::viz {

class DetailsPanel;
class GraphTabs;
class LatencyPanel;
class SearchPanel;
class SourcePanel;
class StrategyPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT

public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  ExplorerModel& model() { return model_; }
  GraphTabs& tabs() const { return *tabs_; }
  StrategyPanel& strategyPanel() const { return *strategy_; }
  LatencyPanel& latencyPanel() const { return *latency_; }
  SourcePanel& sourcePanel() const { return *source_; }
  DetailsPanel& detailsPanel() const { return *details_; }
  SearchPanel& searchPanel() const { return *search_; }

  // A model (.onnx) or a session (.json), as on the command line.
  void openPath(const QString& path);
  void openModel(const QString& path);
  // Restores the session once its model is open (sessionRestored).
  void openSession(const QString& path);
  bool saveSession(const QString& path);
  SessionState sessionState() const;

  void addBookmark(const QString& name);
  const QVector<ViewBookmark>& bookmarks() const { return bookmarks_; }
  void goToBookmark(int index);

  // The current view as SVG or PNG (by the suffix).
  bool exportView(const QString& path);
  // The optimised plan as a standalone CUDA project (as `tcx export`).
  bool exportKernels(const QString& dir);
  // The open model and strategy as the web explorer's HTML report (tcx report
  // --html); latencies estimated, as a report written by the batch mode.
  bool saveReport(const QString& path);

  void setDark(bool dark);
  QStringList recentFiles() const;
  const QString& lastError() const { return lastError_; }
  QString statusText() const;

signals:
  void sessionRestored();

private:
  void buildDocks();
  void buildMenus();
  void buildStatusBar();
  void fillRecentMenu();
  void fillBookmarkMenu();
  void rememberRecent(const QString& path);
  void restorePending();
  void showBusy(bool running, int percent, const QString& what);
  void showError(const QString& message);
  void updateStatus();

  ExplorerModel model_;
  GraphTabs* tabs_;
  StrategyPanel* strategy_;
  LatencyPanel* latency_;
  SourcePanel* source_;
  DetailsPanel* details_;
  SearchPanel* search_;
  QMenu* recentMenu_ = nullptr;
  QMenu* bookmarkMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  QLabel* latencySource_;
  QLabel* strategyTime_;
  QProgressBar* progress_;
  QToolButton* cancel_;
  QVector<ViewBookmark> bookmarks_;
  std::optional<SessionState> pendingSession_;
  QString lastError_;
};

} // namespace tcx::viz
