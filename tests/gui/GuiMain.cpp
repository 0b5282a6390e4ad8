// Catch2's main for the GUI tests: a QApplication on the offscreen platform
// (no display needed), created before any test case runs.
#include "support/CatchSession.h"

#include <QApplication>
#include <cstdlib>

int main(int argc, char** argv) {
  setenv("QT_QPA_PLATFORM", "offscreen", /*overwrite=*/0);
  QApplication app(argc, argv);
  return tcx::test::runCatchSession(argc, argv);
}
