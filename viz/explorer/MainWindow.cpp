#include "MainWindow.h"

#include "DetailsPanel.h"
#include "GraphTabs.h"
#include "GraphView.h"
#include "LatencyPanel.h"
#include "Palettes.h"
#include "SearchPanel.h"
#include "SourcePanel.h"
#include "StrategyPanel.h"

#include "view/VtogView.h"

#include <QApplication>
#include <QDateTime>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>

namespace tcx::viz {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), tabs_(new GraphTabs(model_)), strategy_(new StrategyPanel(model_)),
      latency_(new LatencyPanel(model_)), source_(new SourcePanel(model_)), details_(new DetailsPanel(model_)),
      search_(new SearchPanel(model_, *tabs_)), latencySource_(new QLabel), strategyTime_(new QLabel),
      progress_(new QProgressBar), cancel_(new QToolButton) {
  setWindowTitle(tr("tcx explorer"));
  setCentralWidget(tabs_);
  setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
  buildDocks();
  buildStatusBar();
  buildMenus();
  resize(1600, 1000);

  connect(&model_, &ExplorerModel::opened, this, [this] {
    setWindowTitle(tr("%1 — tcx explorer").arg(QFileInfo(model_.modelPath()).fileName()));
    rememberRecent(model_.modelPath());
    restorePending();
  });
  connect(&model_, &ExplorerModel::strategyChanged, this, [this] {
    strategyTime_->setText(tr("Strategy applied in %1 ms at %2")
                               .arg(model_.lastSelectSeconds() * 1e3, 0, 'f', 1)
                               .arg(QDateTime::currentDateTime().toString("HH:mm:ss")));
    updateStatus();
  });
  connect(&model_, &ExplorerModel::latencyChanged, this, &MainWindow::updateStatus);
  connect(&model_, &ExplorerModel::busy, this, &MainWindow::showBusy);
  connect(&model_, &ExplorerModel::error, this, [this](const QString& message) {
    pendingSession_.reset(); // a session whose model failed to open is not restored
    showError(message);
  });
  connect(tabs_, &GraphTabs::layoutFailed, this, &MainWindow::showError);
}

// The panels hold the model by reference: they go first.
MainWindow::~MainWindow() {
  qDeleteAll(findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly));
  delete takeCentralWidget();
}

void MainWindow::buildDocks() {
  struct Dock {
    QWidget* panel;
    QString title;
    Qt::DockWidgetArea area;
  };
  const Dock docks[] = {{strategy_, tr("Strategy"), Qt::BottomDockWidgetArea},
                        {latency_, tr("Latency"), Qt::BottomDockWidgetArea},
                        {source_, tr("Kernel source"), Qt::RightDockWidgetArea},
                        {details_, tr("Details"), Qt::RightDockWidgetArea},
                        {search_, tr("Search"), Qt::LeftDockWidgetArea}};
  QDockWidget* previousBottom = nullptr;
  QDockWidget* previousRight = nullptr;
  QList<QDockWidget*> created;
  for (const Dock& d : docks) {
    auto* dock = new QDockWidget(d.title, this);
    created.push_back(dock);
    dock->setObjectName(d.title);
    dock->setWidget(d.panel);
    addDockWidget(d.area, dock);
    // Two docks per side sit as tabs, so the graph keeps most of the window.
    QDockWidget*& previous = d.area == Qt::BottomDockWidgetArea ? previousBottom : previousRight;
    if (d.area != Qt::LeftDockWidgetArea) {
      if (previous) tabifyDockWidget(previous, dock);
      previous = dock;
    }
  }
  // The graph keeps most of the window: panels start narrow and short.
  resizeDocks({created[0]}, {300}, Qt::Vertical);
  resizeDocks({created[2], created[4]}, {460, 260}, Qt::Horizontal);
}

void MainWindow::buildStatusBar() {
  cancel_->setText(tr("Cancel"));
  progress_->setMaximumWidth(240);
  progress_->hide();
  cancel_->hide();
  connect(cancel_, &QToolButton::clicked, &model_, &ExplorerModel::cancel);
  statusBar()->addWidget(latencySource_, 1);
  statusBar()->addWidget(strategyTime_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_);
  updateStatus();
}

void MainWindow::openPath(const QString& path) {
  if (path.endsWith(".json", Qt::CaseInsensitive))
    openSession(path);
  else
    openModel(path);
}

void MainWindow::openModel(const QString& path) {
  pendingSession_.reset();
  model_.open(path);
}

void MainWindow::openSession(const QString& path) {
  try {
    pendingSession_ = SessionFile::load(path);
  } catch (const Error& e) {
    showError(QString::fromStdString(e.what()));
    return;
  }
  model_.open(pendingSession_->modelPath);
}

// The rest of a session, once its model is open.
void MainWindow::restorePending() {
  if (!pendingSession_) return;
  SessionState s = std::move(*pendingSession_);
  pendingSession_.reset();
  model_.setConstraints(s.constraints);
  if (std::optional<GraphTabs::Tab> tab = GraphTabs::parseTabKey(s.tab)) tabs_->setCurrentIndex(*tab);
  if (s.selection) model_.select(*s.selection);
  bookmarks_ = std::move(s.bookmarks);
  fillBookmarkMenu();
  emit sessionRestored();
}

SessionState MainWindow::sessionState() const {
  SessionState s;
  s.modelPath = model_.modelPath();
  if (model_.isOpen()) {
    const StrategyConstraints& c = model_.session().constraints();
    auto names = [](const std::set<int>& edges) {
      std::vector<std::string> out;
      for (int e : edges) out.push_back(view::vtogEdgeRef(e).name);
      return out;
    };
    s.constraints = {names(c.accepted), names(c.forced), names(c.forbidden)};
  }
  s.tab = GraphTabs::tabKey(static_cast<GraphTabs::Tab>(tabs_->currentIndex()));
  s.selection = model_.selection();
  s.bookmarks = bookmarks_;
  return s;
}

void MainWindow::showBusy(bool running, int percent, const QString& what) {
  progress_->setVisible(running);
  cancel_->setVisible(running && model_.isMeasuring());
  progress_->setRange(0, percent < 0 ? 0 : 100); // 0..0: an unknown amount of work
  if (percent >= 0) progress_->setValue(percent);
  progress_->setFormat(what + " %p%");
  if (running) statusBar()->showMessage(what);
  else statusBar()->clearMessage();
}

void MainWindow::showError(const QString& message) {
  lastError_ = message;
  auto* box = new QMessageBox(QMessageBox::Warning, tr("tcx explorer"), message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setModal(false);
  box->show();
}

void MainWindow::updateStatus() {
  if (!model_.isOpen()) {
    latencySource_->setText(tr("No model open (Ctrl+O)"));
    return;
  }
  const QString reason = model_.gpuUnavailableReason();
  latencySource_->setText(reason.isEmpty() || model_.session().latencyMeasured()
                              ? tr("Latency %1").arg(model_.latencySource())
                              : tr("Latency %1 — %2").arg(model_.latencySource(), reason));
}

QString MainWindow::statusText() const { return latencySource_->text() + " | " + strategyTime_->text(); }

void MainWindow::setDark(bool dark) {
  qApp->setPalette(explorerPalette(dark));
  source_->setDark(dark);
}

} // namespace tcx::viz
