// tcx dot MODEL: the imported graph as Graphviz DOT.
#include "Commands.h"
#include "ModelOptions.h"

#include "ir/Printer.h"
#include "support/AtomicFile.h"

#include <iostream>
#include <memory>
#include <sstream>

namespace tcx::cli {

namespace {
struct DotOptions {
  ModelOptions model;
  std::string out;
};
} // namespace

void addDotCommand(CLI::App& app, Action& action) {
  auto opts = std::make_shared<DotOptions>();
  CLI::App* cmd = app.add_subcommand("dot", "Write the imported (folded) graph as Graphviz DOT");
  opts->model.addTo(*cmd);
  cmd->add_option("-o,--out", opts->out, "Output file (default: standard output)");
  cmd->callback([opts, &action] {
    action = [opts] {
      Graph graph = opts->model.load();
      std::ostringstream dot;
      writeDot(graph, dot);
      if (opts->out.empty())
        std::cout << dot.str();
      else
        writeFileAtomically(opts->out, dot.str());
      return 0;
    };
  });
}

} // namespace tcx::cli
