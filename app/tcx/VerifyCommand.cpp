// tcx verify A.json B.json: probabilistic equivalence of two μGraphs over
// finite fields (Mirage §5), or a float test when they are not LAX.
#include "Commands.h"
#include "ExitCode.h"
#include "Format.h"

#include "mugraph/Json.h"
#include "report/MuGraphReport.h"
#include "verify/FiniteFieldVerifier.h"

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace tcx::cli {

namespace {

struct VerifyCommandOptions {
  std::string a, b;
  double delta = 0x1p-40;
  uint64_t seed = 0;
  int64_t maxTrials = 1'000'000;
  std::string report;
  bool json = false;
  std::string commandLine;
};

nlohmann::json resultJson(const VerifyCommandOptions& o, const verify::VerifyResult& r) {
  nlohmann::json j = {{"a", o.a},
                      {"b", o.b},
                      {"verdict", verify::verdictName(r.verdict)},
                      {"requested_delta", r.requestedDelta},
                      {"delta", r.delta},
                      {"exp_terms", r.k},
                      {"trials", r.trials},
                      {"redraws", r.redraws},
                      {"seconds", r.seconds}};
  if (!r.notLax.empty()) j["not_lax"] = r.notLax;
  if (r.firstDifference)
    j["first_difference"] = {{"output", r.firstDifference->output},
                             {"element", r.firstDifference->element},
                             {"a", r.firstDifference->a},
                             {"b", r.firstDifference->b}};
  return j;
}

void printResult(const VerifyCommandOptions& o, const verify::VerifyResult& r) {
  fmt::print("{} vs {}: {}\n", o.a, o.b, verify::verdictName(r.verdict));
  if (r.verdict == verify::Verdict::UnprovenFloat)
    fmt::print("  not LAX ({}): {} float trials agree; no error bound\n", r.notLax, r.trials);
  else
    fmt::print("  k = {} exponential terms, {} trials ({} redrawn), δ = {:.3g} (requested {:.3g})\n", r.k, r.trials,
               r.redraws, r.delta, r.requestedDelta);
  if (r.firstDifference)
    fmt::print("  first difference: output {}, element {}: {} vs {}\n", r.firstDifference->output,
               r.firstDifference->element, r.firstDifference->a, r.firstDifference->b);
  fmt::print("  {} ({} output elements per trial)\n", formatSeconds(r.seconds), r.elementsPerTrial);
}

} // namespace

void addVerifyCommand(CLI::App& app, Action& action, std::string commandLine) {
  auto opts = std::make_shared<VerifyCommandOptions>();
  opts->commandLine = std::move(commandLine);
  CLI::App* cmd = app.add_subcommand("verify", "Check two μGraph files for equivalence (finite-field random tests)");
  cmd->add_option("A", opts->a, "μGraph file (.json)")->required();
  cmd->add_option("B", opts->b, "μGraph file (.json)")->required();
  cmd->add_option("--delta", opts->delta, "Bound on accepting non-equivalent programs (default 2^-40)")
      ->check(CLI::Range(0x1p-1000, 1.0));
  cmd->add_option("--seed", opts->seed, "Random seed (default: from the system)");
  cmd->add_option("--max-trials", opts->maxTrials, "Cap on trials; the reached δ is reported")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--report", opts->report, "Write the verdict to this SQLite report");
  cmd->add_flag("--json", opts->json, "Print the verdict as JSON");
  cmd->callback([opts, &action] {
    action = [opts] {
      // Bad files raise, and main maps the error to its exit code: nothing was verified or written.
      const mugraph::KernelGraph a = mugraph::loadMuGraph(opts->a), b = mugraph::loadMuGraph(opts->b);
      verify::VerifyOptions options;
      options.delta = opts->delta;
      options.seed = opts->seed;
      options.maxTrials = opts->maxTrials;
      const verify::VerifyResult result = verify::FiniteFieldVerifier(options).verify(a, b);
      if (!opts->report.empty()) writeVerifyReport(opts->report, opts->a, opts->b, result, opts->commandLine);
      if (opts->json)
        fmt::print("{}\n", resultJson(*opts, result).dump(2));
      else
        printResult(*opts, result);
      return static_cast<int>(result.verdict == verify::Verdict::NotEquivalent ? kNotEquivalent : kOk);
    };
  });
}

} // namespace tcx::cli
