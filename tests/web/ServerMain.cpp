// Catch2's main for the server tests: a QCoreApplication, whose event loop
// the tests spin while they wait for answers from a real server on loopback.
#include "support/CatchSession.h"

#include <QCoreApplication>

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  return tcx::test::runCatchSession(argc, argv);
}
