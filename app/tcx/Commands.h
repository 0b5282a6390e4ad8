#pragma once
// Each `tcx` subcommand registers itself on the CLI11 app and leaves the
// action to run once parsing succeeded.

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace tcx::cli {

// The parsed subcommand's body; returns the process exit code.
using Action = std::function<int()>;

void addInfoCommand(CLI::App& app, Action& action);
void addRunCommand(CLI::App& app, Action& action);
void addDotCommand(CLI::App& app, Action& action);
// `commandLine` is recorded in reports.
void addOptimizeCommand(CLI::App& app, Action& action, std::string commandLine);
// These run on the GPU; in a build without CUDA they explain that they cannot.
void addProfileCommand(CLI::App& app, Action& action, std::string commandLine);
void addTraceCommand(CLI::App& app, Action& action);
void addExportCommand(CLI::App& app, Action& action);
// μGraphs (docs/mugraph.md): equivalence of two μGraph files, and a model's LAX partition.
void addVerifyCommand(CLI::App& app, Action& action, std::string commandLine);
void addLaxCommand(CLI::App& app, Action& action, std::string commandLine);
void addSuperoptCommand(CLI::App& app, Action& action, std::string commandLine);
// The web explorer (docs/web.md): a server, and its views as one HTML file.
void addServeCommand(CLI::App& app, Action& action);
void addReportCommand(CLI::App& app, Action& action);

} // namespace tcx::cli
