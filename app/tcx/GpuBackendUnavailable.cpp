// The GPU backend in a build without the CUDA toolkit: `tcx profile` and
// `--oracle profile` exist, and say why they cannot run.
#include "Commands.h"
#include "GpuBackend.h"

#include "support/Error.h"

namespace tcx::cli {

namespace {

[[noreturn]] void noGpuBackend() {
  raise(ErrorKind::Unsupported, "this tcx was built without the CUDA toolkit; `tcx optimize` estimates latency with "
                                "the cost model instead");
}

} // namespace

std::unique_ptr<SavingOracle> makeProfileOracle(const VtcSession&, PlanOptions) { noGpuBackend(); }
void measureSession(VtcSession&, int) { noGpuBackend(); }

void addProfileCommand(CLI::App& app, Action& action, std::string) {
  CLI::App* cmd = app.add_subcommand("profile", "Run the plans on the GPU (needs a build with the CUDA toolkit)");
  cmd->allow_extras();
  cmd->callback([&action] {
    action = []() -> int { noGpuBackend(); };
  });
}

void addTraceCommand(CLI::App& app, Action& action) {
  CLI::App* cmd = app.add_subcommand("trace", "Trace one run on the GPU (needs a build with the CUDA toolkit)");
  cmd->allow_extras();
  cmd->callback([&action] { action = []() -> int { noGpuBackend(); }; });
}

} // namespace tcx::cli
