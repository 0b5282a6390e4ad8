// tcx superopt MODEL: the μGraph superoptimizer (Mirage §4) on each LAX
// subprogram; the best μGraphs as JSON and DOT, every verified candidate in
// the report, and a checkpoint that --resume continues from. --time-limit
// bounds the whole command: one deadline, shared out among the programs.
#include "Commands.h"
#include "ModelOptions.h"

#include "backend/GpuBackend.h"
#include "backend/MuGraphProfiler.h"

#include "mugraph/Dot.h"
#include "mugraph/Json.h"
#include "report/SuperoptReport.h"
#include "superopt/CandidateRanking.h"
#include "superopt/MuGraphCost.h"
#include "superopt/Superoptimize.h"
#include "support/AtomicFile.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace tcx::cli {

namespace {

struct SuperoptCliOptions {
  ModelOptions model;
  superopt::SearchOptions search;
  std::string outDir = "superopt";
  std::string report;
  double timeLimitSeconds = 0;
  bool noPruning = false, noCanonical = false, noDeepening = false, z3Only = false, z3Fallback = false,
       json = false;
  int only = -1;
  std::string commandLine;
};

// What the command keeps back from its time limit for writing the results
// at the end (at most, and at most 2% of the limit).
constexpr double kWritingSeconds = 1;

int kernels(const mugraph::KernelGraph& g) { return superopt::countKernels(g).launches; }

// What the time limit left undone after the search, phase by phase.
std::string cutShortLine(const superopt::RankingCut& cut) {
  std::vector<std::string> undone;
  if (cut.untuned > 0)
    undone.push_back(fmt::format("{} candidates kept the sizes the search found them with", cut.untuned));
  if (cut.untried > 0) undone.push_back(fmt::format("{} got no verifier trial and were not kept", cut.untried));
  if (cut.unconfirmed > 0)
    undone.push_back(fmt::format("{} of the best kept one trial's verdict, without further trials", cut.unconfirmed));
  if (cut.unmeasured > 0) undone.push_back(fmt::format("{} of the best were not timed on the GPU", cut.unmeasured));
  return fmt::format("cut short by the time limit in {}: {}", cut.phase(), fmt::join(undone, "; "));
}

void printResult(const superopt::SuperoptProgram& prog, const superopt::SearchResult& r) {
  const superopt::SearchProgress& p = r.progress;
  fmt::print("{}: {} nodes, {}{}\n", r.reference.name(), prog.nodes.size(), prog.lax ? "LAX" : "not LAX",
             prog.joined.empty() ? "" : " (joined " + prog.joined + ")");
  fmt::print("  search: {} after {:.2f} s{}{} in the pass at {} x {} ops{}: {} prefixes explored, {} pruned by "
             "abstract expressions, {} invalid\n",
             superopt::stopReasonName(r.stop), p.elapsedSeconds, r.resumed ? " (resumed)" : "",
             r.stop == superopt::StopReason::TimeLimit ? " (the rest of the time kept for ranking)" : "", p.kernelOps,
             p.blockOps,
             p.passesCut > 0 ? fmt::format(" ({} earlier passes cut short at their share of the time)", p.passesCut)
                             : "",
             p.explored, p.pruned, p.invalid);
  fmt::print("  solver: {} queries, {} proved by normal forms, {} not, {} answered by Z3 ({} undecided) in {:.2f} s\n",
             r.solver.queries, r.solver.closureProved, r.solver.closureMissed, r.solver.solverCalls, r.solver.unknown,
             r.solver.solverSeconds);
  fmt::print("  candidates: {} found, {} size variants set aside, {} estimated over {}x slower than the reference "
             "set aside, {} verified, {} rejected by the verifier, {} beyond the verification budget or the time "
             "limit; ranked in {:.2f} s\n",
             p.candidates, p.variants, p.slow, superopt::kMaxSlowdown, p.verified, p.rejected, p.unchecked,
             r.rankingSeconds);
  if (r.cut.any()) fmt::print("  {}\n", cutShortLine(r.cut));
  fmt::print("  reference: {:.2f} us estimated{}, {} kernels\n", r.referenceMicros,
             r.referenceMeasuredMicros ? fmt::format(", {:.2f} us measured", *r.referenceMeasuredMicros) : "",
             kernels(r.reference));
  for (size_t i = 0; i < std::min<size_t>(5, r.candidates.size()); ++i) {
    const superopt::Candidate& c = r.candidates[i];
    bool measured = c.measuredMicros && r.referenceMeasuredMicros;
    double us = measured ? *c.measuredMicros : c.estimatedMicros;
    double speedup = (measured ? *r.referenceMeasuredMicros : r.referenceMicros) / us;
    fmt::print("  #{} {:.2f} us {} ({:.2f}x), {} kernels, {}, found at {:.2f} s\n", i + 1, us,
               measured ? "measured" : "estimated", speedup, kernels(c.graph), verify::verdictName(c.verdict.verdict),
               c.foundAtSeconds);
  }
}

void saveBest(const std::string& dir, const superopt::SearchResult& r) {
  if (r.candidates.empty()) return;
  std::filesystem::create_directories(dir);
  std::string stem = fmt::format("{}/{}_best", dir, r.reference.name());
  mugraph::saveMuGraph(r.candidates.front().graph, stem + ".json");
  std::ostringstream dot;
  mugraph::writeDot(r.candidates.front().graph, dot);
  writeFileAtomically(stem + ".dot", dot.str());
}

nlohmann::json resultJson(const superopt::SuperoptProgram& prog, const superopt::SearchResult& r) {
  const superopt::SearchProgress& p = r.progress;
  nlohmann::json cands = nlohmann::json::array();
  for (const superopt::Candidate& c : r.candidates)
    cands.push_back({{"estimated_us", c.estimatedMicros},
                     {"measured_us", c.measuredMicros ? nlohmann::json(*c.measuredMicros) : nlohmann::json()},
                     {"kernels", kernels(c.graph)},
                     {"verdict", verify::verdictName(c.verdict.verdict)},
                     {"found_at_s", c.foundAtSeconds},
                     {"hash", fmt::format("{:016x}", c.hash)}});
  return {{"program", r.reference.name()},
          {"nodes", prog.nodes.size()},
          {"lax", prog.lax},
          {"stop", superopt::stopReasonName(r.stop)},
          {"resumed", r.resumed},
          {"search_s", p.elapsedSeconds},
          {"ranking_s", r.rankingSeconds},
          {"passes_cut", p.passesCut},
          {"explored", p.explored},
          {"pruned", p.pruned},
          {"invalid", p.invalid},
          {"candidates", p.candidates},
          {"variants", p.variants},
          {"slow", p.slow},
          {"verified", p.verified},
          {"rejected", p.rejected},
          {"unchecked", p.unchecked},
          {"cut_short",
           r.cut.any() ? nlohmann::json{{"phase", r.cut.phase()},
                                        {"untuned", r.cut.untuned},
                                        {"untried", r.cut.untried},
                                        {"unconfirmed", r.cut.unconfirmed},
                                        {"unmeasured", r.cut.unmeasured}}
                       : nlohmann::json()},
          {"solver_queries", r.solver.queries},
          {"solver_closure_proved", r.solver.closureProved},
          {"solver_closure_missed", r.solver.closureMissed},
          {"solver_calls", r.solver.solverCalls},
          {"solver_unknown", r.solver.unknown},
          {"reference_us", r.referenceMicros},
          {"reference_measured_us",
           r.referenceMeasuredMicros ? nlohmann::json(*r.referenceMeasuredMicros) : nlohmann::json()},
          {"best", cands}};
}

int runSuperopt(SuperoptCliOptions& o) {
  // One deadline for the command, from its start; writing the results at
  // the end keeps a moment back.
  const superopt::Deadline end =
      superopt::Deadline::after(o.timeLimitSeconds).sooner(std::min(kWritingSeconds, 0.02 * o.timeLimitSeconds));
  Graph graph = o.model.load();
  std::vector<superopt::SuperoptProgram> programs = superopt::superoptPrograms(graph);
  std::vector<size_t> chosen;
  for (size_t i = 0; i < programs.size(); ++i)
    if (o.only < 0 || static_cast<size_t>(o.only) == i) chosen.push_back(i);
  o.search.abstractPruning = !o.noPruning;
  o.search.solver.closure = !o.z3Only;
  o.search.solver.z3Fallback = o.z3Fallback;
  o.search.canonicalForm = !o.noCanonical;
  o.search.iterativeDeepening = !o.noDeepening;
  // On a GPU the verified best candidates are timed and ranked by that.
  if (backend::gpuStatus().available)
    o.search.measure = [](const mugraph::KernelGraph& g) { return backend::measureMuGraph(g, {}).medianUs; };
  std::vector<SuperoptRun> runs;
  bool live = isatty(STDERR_FILENO) != 0;
  for (size_t k = 0; k < chosen.size(); ++k) {
    const size_t i = chosen[k];
    superopt::SearchOptions search = o.search;
    std::filesystem::create_directories(o.outDir);
    search.checkpointPath = fmt::format("{}/{}.checkpoint.json", o.outDir, programs[i].program.name());
    if (search.resume && !std::filesystem::exists(search.checkpointPath)) {
      fmt::print(stderr, "{}: no checkpoint at {}; searching from the start\n", programs[i].program.name(),
                 search.checkpointPath);
      search.resume = false;
    }
    superopt::ProgressFn progress;
    if (live)
      progress = [](const superopt::SearchProgress& p) {
        fmt::print(stderr, "\r  {:.1f} s: {} explored, {} pruned, {} candidates, {} verified, {} queued   ",
                   p.elapsedSeconds, p.explored, p.pruned, p.candidates, p.verified, p.frontier);
      };
    // Each program shares what is left with those after it: time one does
    // not use goes to the next.
    const superopt::Deadline programEnd = end.share(1.0 / static_cast<double>(chosen.size() - k));
    superopt::SearchResult r =
        superopt::SuperoptSearch(programs[i].program, search).run(progress, nullptr, programEnd);
    if (live) fmt::print(stderr, "\r\033[K");
    if (r.stop == superopt::StopReason::Exhausted) std::filesystem::remove(search.checkpointPath);
    saveBest(o.outDir, r);
    // Each program's result as it ends: a run stopped later keeps them.
    if (!o.json) {
      printResult(programs[i], r);
      std::fflush(stdout);
    }
    runs.push_back({&programs[i], std::move(r), superopt::spaceSettings(search)});
  }
  if (!o.report.empty()) writeSuperoptReport(o.report, graph, runs, {o.model.path, o.commandLine});
  if (o.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const SuperoptRun& run : runs) list.push_back(resultJson(*run.program, run.result));
    fmt::print("{}\n", nlohmann::json{{"graph", graph.name}, {"searches", list}}.dump(2));
    return 0;
  }
  if (runs.empty()) fmt::print("{}: no LAX subprogram to superoptimize\n", graph.name);
  if (!runs.empty()) fmt::print("best μGraphs in {}/ (JSON and DOT)\n", o.outDir);
  return 0;
}

} // namespace

void addSuperoptCommand(CLI::App& app, Action& action, std::string commandLine) {
  auto o = std::make_shared<SuperoptCliOptions>();
  o->commandLine = std::move(commandLine);
  CLI::App* cmd =
      app.add_subcommand("superopt", "Search faster equivalent μGraphs for each LAX subprogram (Mirage)");
  o->model.addTo(*cmd);
  cmd->add_option("--max-kernel-ops", o->search.maxKernelOps, "Kernel-level operators per μGraph (Mirage: 5)")
      ->capture_default_str();
  cmd->add_option("--max-block-ops", o->search.maxBlockOps, "Block-level operators per block graph (Mirage: 7)")
      ->capture_default_str();
  cmd->add_option("--time-limit", o->timeLimitSeconds,
                  "End the whole command within S seconds: every program's search, verification and ranking, shared "
                  "among the programs (0: none)");
  cmd->add_option("--state-limit", o->search.stateLimit, "Stop each search after N prefixes (0: none)");
  cmd->add_option("--verify-time", o->search.verifySeconds,
                  "After each search, S seconds for one verifier trial per candidate, and S more for the best "
                  "candidates' further trials")
      ->capture_default_str();
  cmd->add_option("--threads", o->search.threads, "Worker threads (0: every hardware thread)");
  cmd->add_flag("--resume", o->search.resume, "Continue from the checkpoint an interrupted search left in --out");
  cmd->add_flag("--no-pruning", o->noPruning, "Turn abstract-expression pruning off (ablation)");
  cmd->add_flag("--no-canonical", o->noCanonical, "Generate every operator order, not just canonical form (ablation)");
  cmd->add_flag("--z3-only", o->z3Only,
                "Decide pruning queries with Z3 alone, without the closure of normal forms (ablation, as Mirage)");
  cmd->add_flag("--z3-fallback", o->z3Fallback, "Ask Z3 what the closure of normal forms does not prove")
      ->excludes("--z3-only");
  cmd->add_flag("--no-deepening", o->noDeepening,
                "One depth-first pass at the full limits, as Mirage searches, not passes at growing limits");
  cmd->add_option("--program", o->only, "Search only the program with this index");
  cmd->add_option("--out", o->outDir, "Folder for the best μGraphs and the checkpoints")->capture_default_str();
  cmd->add_option("--report", o->report, "Write searches and candidates to this SQLite report");
  cmd->add_option("--seed", o->search.verify.seed, "Verifier seed (0: random)");
  cmd->add_flag("--json", o->json, "Print the results as JSON");
  cmd->callback([o, &action] { action = [o] { return runSuperopt(*o); }; });
}

} // namespace tcx::cli
