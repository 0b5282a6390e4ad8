// tcx: the batch front end of the tensor-compiler explorer.
#include "Commands.h"
#include "ExitCode.h"

#include <cstdio>
#include <fmt/format.h>

int main(int argc, char** argv) {
  using namespace tcx::cli;
  CLI::App app{"tcx: explore and perform tensor-compiler optimizations on ONNX models (batch mode)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tcx " TCX_VERSION);
  Action action;
  addInfoCommand(app, action);
  addRunCommand(app, action);
  addDotCommand(app, action);
  std::string commandLine;
  for (int i = 0; i < argc; ++i) commandLine += (i ? " " : "") + std::string(argv[i]);
  addOptimizeCommand(app, action, commandLine);
  addProfileCommand(app, action, commandLine);
  addTraceCommand(app, action);
  addExportCommand(app, action);
  addVerifyCommand(app, action, commandLine);
  addLaxCommand(app, action, commandLine);
  addSuperoptCommand(app, action, commandLine);
  addServeCommand(app, action);
  addReportCommand(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kOk : kUsageError;
  }
  try {
    return action();
  } catch (const tcx::Error& e) {
    fmt::print(stderr, "tcx: error: {}\n", e.what());
    return exitCodeFor(e.kind());
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "tcx: error: out of memory\n");
    return kInternalError;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tcx: internal error: {}\n", e.what());
    return kInternalError;
  }
}
