// The main window's menus and what they do: files, sessions, recent files,
// bookmarks, exports, views and the strategy.
#include "MainWindow.h"

#include "HtmlReport.h"
#include "view/VtogView.h"

#include "GraphTabs.h"
#include "GraphView.h"
#include "PassTimingsDialog.h"
#include "SearchPanel.h"
#include "SideBySideView.h"

#include "backend/KernelExport.h"
#include "support/Error.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>

namespace tcx::viz {

namespace {

constexpr int kMaxRecent = 10;
constexpr const char* kRecentKey = "recentFiles";
constexpr const char* kModelFilter = "Models and sessions (*.onnx *.json);;ONNX models (*.onnx);;Sessions (*.json)";

} // namespace

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
    QString path = QFileDialog::getOpenFileName(this, tr("Open a model or session"), {}, tr(kModelFilter));
    if (!path.isEmpty()) openPath(path);
  });
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  fillRecentMenu();
  file->addSeparator();
  file->addAction(tr("Open &Session…"), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
    QString path = QFileDialog::getOpenFileName(this, tr("Open a session"), {}, tr("Sessions (*.json)"));
    if (!path.isEmpty()) openSession(path);
  });
  file->addAction(tr("&Save Session…"), QKeySequence::Save, this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Save the session"), {}, tr("Sessions (*.json)"));
    if (!path.isEmpty()) saveSession(path);
  });
  file->addSeparator();
  file->addAction(tr("&Export View…"), QKeySequence(tr("Ctrl+E")), this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Export the view"), {}, tr("SVG (*.svg);;PNG (*.png)"));
    if (!path.isEmpty()) exportView(path);
  });
  file->addAction(tr("Export &Kernels…"), QKeySequence(tr("Ctrl+Shift+E")), this, [this] {
    QString dir = QFileDialog::getExistingDirectory(this, tr("Export the optimised plan's kernels to"));
    if (!dir.isEmpty()) exportKernels(dir);
  });
  file->addAction(tr("Save &Report (HTML)…"), this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Save the web report"), {}, tr("HTML (*.html)"));
    if (!path.isEmpty()) saveReport(path);
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(tr("&Find…"), QKeySequence::Find, this, [this] {
    findChild<QDockWidget*>(tr("Search"))->raise();
    search_->focusQuery();
  });

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  for (int t = 0; t < GraphTabs::NumTabs; ++t)
    viewMenu_->addAction(tabs_->tabText(t), QKeySequence(QString("Ctrl+%1").arg(t + 1)), this,
                         [this, t] { tabs_->setCurrentIndex(t); });
  viewMenu_->addSeparator();
  viewMenu_->addAction(tr("&Fit"), QKeySequence(tr("Ctrl+0")), this, [this] { tabs_->currentView()->fitAll(); });
  viewMenu_->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, this, [this] { tabs_->currentView()->zoomBy(1.25); });
  viewMenu_->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this, [this] { tabs_->currentView()->zoomBy(0.8); });
  viewMenu_->addSeparator();
  QAction* byKernel = viewMenu_->addAction(tr("Group by Fused &Kernel"), tabs_, &GraphTabs::setGroupByKernel);
  byKernel->setCheckable(true);
  QAction* heat = viewMenu_->addAction(tr("Latency &Heat"), tabs_, &GraphTabs::setHeatVisible);
  heat->setCheckable(true);
  heat->setChecked(true);
  QAction* dark = viewMenu_->addAction(tr("&Dark Palette"), this, &MainWindow::setDark);
  dark->setCheckable(true);
  dark->setShortcut(QKeySequence(tr("Ctrl+Shift+D")));
  viewMenu_->addAction(tr("&Pass Timings…"), this, [this] {
    if (model_.isOpen()) PassTimingsDialog(model_.passTimings(), this).exec();
  });
  viewMenu_->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) viewMenu_->addAction(dock->toggleViewAction());

  QMenu* strategy = menuBar()->addMenu(tr("&Strategy"));
  strategy->addAction(tr("&Measure on the GPU"), QKeySequence(tr("Ctrl+M")), &model_, &ExplorerModel::measure);
  strategy->addAction(tr("&Cancel"), QKeySequence(tr("Ctrl+.")), &model_, &ExplorerModel::cancel);
  strategy->addAction(tr("&Pin for Side by Side"), QKeySequence(tr("Ctrl+P")), this, [this] {
    if (model_.isOpen()) tabs_->sideBySide()->pinCurrent();
  });
  strategy->addAction(tr("&Reset Constraints"), this, [this] { model_.setConstraints(StrategyConstraints{}); });

  bookmarkMenu_ = menuBar()->addMenu(tr("&Bookmarks"));
  fillBookmarkMenu();
}

void MainWindow::fillRecentMenu() {
  recentMenu_->clear();
  for (const QString& path : recentFiles())
    recentMenu_->addAction(path, this, [this, path] { openPath(path); });
  recentMenu_->setEnabled(!recentMenu_->isEmpty());
}

QStringList MainWindow::recentFiles() const { return QSettings().value(kRecentKey).toStringList(); }

void MainWindow::rememberRecent(const QString& path) {
  QStringList recent = recentFiles();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent.removeAll(absolute);
  recent.prepend(absolute);
  while (recent.size() > kMaxRecent) recent.removeLast();
  QSettings().setValue(kRecentKey, recent);
  fillRecentMenu();
}

void MainWindow::fillBookmarkMenu() {
  bookmarkMenu_->clear();
  bookmarkMenu_->addAction(tr("&Add Bookmark…"), QKeySequence(tr("Ctrl+D")), this, [this] {
    bool ok = false;
    QString name = QInputDialog::getText(this, tr("Bookmark"), tr("Name:"), QLineEdit::Normal,
                                         tr("View %1").arg(bookmarks_.size() + 1), &ok);
    if (ok) addBookmark(name);
  });
  if (!bookmarks_.isEmpty()) bookmarkMenu_->addSeparator();
  for (int i = 0; i < bookmarks_.size(); ++i)
    bookmarkMenu_->addAction(bookmarks_[i].name, this, [this, i] { goToBookmark(i); });
}

void MainWindow::addBookmark(const QString& name) {
  GraphView* v = tabs_->currentView();
  bookmarks_.push_back({name, GraphTabs::tabKey(static_cast<GraphTabs::Tab>(tabs_->currentIndex())),
                        v->viewTransform(), v->viewCentre()});
  fillBookmarkMenu();
}

void MainWindow::goToBookmark(int index) {
  const ViewBookmark& b = bookmarks_.at(index);
  if (std::optional<GraphTabs::Tab> tab = GraphTabs::parseTabKey(b.tab)) tabs_->setCurrentIndex(*tab);
  tabs_->currentView()->setViewTransform(b.transform, b.centre);
}

bool MainWindow::saveSession(const QString& path) {
  if (!model_.isOpen()) {
    showError(tr("Open a model before saving a session."));
    return false;
  }
  try {
    SessionFile::save(path, sessionState());
  } catch (const Error& e) {
    showError(QString::fromStdString(e.what()));
    return false;
  }
  return true;
}

bool MainWindow::exportView(const QString& path) {
  GraphView* v = tabs_->currentView();
  const bool ok = path.endsWith(".png", Qt::CaseInsensitive) ? v->exportPng(path) : v->exportSvg(path);
  if (!ok) showError(tr("Could not write %1").arg(path));
  return ok;
}

bool MainWindow::exportKernels(const QString& dir) {
  if (!model_.isOpen()) {
    showError(tr("Open a model before exporting kernels."));
    return false;
  }
  try {
    backend::exportKernels(model_.session().optimizedPlan(), dir.toStdString());
  } catch (const Error& e) {
    showError(QString::fromStdString(e.what()));
    return false;
  }
  statusBar()->showMessage(tr("Kernels exported to %1: build with cmake -S %1 -B %1/build").arg(dir), 10000);
  return true;
}

// The web explorer's API opens the model afresh under the same constraints,
// so the report says what `tcx report --html` would, with the latencies
// measured here if they were.
bool MainWindow::saveReport(const QString& path) {
  if (!model_.isOpen()) {
    showError(tr("Open a model before saving a report."));
    return false;
  }
  try {
    const StrategyConstraints& c = model_.session().constraints();
    auto names = [](const std::set<int>& edges) {
      std::vector<std::string> out;
      for (int e : edges) out.push_back(view::vtogEdgeRef(e).name);
      return out;
    };
    web::ExplorerApi api(web::RootDirectory("/"), web::ApiOptions{});
    api.open(model_.modelPath().toStdString());
    api.constrain({names(c.accepted), names(c.forced), names(c.forbidden)});
    const VtcSession& session = model_.session();
    if (session.latencyMeasured())
      api.recordMeasurement(session.baselineLatency(), session.optimizedLatency(), session.latencyDevice(),
                            model_.checkVerdict().toStdString());
    web::writeHtmlReport(api, path.toStdString());
  } catch (const Error& e) {
    showError(QString::fromStdString(e.what()));
    return false;
  }
  statusBar()->showMessage(tr("Report saved to %1 (latencies %2)").arg(path, model_.latencySource()), 10000);
  return true;
}

} // namespace tcx::viz
