// How long the explorer takes to open a 1,000-op model (a 22-layer Llama
// decode at reduced shapes, written as ONNX) and to apply a strategy change
// on it: import, fusion, VTOG, selection, plans, every panel and the first
// layouts.
#include "ExplorerFixture.h"

#include "GraphTabs.h"
#include "StrategyPanel.h"

#include "onnx/OnnxExporter.h"
#include "view/ViewSamples.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <iostream>

using namespace tcx;
using namespace tcx::viz;

TEST_CASE("a 1,000-op model opens in the explorer", "[gui][explorer]") {
  Graph g = samples::buildLlama3Decode(view::testing::smallLlama(22));
  const size_t ops = g.numNodes();
  REQUIRE(ops >= 1000);
  QTemporaryDir dir;
  const QString path = dir.filePath("llama22.onnx");
  QFile f(path);
  REQUIRE(f.open(QIODevice::WriteOnly));
  const std::string bytes = exportOnnxBytes(g);
  f.write(bytes.data(), static_cast<qint64>(bytes.size()));
  f.close();

  test::useScratchSettings();
  MainWindow window;
  window.show();
  QElapsedTimer timer;
  timer.start();
  REQUIRE(test::openAndWait(window, path));
  const qint64 openedMs = timer.elapsed();
  REQUIRE(test::waitLayouts(window));
  const qint64 drawnMs = timer.elapsed();

  const VtcSession& s = window.model().session();
  REQUIRE(!s.greedy().selected.empty());
  timer.restart();
  REQUIRE(window.strategyPanel().editState(*s.greedy().selected.begin(), EdgeState::Forbidden));
  const qint64 changeMs = timer.elapsed();
  std::cout << ops << "-op llama (" << s.vtog().edges().size() << " VTOG edges): opened in " << openedMs
            << " ms, every view drawn at " << drawnMs << " ms; a strategy change took "
            << window.model().lastSelectSeconds() * 1e3 << " ms of selection, " << changeMs
            << " ms with every view updated\n";
  CHECK(drawnMs < 30000);
  REQUIRE(test::waitLayouts(window));
}
