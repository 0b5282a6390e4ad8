#include "EdgeConstraintOptions.h"

namespace tcx::cli {

void addEdgeConstraintOptions(CLI::App& command, EdgeConstraintSpecs& specs) {
  command.add_option("--accept", specs.accept, "Use this VTOG edge if it fits and saves time (e<N> or from->to)");
  command.add_option("--force", specs.force, "Use this VTOG edge even if it costs time");
  command.add_option("--forbid", specs.forbid, "Never use this VTOG edge");
}

} // namespace tcx::cli
