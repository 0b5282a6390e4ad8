#pragma once
// --accept, --force and --forbid: the user's constraints on VTOG edges,
// shared by every command that selects a strategy.

#include "pipeline/VtcSession.h"

#include <CLI/CLI.hpp>

namespace tcx::cli {

void addEdgeConstraintOptions(CLI::App& command, EdgeConstraintSpecs& specs);

} // namespace tcx::cli
