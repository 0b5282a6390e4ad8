// The explorer end to end on the offscreen platform: every sample opens and
// every view draws it, a selection in one view shows in all the others,
// search finds the right items, and a bad model file is an error message.
#include "ExplorerFixture.h"

#include "DetailsPanel.h"
#include "GraphTabs.h"
#include "GraphView.h"
#include "view/ItemLinks.h"
#include "LatencyPanel.h"
#include "PassTimingsDialog.h"
#include "SearchPanel.h"
#include "SideBySideView.h"
#include "SourcePanel.h"
#include "StrategyPanel.h"

#include "view/PointsToView.h"

#include <QAction>
#include <QMenu>
#include <QDir>
#include <QTableView>
#include <QTableWidget>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::viz;
using tcx::view::ItemKind;
using tcx::view::ItemRef;

namespace {

// A node the optimised plan computes in a kernel of its own kind: the
// first op of the first compute kernel.
ItemRef computeNode(const VtcSession& s) {
  for (const PlanKernel& k : s.optimizedPlan().kernels)
    if (!k.isDataMovement()) return {ItemKind::Node, k.fused->nodes.front()->name()};
  FAIL("no compute kernel");
  return {};
}

// Every tab draws the open model, and the panels list its plan.
void requireEveryViewDraws(MainWindow& window) {
  GraphTabs& tabs = window.tabs();
  for (int t = 0; t < GraphTabs::NumTabs; ++t) {
    tabs.setCurrentIndex(t); // a strategy view is built when first shown
    REQUIRE(test::waitLayouts(window));
    GraphView* view = tabs.currentView();
    INFO("tab " << GraphTabs::tabKey(static_cast<GraphTabs::Tab>(t)));
    CHECK(view->isVisible());
    CHECK(view->graphScene().nodeItems().size() == view->graph().nodes.size());
    CHECK(!view->graph().nodes.empty());
  }
  const VtcSession& s = window.model().session();
  CHECK(tabs.view(GraphTabs::VtogTab)->graph().edges.size() == s.vtog().edges().size());
  CHECK(window.latencyPanel().kernelTable()->model()->rowCount() == static_cast<int>(s.optimizedPlan().kernels.size()));
  CHECK(window.strategyPanel().table()->model()->rowCount() == static_cast<int>(s.vtog().edges().size()));
  CHECK(!window.sourcePanel().source().isEmpty());
  CHECK(window.lastError().isEmpty());
}

} // namespace

TEST_CASE("every sample opens and every view draws it", "[gui][explorer]") {
  QStringList samples = QDir(QString(TCX_SOURCE_DIR) + "/samples").entryList({"*.onnx"}, QDir::Files);
  for (const char* required : {"llama3_8b_decode.onnx", "yolov11_c3k2.onnx", "shufflenet_v2_unit.onnx", "gqa_decode.onnx"})
    REQUIRE(samples.contains(required));
  for (const QString& file : samples) {
    const std::string name = QFileInfo(file).completeBaseName().toStdString();
    INFO(name);
    requireEveryViewDraws(*test::openSample(name));
  }
}

TEST_CASE("real PyTorch exports open and every view draws them", "[gui][explorer][models]") {
  // One of each kind of the real-model suite (models/real), by both exporters.
  for (const char* name : {"llama3.dynamo", "bert.torchscript", "efficientnet_b0.torchscript", "shufflenet_v2.dynamo",
                           "swin.dynamo", "llama3_decode_kv.dynamo"}) {
    INFO(name);
    requireEveryViewDraws(*test::openModel(QString(TCX_SOURCE_DIR) + "/models/real/small/" + name + ".onnx"));
  }
}

TEST_CASE("a selected node shows in every view", "[gui][explorer]") {
  for (const char* sample : {"llama3_8b_decode", "yolov11_c3k2"}) {
    INFO(sample);
    auto window = test::openSample(sample);
    ExplorerModel& model = window->model();
    const VtcSession& s = model.session();
    const ItemRef node = computeNode(s);
    model.select(node);

    GraphView* computation = window->tabs().view(GraphTabs::Computation);
    REQUIRE(computation->selected());
    CHECK(*computation->selected() == *computation->graph().drawnAs(node));
    CHECK(window->detailsPanel().text().contains(QString::fromStdString(node.name)));
    const std::optional<size_t> kernel = view::planKernelOf(s.optimizedPlan(), node);
    REQUIRE(kernel);
    const SourceSpan span = window->sourcePanel().highlightedSpan();
    CHECK(!span.empty());
    CHECK(span.firstLine <= span.lastLine);
    CHECK(window->sourcePanel().status().contains("b.p[0] = "));
    CHECK(window->latencyPanel().selectedRow() >= 0);

    // A click in the kernel's code selects the kernel, and the graph follows.
    window->sourcePanel().selectLine(span.firstLine);
    REQUIRE(model.selection());
    CHECK(*model.selection() == view::kernelRef(s.optimizedPlan().kernels[*kernel]));
    CHECK(window->sourcePanel().highlightedSpan().firstLine == span.firstLine);
    CHECK(computation->selected());
  }
}

TEST_CASE("a data-movement op selects its VTOG edges and their rows", "[gui][explorer]") {
  auto window = test::openSample("llama3_8b_decode");
  ExplorerModel& model = window->model();
  const Vtog& vtog = model.session().vtog();
  REQUIRE(!vtog.edges().empty());
  const VtogEdge& edge = vtog.edges().front();
  const ItemRef op{ItemKind::Node, edge.op->name()};
  window->tabs().setCurrentIndex(GraphTabs::VtogTab);
  REQUIRE(test::waitLayouts(*window));
  model.select(op);
  const std::vector<int> expected = view::vtogEdgesOf(vtog, op);
  CHECK(window->strategyPanel().selectedEdges() == expected);
  GraphView* vtogView = window->tabs().view(GraphTabs::VtogTab);
  REQUIRE(vtogView->selected());
  CHECK(vtogView->selected()->kind == ItemKind::Edge);
  CHECK(window->detailsPanel().text().contains(QString::fromStdString(edge.op->opType())));

  // Selecting a row selects that edge everywhere.
  StrategyPanel& strategy = window->strategyPanel();
  strategy.table()->selectRow(0);
  REQUIRE(model.selection());
  CHECK(model.selection()->kind == ItemKind::Edge);
  CHECK(window->detailsPanel().text().contains("Mapping"));
}

TEST_CASE("search finds items by name, op type and regex", "[gui][explorer]") {
  auto window = test::openSample("yolov11_c3k2");
  ExplorerModel& model = window->model();
  window->tabs().setCurrentIndex(GraphTabs::Computation);
  SearchPanel& search = window->searchPanel();
  const Graph& graph = model.session().graph();

  search.search("Conv", 1);
  size_t convs = 0;
  for (const Node* n : graph.nodes()) convs += n->opType() == "Conv";
  REQUIRE(convs > 0);
  CHECK(search.results().size() == convs);
  for (const ItemRef& r : search.results()) {
    REQUIRE(r.kind == ItemKind::Node);
    CHECK(graph.findNode(r.name)->opType() == "Conv");
  }
  search.choose(0);
  REQUIRE(model.selection());
  CHECK(*model.selection() == search.results().front());

  const std::string name = graph.nodes().back()->name();
  search.search(QString::fromStdString(name), 0);
  CHECK(std::count(search.results().begin(), search.results().end(), ItemRef{ItemKind::Node, name}) == 1);

  search.search("^/.*Conv$", 2);
  for (const ItemRef& r : search.results()) CHECK(QString::fromStdString(r.name).endsWith("Conv"));
  search.search("([", 2); // a bad regex: an error in the panel, no results, no crash
  CHECK(search.results().empty());
}

TEST_CASE("a bad model file is an error message, not a crash", "[gui][explorer]") {
  test::useScratchSettings();
  QTemporaryDir dir;
  const QString bad = dir.filePath("garbage.onnx");
  QFile f(bad);
  REQUIRE(f.open(QIODevice::WriteOnly));
  f.write("this is not a protobuf");
  f.close();
  MainWindow window;
  window.show();
  CHECK_FALSE(test::openAndWait(window, bad));
  CHECK(window.lastError().contains("garbage.onnx"));
  CHECK_FALSE(window.model().isOpen());
  CHECK_FALSE(test::openAndWait(window, dir.filePath("missing.onnx")));
  CHECK(window.lastError().contains("missing.onnx"));

  // The window still works: a good model opens after the bad ones.
  CHECK(test::openAndWait(window, test::samplePath("gqa_decode")));
}

TEST_CASE("every menu action works with and without a model", "[gui][explorer]") {
  test::useScratchSettings();
  MainWindow window;
  window.show();
  // Actions that open a dialog ("…") or quit are left out: they wait for a user.
  auto triggerAll = [&] {
    for (QAction* action : window.findChildren<QAction*>())
      if (!action->menu() && !action->text().contains(QChar(0x2026)) && action->shortcut() != QKeySequence::Quit)
        action->trigger();
    QCoreApplication::processEvents();
  };
  triggerAll();
  CHECK_FALSE(window.model().isOpen());
  REQUIRE(test::openAndWait(window, test::samplePath("gqa_decode")));
  triggerAll();
  CHECK(window.model().isOpen());
  REQUIRE(test::waitLayouts(window));
}

TEST_CASE("side by side compares a pinned strategy with the current one", "[gui][explorer]") {
  auto window = test::openSample("llama3_8b_decode");
  const VtcSession& s = window->model().session();
  SideBySideView& sides = *window->tabs().sideBySide();
  window->tabs().setCurrentIndex(GraphTabs::SideBySide);
  const PointsToGraph baseline(s.vtog(), {});
  CHECK(sides.differences() == view::strategyDifferences(baseline, s.strategy()));
  CHECK(!sides.differences().empty());
  sides.pinCurrent();
  CHECK(sides.differences().empty());
  REQUIRE(test::waitLayouts(*window));
  // Navigation follows: zooming one pane zooms the other.
  sides.right()->zoomBy(1.5);
  CHECK(sides.left()->viewTransform().m11() == Approx(sides.right()->viewTransform().m11()));
}

TEST_CASE("the explorer shows the pass timings of the open model", "[gui][explorer]") {
  auto window = test::openSample("shufflenet_v2_unit");
  const PassTimings timings = window->model().passTimings();
  std::vector<std::string> pipelines;
  for (const PassTiming& t : timings.entries())
    if (pipelines.empty() || pipelines.back() != t.pipeline) pipelines.push_back(t.pipeline);
  CHECK(pipelines == std::vector<std::string>{"canonicalize", "vtc", "vtc-select"});

  PassTimingsDialog dialog(timings, window.get());
  auto* table = dialog.findChild<QTableWidget*>("passTimingsTable");
  REQUIRE(table);
  REQUIRE(table->rowCount() == static_cast<int>(timings.entries().size()) + 1);
  CHECK(table->item(0, 1)->text() == "infer-and-fold");
  CHECK(table->item(table->rowCount() - 1, 0)->text() == "total");
}
