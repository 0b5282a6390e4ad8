// Sessions, bookmarks and exports: a saved session reopens with the same
// model, constraints, tab, selection and bookmarks; bad session files are
// errors naming what is wrong; views export to SVG and PNG, kernels as a
// CUDA project.
#include "ExplorerFixture.h"

#include "GraphTabs.h"
#include "GraphView.h"
#include "SessionFile.h"

#include "support/Error.h"

#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>

using namespace tcx;
using namespace tcx::viz;

TEST_CASE("a saved session reopens as it was", "[gui][explorer]") {
  QTemporaryDir dir;
  const QString file = dir.filePath("llama.json");
  auto window = test::openSample("llama3_8b_decode");
  ExplorerModel& model = window->model();
  const Vtog& vtog = model.session().vtog();
  REQUIRE(vtog.edges().size() >= 2);
  REQUIRE(model.setEdgeState(0, EdgeState::Forbidden));
  REQUIRE(model.setEdgeState(1, EdgeState::Accepted));
  const view::ItemRef selection{view::ItemKind::Node, vtog.edge(0).op->name()};
  model.select(selection);
  window->tabs().setCurrentIndex(GraphTabs::VtogTab);
  REQUIRE(test::waitLayouts(*window));
  window->tabs().currentView()->zoomBy(2);
  window->addBookmark("zoomed VTOG");
  REQUIRE(window->saveSession(file));
  const std::set<int> chosen = model.session().greedy().selected;

  test::useScratchSettings();
  MainWindow reopened;
  reopened.show();
  QSignalSpy restored(&reopened, &MainWindow::sessionRestored);
  REQUIRE(test::openAndWait(reopened, file));
  REQUIRE(restored.size() == 1);
  const VtcSession& s = reopened.model().session();
  CHECK(QFileInfo(reopened.model().modelPath()).fileName() == "llama3_8b_decode.onnx");
  CHECK(s.constraints().forbidden == std::set<int>{0});
  CHECK(s.constraints().accepted == std::set<int>{1});
  CHECK(s.greedy().selected == chosen);
  CHECK(reopened.model().selection() == selection);
  CHECK(reopened.tabs().currentIndex() == GraphTabs::VtogTab);
  REQUIRE(reopened.bookmarks().size() == 1);
  CHECK(reopened.bookmarks()[0].name == "zoomed VTOG");
  CHECK(reopened.bookmarks()[0].transform == window->bookmarks()[0].transform);
  CHECK(reopened.recentFiles().contains(QFileInfo(test::samplePath("llama3_8b_decode")).absoluteFilePath()));

  REQUIRE(test::waitLayouts(reopened));
  reopened.tabs().setCurrentIndex(GraphTabs::Computation);
  reopened.goToBookmark(0);
  CHECK(reopened.tabs().currentIndex() == GraphTabs::VtogTab);
  CHECK(reopened.tabs().currentView()->viewTransform().m11() == Approx(window->bookmarks()[0].transform.m11()));
}

TEST_CASE("bad session files are errors that say what is wrong", "[gui][explorer]") {
  QTemporaryDir dir;
  auto write = [&](const char* name, const QByteArray& text) {
    QFile f(dir.filePath(name));
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(text);
    return dir.filePath(name);
  };
  auto message = [](const QString& path) {
    try {
      SessionFile::load(path);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(message(dir.filePath("none.json")), Catch::Contains("none.json") && Catch::Contains("cannot read"));
  CHECK_THAT(message(write("a.json", "{")), Catch::Contains("a.json") && Catch::Contains("not JSON"));
  CHECK_THAT(message(write("b.json", R"({"format": "x"})")), Catch::Contains("not a tcx explorer session"));
  CHECK_THAT(message(write("c.json", R"({"format": "tcx-explorer-session", "version": 1})")),
             Catch::Contains("'model'"));
  CHECK_THAT(message(write("d.json", R"({"format": "tcx-explorer-session", "version": 1, "model": "m.onnx",
                                        "selection": "nonsense"})")),
             Catch::Contains("bad selection"));

  // An unknown edge in a valid file: the model opens, the error names the edge.
  test::useScratchSettings();
  const QString e = write("e.json", QString(R"({"format": "tcx-explorer-session", "version": 1, "model": "%1",
                                                "constraints": {"forced": ["e999"]}})")
                                        .arg(test::samplePath("gqa_decode"))
                                        .toUtf8());
  MainWindow window;
  REQUIRE(test::openAndWait(window, e));
  CHECK(window.lastError().contains("e999"));
}

TEST_CASE("views export to SVG and PNG, kernels to a CUDA project", "[gui][explorer]") {
  QTemporaryDir dir;
  auto window = test::openSample("shufflenet_v2_unit");
  for (int t = 0; t < GraphTabs::NumTabs; ++t) {
    window->tabs().setCurrentIndex(t);
    REQUIRE(test::waitLayouts(*window));
    const QString base = dir.filePath(GraphTabs::tabKey(static_cast<GraphTabs::Tab>(t)));
    CHECK(window->exportView(base + ".svg"));
    CHECK(window->exportView(base + ".png"));
    CHECK(QFileInfo(base + ".svg").size() > 0);
    CHECK(QFileInfo(base + ".png").size() > 0);
  }
  CHECK(window->exportKernels(dir.filePath("cuda")));
  CHECK(QFileInfo(dir.filePath("cuda/plan.cu")).size() > 0);
  CHECK(QFileInfo(dir.filePath("cuda/CMakeLists.txt")).exists());
}

TEST_CASE("the desktop saves its model and strategy as the web report", "[gui][explorer]") {
  QTemporaryDir dir;
  auto window = test::openSample("gqa_decode");
  REQUIRE(window->model().setEdgeState(0, EdgeState::Forbidden));
  const QString path = dir.filePath("report.html");
  REQUIRE(window->saveReport(path));
  QFile file(path);
  REQUIRE(file.open(QIODevice::ReadOnly));
  const QByteArray html = file.readAll();
  CHECK(html.contains("window.TCX_SNAPSHOT = "));
  CHECK(!html.contains("<script src="));
  // The strategy recorded is the desktop's: e0 forbidden.
  CHECK(html.contains(R"("forbidden":["e0"])"));
}
