// tcx_screenshots OUTDIR: a PNG of every explorer view (each tab, side by
// side, each panel) for the llama decode and YOLO samples, on the offscreen
// platform; the `screens` target runs it into build/screens.
#include "DetailsPanel.h"
#include "GraphTabs.h"
#include "GraphView.h"
#include "LatencyPanel.h"
#include "MainWindow.h"
#include "SearchPanel.h"
#include "SourcePanel.h"
#include "StrategyPanel.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTest>

#include <cstdio>

using namespace tcx::viz;

namespace {

bool save(QWidget& widget, const QDir& dir, const QString& name) {
  const QString path = dir.filePath(name + ".png");
  const bool ok = widget.grab().save(path);
  std::printf("%s %s\n", ok ? "wrote" : "FAILED", qPrintable(path));
  return ok;
}

// Opens the sample, selects its first compute op so the linked selection
// shows, and writes every view.
bool shoot(const QString& sample, const QDir& dir) {
  MainWindow window;
  window.resize(1800, 1100);
  window.show();
  QSignalSpy opened(&window.model(), &ExplorerModel::opened);
  window.openModel(QString(TCX_SOURCE_DIR) + "/samples/" + sample + ".onnx");
  if (!opened.wait(120000)) {
    std::fprintf(stderr, "%s: %s\n", qPrintable(sample), qPrintable(window.lastError()));
    return false;
  }
  // Layouts run in the background: wait for them, then let the scene paint.
  auto settle = [&] {
    const bool done = QTest::qWaitFor([&] { return !window.tabs().isLayoutPending(); }, 120000);
    QTest::qWait(50);
    return done;
  };
  bool ok = settle();
  const tcx::VtcSession& s = window.model().session();
  for (const tcx::PlanKernel& k : s.optimizedPlan().kernels)
    if (!k.isDataMovement()) {
      window.model().select({tcx::view::ItemKind::Node, k.fused->nodes.front()->name()});
      break;
    }
  window.searchPanel().search("MatMul|Conv", 2);
  for (int t = 0; t < GraphTabs::NumTabs; ++t) {
    window.tabs().setCurrentIndex(t);
    ok &= settle();
    window.tabs().currentView()->fitAll();
    ok &= save(window, dir, sample + "-" + GraphTabs::tabKey(static_cast<GraphTabs::Tab>(t)));
  }
  window.tabs().setCurrentIndex(GraphTabs::Computation);
  ok &= settle();
  for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
    dock->raise();
    QTest::qWait(20);
    ok &= save(*dock->widget(), dir, sample + "-panel-" + dock->objectName().toLower().replace(' ', '-'));
  }
  window.setDark(true);
  QTest::qWait(20);
  ok &= save(window, dir, sample + "-dark");
  window.setDark(false);
  return ok;
}

} // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
  QApplication::setStyle("Fusion");
  const QDir dir(argc > 1 ? argv[1] : "screens");
  if (!QDir().mkpath(dir.path())) return 1;
  bool ok = true;
  for (const char* sample : {"llama3_8b_decode", "yolov11_c3k2"}) ok &= shoot(sample, dir);
  return ok ? 0 : 1;
}
