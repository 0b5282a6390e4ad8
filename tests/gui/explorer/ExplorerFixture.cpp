#include "ExplorerFixture.h"

#include "GraphTabs.h"

#include <QCoreApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>

namespace tcx::test {

QString samplePath(const std::string& name) {
  return QString::fromStdString(std::string(TCX_SOURCE_DIR) + "/samples/" + name + ".onnx");
}

void useScratchSettings() {
  static QTemporaryDir dir;
  QCoreApplication::setOrganizationName("tcx-tests");
  QCoreApplication::setApplicationName("explorer");
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

bool openAndWait(viz::MainWindow& window, const QString& path, int timeoutMs) {
  QSignalSpy opened(&window.model(), &viz::ExplorerModel::opened);
  QSignalSpy failed(&window.model(), &viz::ExplorerModel::error);
  window.openPath(path);
  return QTest::qWaitFor([&] { return opened.size() + failed.size() > 0; }, timeoutMs) && opened.size() > 0;
}

bool waitLayouts(viz::MainWindow& window, int timeoutMs) {
  QCoreApplication::processEvents();
  return QTest::qWaitFor([&] { return !window.tabs().isLayoutPending(); }, timeoutMs);
}

std::unique_ptr<viz::MainWindow> openModel(const QString& path) {
  useScratchSettings();
  auto window = std::make_unique<viz::MainWindow>();
  window->show();
  const bool opened = openAndWait(*window, path);
  INFO(path.toStdString() << ": " << window->lastError().toStdString());
  REQUIRE(opened);
  REQUIRE(waitLayouts(*window));
  return window;
}

std::unique_ptr<viz::MainWindow> openSample(const std::string& sample) { return openModel(samplePath(sample)); }

} // namespace tcx::test
