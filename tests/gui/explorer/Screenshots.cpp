// tcx_screenshots OUTDIR: a PNG of every explorer view (each tab, side by
// side, each panel) for the llama decode and YOLO samples, the μGraph view's
// three levels (FlashAttention) and a finished superoptimizer search (a tiny
// LoRA), on the offscreen platform; the `screens` target runs it into
// build/screens.
#include "../../mugraph/Programs.h"

#include "DetailsPanel.h"
#include "GraphTabs.h"
#include "GraphView.h"
#include "LatencyPanel.h"
#include "MainWindow.h"
#include "MuGraphPanel.h"
#include "SearchPanel.h"
#include "SourcePanel.h"
#include "StrategyPanel.h"
#include "SuperoptPanel.h"

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

// FlashAttention's kernel, block and thread graphs, then a tiny LoRA search
// with its best candidate drawn.
bool shootMuGraphs(const QDir& dir) {
  namespace programs = tcx::mugraph::testing;
  ExplorerModel model;
  SuperoptPanel panel(model);
  panel.resize(1800, 1000);
  panel.show();
  MuGraphPanel& graphs = panel.graphPanel();
  auto settle = [&] {
    const bool done = QTest::qWaitFor([&] { return !graphs.view()->isLayoutPending(); }, 60000);
    graphs.view()->fitAll();
    QTest::qWait(50);
    return done;
  };
  panel.addReference(programs::flashAttention({.heads = 2, .kvHeads = 2, .queryLen = 4, .kvLen = 8, .headDim = 4}, 2, 2));
  bool ok = settle() && save(panel, dir, "mugraph-kernel");
  graphs.selectOp(3);
  ok &= graphs.descend(3) && settle() && save(panel, dir, "mugraph-block");
  graphs.selectOp(0);
  ok &= graphs.descend(4) && settle() && graphs.selectOp(0) && save(panel, dir, "mugraph-thread");

  panel.addReference(programs::lora({.tokens = 2, .in = 4, .out = 4, .rank = 2}));
  tcx::superopt::SearchOptions options;
  options.maxKernelOps = 2;
  options.maxBlockOps = 3;
  options.timeLimitSeconds = 5;
  panel.setOptions(options);
  QSignalSpy finished(&panel, &SuperoptPanel::searchFinished);
  panel.start();
  ok &= finished.wait(60000) && settle() && save(panel, dir, "superopt-lora");
  const std::vector<tcx::superopt::Candidate>& candidates = panel.candidates().candidates();
  if (candidates.empty()) return false;
  const std::vector<tcx::mugraph::Operator>& ops = candidates.front().graph.ops();
  for (size_t op = 0; op < ops.size(); ++op)
    if (ops[op].body) return ok && graphs.descend(static_cast<int>(op)) && settle() &&
                             save(panel, dir, "superopt-lora-best-block");
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
  ok &= shootMuGraphs(dir);
  return ok ? 0 : 1;
}
