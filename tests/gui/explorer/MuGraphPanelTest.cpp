// The μGraphs tab: drilling from a kernel graph into block and thread graphs
// and back, a superoptimizer search run to its end with its candidates
// listed, a long search cancelled promptly, and what a model without LAX
// subprograms shows.
#include "ExplorerFixture.h"

#include "../../mugraph/Programs.h"

#include "GraphTabs.h"
#include "GraphView.h"
#include "MuGraphPanel.h"
#include "SuperoptPanel.h"

#include "ops/GraphBuilder.h"
#include "onnx/OnnxExporter.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>
#include <iostream>

using namespace tcx;
using namespace tcx::viz;
namespace programs = tcx::mugraph::testing;

namespace {

bool laidOut(GraphView& view) {
  return QTest::qWaitFor([&] { return !view.isLayoutPending(); }, 30000) &&
         view.graphScene().nodeItems().size() == view.graph().nodes.size();
}

std::vector<std::string> opTypes(const view::DisplayGraph& graph) {
  std::vector<std::string> types;
  for (const view::DisplayNode& n : graph.nodes) types.push_back(n.opType);
  return types;
}

size_t countOf(const view::DisplayGraph& graph, const std::string& opType) {
  const std::vector<std::string> types = opTypes(graph);
  return static_cast<size_t>(std::count(types.begin(), types.end(), opType));
}

// Double-clicks the node drawn for `ref`, as a user does.
void doubleClick(GraphView& view, const view::ItemRef& ref) {
  REQUIRE(view.select(ref)); // centred, so on screen
  const QPoint at = view.mapFromScene(view.graphScene().itemFor(ref)->sceneBoundingRect().center());
  QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, at);
}

// The breadcrumb: the panel's one rich-text label.
QLabel* breadcrumbLabel(MuGraphPanel& panel) {
  for (QLabel* label : panel.findChildren<QLabel*>())
    if (label->textFormat() == Qt::RichText) return label;
  return nullptr;
}

// A search's limits: small programs, few operators, a few seconds at most.
// Small enough to run to its end in seconds, and it finds LoRA's
// concatenated matmul at the kernel level.
superopt::SearchOptions tinySearch() {
  superopt::SearchOptions o;
  o.maxKernelOps = 2;
  o.maxBlockOps = 1;
  o.timeLimitSeconds = 25;
  return o;
}

bool waitFinished(SuperoptPanel& panel, int timeoutMs) {
  return QTest::qWaitFor([&] { return !panel.isRunning(); }, timeoutMs);
}

} // namespace

TEST_CASE("the μGraph view drills from FlashDecoding's kernels into a block graph and back", "[gui][mugraph]") {
  MuGraphPanel panel;
  panel.resize(1000, 800);
  panel.show();
  panel.setGraph(programs::flashDecoding({.heads = 2, .kvHeads = 2, .queryLen = 1, .kvLen = 8, .headDim = 4}, 2, 2));
  GraphView& view = *panel.view();
  REQUIRE(laidOut(view));
  CHECK(panel.breadcrumbText() == "kernel");
  CHECK(panel.titleText() == "kernel graph flash_decoding");
  CHECK(countOf(view.graph(), "GraphDefined") == 2);
  CHECK(countOf(view.graph(), "Input") == 3);
  CHECK_FALSE(panel.descend(0)); // an input has no graph to open
  CHECK(panel.level().empty());

  // Selecting shows the details; double-clicking a kernel opens its block graph.
  REQUIRE(panel.selectOp(3));
  CHECK(panel.detailsText().contains("body: block graph, grid [2,2], for-loop [2], 9 operators"));
  QSignalSpy levels(&panel, &MuGraphPanel::levelChanged);
  doubleClick(view, view::muOpRef({{}, 3}));
  REQUIRE(levels.count() == 1);
  CHECK(panel.level() == view::MuGraphPath{3});
  CHECK(panel.breadcrumbText() == "kernel › block 3");
  CHECK(panel.titleText() == "block graph of operator 3: grid [2,2], for-loop [2]");
  REQUIRE(laidOut(view));
  CHECK(countOf(view.graph(), "InputIterator") == 3);
  CHECK(countOf(view.graph(), "OutputAccumulator") == 2);
  CHECK(view.graph().nodes[1].label == "InputIterator #1 k_t\nimap {x→0, y→2}\nfmap {i→2}\n[1,4,2]");
  REQUIRE(panel.selectOp(2));
  CHECK(panel.detailsText().contains("reads parent input #2: v [2,8,4] f16\nimap {x→0, y→1}\nfmap {i→1}"));

  // The breadcrumb's first entry is a link back to the kernel graph.
  QLabel* breadcrumb = breadcrumbLabel(panel);
  REQUIRE(breadcrumb);
  CHECK(breadcrumb->text() == "<a href=\"0\">kernel</a> › <b>block 3</b>");
  emit breadcrumb->linkActivated("0");
  CHECK(panel.level().empty());
  CHECK(panel.breadcrumbText() == "kernel");
  REQUIRE(laidOut(view));
  CHECK(countOf(view.graph(), "GraphDefined") == 2);
  CHECK(panel.detailsText().isEmpty());
}

TEST_CASE("the μGraph view opens FlashAttention's thread graph two levels down", "[gui][mugraph]") {
  MuGraphPanel panel;
  panel.resize(1000, 800);
  panel.show();
  panel.setGraph(programs::flashAttention({.heads = 2, .kvHeads = 2, .queryLen = 4, .kvLen = 8, .headDim = 4}, 2, 2));
  REQUIRE(panel.descend(3));
  REQUIRE(laidOut(*panel.view()));
  REQUIRE(countOf(panel.view()->graph(), "GraphDefined") == 1);
  doubleClick(*panel.view(), view::muOpRef({{3}, 4}));
  CHECK(panel.level() == view::MuGraphPath{3, 4});
  CHECK(panel.breadcrumbText() == "kernel › block 3 › thread 4");
  CHECK(panel.titleText() == "thread graph of operator 3/4: block [4], for-loop []");
  REQUIRE(laidOut(*panel.view()));
  CHECK(opTypes(panel.view()->graph()) == std::vector<std::string>{"InputIterator", "EwExp", "OutputAccumulator"});
  REQUIRE(panel.selectOp(0));
  CHECK(panel.detailsText().startsWith("3/4/0 InputIterator (thread level)\nreads parent input #0: Matmul 3 [1,2,4]"));

  QLabel* breadcrumb = breadcrumbLabel(panel);
  REQUIRE(breadcrumb);
  emit breadcrumb->linkActivated("1");
  CHECK(panel.breadcrumbText() == "kernel › block 3");
  panel.ascend(0);
  CHECK(panel.breadcrumbText() == "kernel");
  panel.ascend(3); // deeper than shown: nothing
  CHECK(panel.level().empty());
}

TEST_CASE("a tiny LoRA search runs to its end and lists its candidates", "[gui][mugraph][superopt]") {
  ExplorerModel model;
  SuperoptPanel panel(model);
  panel.resize(1400, 800);
  panel.show();
  const mugraph::KernelGraph reference = programs::lora({.tokens = 2, .in = 4, .out = 4, .rank = 2});
  panel.addReference(reference);
  // The reference is drawn before any search.
  REQUIRE(panel.graphPanel().graph() == reference);
  CHECK(panel.graphPanel().titleText() == "Reference: kernel graph lora");
  panel.setOptions(tinySearch());
  CHECK(panel.options().maxKernelOps == 2);
  CHECK(panel.options().maxBlockOps == 1);
  CHECK(panel.options().timeLimitSeconds == 25);

  QSignalSpy finished(&panel, &SuperoptPanel::searchFinished);
  QElapsedTimer timer;
  timer.start();
  panel.start();
  REQUIRE(panel.isRunning());
  REQUIRE(finished.wait(30000));
  std::cout << "tiny LoRA search: " << timer.elapsed() << " ms, " << panel.statusText().toStdString() << "\n";
  REQUIRE(panel.result());
  const superopt::SearchResult& result = *panel.result();
  CHECK(result.stop == superopt::StopReason::Exhausted);
  CHECK(panel.statusText().startsWith(superopt::stopReasonName(result.stop)));
  CHECK(panel.statusText().contains(QString("pruning: %1 proved by normal forms, %2 not")
                                        .arg(result.solver.closureProved)
                                        .arg(result.solver.closureMissed)));
  CHECK(panel.progress().explored == result.progress.explored);
  CHECK(result.progress.explored > 0);
  CHECK(panel.countersText().startsWith(
      QString("pass %1 × %2 · explored %3").arg(result.progress.kernelOps).arg(result.progress.blockOps).arg(
          result.progress.explored)));

  const CandidateTableModel& table = panel.candidates();
  REQUIRE(table.rowCount() == static_cast<int>(result.candidates.size()));
  REQUIRE(table.rowCount() > 0);
  for (int row = 0; row < table.rowCount(); ++row) {
    const superopt::Candidate& c = result.candidates[static_cast<size_t>(row)];
    CHECK(table.data(table.index(row, CandidateTableModel::Rank), Qt::DisplayRole).toInt() == row + 1);
    CHECK(table.data(table.index(row, CandidateTableModel::Verdict), Qt::DisplayRole).toString() ==
          verify::verdictName(c.verdict.verdict));
    CHECK(table.data(table.index(row, CandidateTableModel::Speedup), Qt::DisplayRole).toString() ==
          QString("%1×").arg(result.referenceMicros / c.estimatedMicros, 0, 'f', 2));
  }
  // The best is X A, then the concatenated matmul: two launches, no block graph.
  CHECK(table.data(table.index(0, CandidateTableModel::Kernels), Qt::DisplayRole).toString() ==
        "2 (0 graph-defined)");
  // The best candidate is drawn; choosing another draws it instead.
  CHECK(panel.graphPanel().graph() == result.candidates.front().graph);
  CHECK(panel.graphPanel().titleText().startsWith(
      QString("Candidate 1 (%1): kernel graph").arg(verify::verdictName(result.candidates.front().verdict.verdict))));
  panel.chooseCandidate(table.rowCount() - 1);
  CHECK(panel.graphPanel().graph() == result.candidates.back().graph);
  panel.chooseReference(0);
  CHECK(panel.graphPanel().graph() == reference);
}

TEST_CASE("Cancel stops a long search within 2 s and says so", "[gui][mugraph][superopt]") {
  ExplorerModel model;
  SuperoptPanel panel(model);
  panel.show();
  panel.addReference(programs::attention({.heads = 2, .kvHeads = 2, .queryLen = 1, .kvLen = 8, .headDim = 4}));
  superopt::SearchOptions o; // Mirage's limits without a time limit: hours of work
  o.abstractPruning = false;
  panel.setOptions(o);
  panel.start();
  QTest::qWait(700);
  REQUIRE(panel.isRunning());
  // The counters follow the worker's progress reports while it runs.
  const int64_t exploredBeforeCancel = panel.progress().explored;
  CHECK(exploredBeforeCancel > 0);
  QElapsedTimer timer;
  timer.start();
  panel.cancel();
  REQUIRE(waitFinished(panel, 10000));
  const qint64 cancelMs = timer.elapsed();
  std::cout << "cancel took " << cancelMs << " ms after " << exploredBeforeCancel << " prefixes\n";
  CHECK(cancelMs < 2000);
  INFO(panel.statusText().toStdString());
  REQUIRE(panel.result());
  CHECK(panel.result()->stop == superopt::StopReason::Cancelled);
  CHECK(panel.statusText().startsWith("cancelled"));
  CHECK(panel.progress().explored >= exploredBeforeCancel);
}

TEST_CASE("the μGraphs tab offers a model's LAX subprograms, or says there are none", "[gui][mugraph]") {
  auto window = test::openSample("lora");
  SuperoptPanel& panel = *window->tabs().superopt();
  REQUIRE_FALSE(panel.references().empty());
  window->tabs().setCurrentIndex(GraphTabs::MuGraphs);
  CHECK(window->tabs().currentView() == panel.graphPanel().view());
  REQUIRE(test::waitLayouts(*window));
  CHECK(panel.graphPanel().graph() == panel.references().front());
  CHECK(countOf(panel.graphPanel().view()->graph(), "Matmul") >= 3);

  // Transpose and Relu have no μGraph form: nothing to search.
  GraphBuilder b("no_lax");
  Value* x = b.input("x", DType::F32, {4, 8});
  b.output(b.op("Relu", {b.op("Transpose", {x}, attrs({{"perm", std::vector<int64_t>{1, 0}}}))}));
  QTemporaryDir dir;
  const QString path = dir.filePath("no_lax.onnx");
  exportOnnx(b.finish(), path.toStdString());
  REQUIRE(test::openAndWait(*window, path));
  CHECK(panel.references().empty());
  CHECK(panel.statusText() == "This model has no LAX subprogram: nothing to superoptimize.");
  CHECK(panel.graphPanel().titleText() == panel.statusText());
  CHECK_FALSE(panel.graphPanel().graph());
}
