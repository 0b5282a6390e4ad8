// tcx-gui: the explorer. Arguments: an ONNX model or a saved session (.json).
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("tcx");
  QApplication::setApplicationName("tcx-gui");
  QApplication::setApplicationVersion(TCX_VERSION);
  QApplication::setStyle("Fusion");

  QCommandLineParser parser;
  parser.setApplicationDescription("tcx explorer: graphs, virtual-tensor strategies, latency and kernels");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("file", "An ONNX model (.onnx) or an explorer session (.json)", "[file]");
  parser.process(app);

  tcx::viz::MainWindow window;
  window.show();
  if (!parser.positionalArguments().isEmpty()) window.openPath(parser.positionalArguments().front());
  return QApplication::exec();
}
