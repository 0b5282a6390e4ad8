#include "mugraph/Json.h"
#include "superopt/SearchFrontier.h"
#include "support/AtomicFile.h"
#include "support/Error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>

namespace tcx::superopt {

using json = nlohmann::json;
using namespace mugraph;

namespace {

constexpr const char* kFormat = "tcx-superopt-checkpoint";
// 2: a work item's partition range counts size classes (PartitionSpace.h);
// the deepening pass ("level"). 3: passes at one kernel operator come
// between the two-operator ones, so a level indexes other limits.
constexpr int kVersion = 3;

json progressJson(const SearchProgress& p) {
  return {{"explored", p.explored},
          {"pruned", p.pruned},
          {"invalid", p.invalid},
          {"elapsed_s", p.elapsedSeconds},
          {"passes_cut", p.passesCut}};
}

SearchProgress progressOf(const json& j) {
  SearchProgress p;
  p.explored = j.at("explored").get<int64_t>();
  p.pruned = j.at("pruned").get<int64_t>();
  p.invalid = j.at("invalid").get<int64_t>();
  p.elapsedSeconds = j.at("elapsed_s").get<double>();
  p.passesCut = j.value("passes_cut", 0);
  return p;
}

} // namespace

std::string spaceSettings(const SearchOptions& o) {
  return fmt::format("kernel ops {}, block ops {}, grid dims {}, for-loop dims {}, graph inputs {}, pruning {}, "
                     "canonical {}, deepening {}, preset {}",
                     o.maxKernelOps, o.maxBlockOps, o.maxGridDims, o.maxForLoopDims, o.maxGraphInputs,
                     !o.abstractPruning   ? "off"
                     : !o.solver.closure  ? "Z3 alone"
                     : o.solver.z3Fallback ? "normal forms, then Z3"
                                           : "normal forms",
                     o.canonicalForm ? "on" : "off",
                     o.iterativeDeepening ? "on" : "off", o.preset.name);
}

std::vector<std::pair<int, int>> deepeningLevels(const SearchOptions& o) {
  if (!o.iterativeDeepening) return {{o.maxKernelOps, o.maxBlockOps}};
  std::vector<std::pair<int, int>> levels;
  int kernelOps = std::min(2, o.maxKernelOps);
  for (int b = 1; b <= o.maxBlockOps; ++b)
    for (int k = 1; k <= kernelOps; ++k) levels.emplace_back(k, b);
  for (int k = kernelOps + 1; k <= o.maxKernelOps; ++k) levels.emplace_back(k, o.maxBlockOps);
  return levels;
}

void saveCheckpoint(const Checkpoint& c, const std::string& path) {
  json prefixes = json::array(), frontier = json::array(), found = json::array();
  std::map<const KernelPrefix*, size_t> index;
  for (const WorkItem& item : c.frontier) {
    auto [it, fresh] = index.try_emplace(item.prefix.get(), index.size());
    if (fresh) prefixes.push_back(json::parse(toJson(item.prefix->graph)));
    json w = {{"prefix", it->second}};
    if (item.pending) {
      json operands = json::array();
      for (TensorRef t : item.pending->operands) operands.push_back({t.op, t.output});
      w["operands"] = operands;
      w["partitions"] = {item.pending->firstPartition, item.pending->endPartition};
    }
    frontier.push_back(w);
  }
  for (const FoundCandidate& f : c.found)
    found.push_back({{"graph", json::parse(toJson(f.graph))}, {"found_at_s", f.foundAtSeconds}});
  json j = {{"format", kFormat},          {"version", kVersion},   {"reference", json::parse(c.referenceJson)},
            {"settings", c.settings},     {"progress", progressJson(c.progress)}, {"level", c.level},
            {"prefixes", prefixes},       {"frontier", frontier},  {"found", found}};
  writeFileAtomically(path, j.dump());
}

Checkpoint loadCheckpoint(const std::string& path) {
  std::ifstream in(path);
  TCX_CHECK(in.good(), ErrorKind::Io, "cannot read the search checkpoint '{}'", path);
  std::stringstream text;
  text << in.rdbuf();
  try {
    json j = json::parse(text.str());
    TCX_CHECK(j.value("format", "") == kFormat && j.value("version", 0) == kVersion, ErrorKind::InvalidArgument,
              "'{}' is not a tcx search checkpoint (format {} version {})", path, kFormat, kVersion);
    Checkpoint c;
    c.referenceJson = toJson(fromJson(j.at("reference").dump(), path + ": reference"));
    c.settings = j.at("settings").get<std::string>();
    c.progress = progressOf(j.at("progress"));
    c.level = j.at("level").get<size_t>();
    std::vector<std::shared_ptr<const KernelPrefix>> prefixes;
    for (const json& p : j.at("prefixes"))
      prefixes.push_back(std::make_shared<const KernelPrefix>(KernelPrefix{fromJson(p.dump(), path + ": prefix"), {}}));
    for (const json& w : j.at("frontier")) {
      WorkItem item{prefixes.at(w.at("prefix").get<size_t>()), std::nullopt};
      if (w.contains("operands")) {
        PendingGraph p;
        for (const json& t : w.at("operands")) p.operands.push_back({t.at(0).get<int>(), t.at(1).get<int>()});
        p.firstPartition = w.at("partitions").at(0).get<size_t>();
        p.endPartition = w.at("partitions").at(1).get<size_t>();
        item.pending = std::move(p);
      }
      c.frontier.push_back(std::move(item));
    }
    for (const json& f : j.at("found"))
      c.found.push_back({fromJson(f.at("graph").dump(), path + ": candidate"), f.at("found_at_s").get<double>()});
    return c;
  } catch (const json::exception& e) {
    raise(ErrorKind::InvalidArgument, "'{}' is not a readable search checkpoint: {}", path, e.what());
  }
}

} // namespace tcx::superopt
