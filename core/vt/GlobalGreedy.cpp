#include "vt/GlobalGreedy.h"

#include "support/Error.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace tcx {

namespace {

std::string edgeList(const std::vector<int>& edges) {
  std::string s;
  for (int e : edges) s += (s.empty() ? "" : ", ") + fmt::format("e{}", e);
  return s;
}

class Greedy {
public:
  Greedy(const Vtog& vtog, SavingOracle& oracle, const StrategyConstraints& constraints)
      : vtog_(vtog), oracle_(oracle), constraints_(constraints) {}

  GreedyResult run() {
    checkConstraints();
    result_.baselineSeconds = latency({});
    for (const Value* v : vtog_.nodes())
      if (usableCovers(v).empty()) anchored_.insert(v);
    applyForced();
    applyAccepted();
    while (anchored_.size() < vtog_.nodes().size()) {
      if (chooseVirtual()) continue;
      if (choosePhysical()) continue;
      break;
    }
    result_.selected = chosen_;
    result_.finalSeconds = latency(chosen_);
    result_.oracleCalls = calls_;
    return std::move(result_);
  }

private:
  double latency(const std::set<int>& selected) {
    auto it = latencyCache_.find(selected);
    if (it != latencyCache_.end()) return it->second;
    ++calls_;
    return latencyCache_[selected] = oracle_.latency(selected);
  }

  // w(P) = l(C + P) - l(C) as latency saved; cached until an edge of P
  // points to a tensor chosen later (Algorithm 2, lines 18-19).
  double saving(const std::vector<int>& cover) {
    auto it = savingCache_.find(cover);
    if (it != savingCache_.end()) return it->second;
    if (std::optional<double> local = oracle_.localSaving(chosen_, cover)) {
      ++calls_;
      return savingCache_[cover] = *local;
    }
    std::set<int> with = chosen_;
    with.insert(cover.begin(), cover.end());
    return savingCache_[cover] = latency(chosen_) - latency(with);
  }

  std::vector<std::vector<int>> usableCovers(const Value* v) const {
    std::vector<std::vector<int>> out;
    for (const std::vector<int>& cover : vtog_.covers(v))
      if (std::none_of(cover.begin(), cover.end(), [&](int e) { return constraints_.forbidden.count(e) != 0; }))
        out.push_back(cover);
    return out;
  }

  // Whether choosing `cover` for v closes a cycle through chosen edges.
  bool closesCycle(const Value* v, const std::vector<int>& cover) const {
    std::vector<const Value*> stack;
    for (int e : cover) stack.push_back(vtog_.edge(e).to);
    std::unordered_set<const Value*> seen;
    while (!stack.empty()) {
      const Value* t = stack.back();
      stack.pop_back();
      if (t == v) return true;
      if (!seen.insert(t).second) continue;
      if (auto out = chosenFrom_.find(t); out != chosenFrom_.end())
        for (int e : out->second) stack.push_back(vtog_.edge(e).to);
    }
    return false;
  }

  bool targetsIn(const std::vector<int>& cover, const Value* extra) const {
    return std::all_of(cover.begin(), cover.end(), [&](int e) {
      const Value* t = vtog_.edge(e).to;
      return anchored_.count(t) || t == extra;
    });
  }

  void anchor(const Value* v, const std::vector<int>& cover, double s, std::string reason) {
    anchored_.insert(v);
    chosen_.insert(cover.begin(), cover.end());
    for (int e : cover) chosenFrom_[vtog_.edge(e).from].push_back(e);
    result_.steps.push_back({v, cover, s, std::move(reason)});
    std::erase_if(savingCache_, [&](const auto& entry) {
      return std::any_of(entry.first.begin(), entry.first.end(), [&](int e) { return vtog_.edge(e).to == v; });
    });
  }

  void checkConstraints() const {
    for (const std::set<int>* set : {&constraints_.accepted, &constraints_.forced, &constraints_.forbidden})
      for (int e : *set)
        TCX_CHECK(e >= 0 && e < static_cast<int>(vtog_.edges().size()), ErrorKind::InvalidArgument,
                  "there is no VTOG edge e{}", e);
    for (int e : constraints_.forced)
      TCX_CHECK(!constraints_.forbidden.count(e), ErrorKind::InvalidArgument, "edge {} is both forced and forbidden",
                vtog_.edge(e).describe());
  }

  // Best cover of v containing all of `must`, not closing a cycle.
  std::optional<std::pair<std::vector<int>, double>> bestCoverWith(const Value* v, const std::vector<int>& must) {
    std::optional<std::pair<std::vector<int>, double>> best;
    for (const std::vector<int>& cover : usableCovers(v)) {
      bool contains = std::all_of(must.begin(), must.end(), [&](int e) {
        return std::find(cover.begin(), cover.end(), e) != cover.end();
      });
      if (!contains || closesCycle(v, cover)) continue;
      double s = saving(cover);
      if (!best || s > best->second) best = {{cover, s}};
    }
    return best;
  }

  void applyForced() {
    std::map<const Value*, std::vector<int>> byTensor;
    for (int e : constraints_.forced) byTensor[vtog_.edge(e).from].push_back(e);
    for (const auto& [v, edges] : byTensor) {
      auto best = bestCoverWith(v, edges);
      if (!best) {
        std::string why;
        for (size_t i = 0; i < edges.size(); ++i)
          for (size_t j = i + 1; j < edges.size(); ++j)
            if (vtog_.conflict(edges[i], edges[j]))
              why += fmt::format("; e{} and e{} map overlapping parts of '{}'", edges[i], edges[j], v->name());
        raise(ErrorKind::InvalidArgument,
              "the forced edges {} cannot all be chosen: no set of compatible, allowed edges out of '{}' contains them "
              "without a cycle{}",
              edgeList(edges), v->name(), why);
      }
      anchor(v, best->first, best->second, "forced");
    }
  }

  void applyAccepted() {
    for (int e : constraints_.accepted) {
      if (constraints_.forced.count(e)) continue;
      const VtogEdge& edge = vtog_.edge(e);
      if (anchored_.count(edge.from)) {
        if (!chosen_.count(e))
          result_.notes.push_back(fmt::format("accepted e{} not used: '{}' is already decided by forced edges {}", e,
                                              edge.from->name(), edgeList(strategyOf(edge.from))));
        continue;
      }
      auto best = bestCoverWith(edge.from, {e});
      if (!best) {
        result_.notes.push_back(fmt::format("accepted e{} not used: it is forbidden with its partners or closes a cycle", e));
      } else if (best->second < 0) {
        result_.notes.push_back(fmt::format("accepted e{} not used: it would cost {:.2f} us ({}); force it to keep it", e,
                                            -best->second * 1e6, oracle_.source()));
      } else {
        anchor(edge.from, best->first, best->second, "accepted");
      }
    }
  }

  std::vector<int> strategyOf(const Value* v) const {
    std::vector<int> out;
    for (int e : chosen_)
      if (vtog_.edge(e).from == v) out.push_back(e);
    return out;
  }

  // Lines 10-17 of Algorithm 2: the tensor whose best cover into A saves most.
  bool chooseVirtual() {
    const Value* bestTensor = nullptr;
    std::vector<int> bestCover;
    double best = 0;
    for (const Value* v : vtog_.nodes()) {
      if (anchored_.count(v)) continue;
      for (const std::vector<int>& cover : usableCovers(v)) {
        if (!targetsIn(cover, nullptr) || closesCycle(v, cover)) continue;
        double s = saving(cover);
        if (s > best) {
          best = s;
          bestTensor = v;
          bestCover = cover;
        }
      }
    }
    if (!bestTensor) return false;
    anchor(bestTensor, bestCover, best, "greedy");
    return true;
  }

  // When no tensor can be made virtual profitably yet because its edges lead
  // to undecided tensors (a chain of data-movement ops between two compute
  // kernels has edges both ways), make physical the tensor whose anchoring
  // unlocks the most: the sum, over the tensors with an edge into it, of
  // their best cover that would then be eligible. Algorithm 2 as printed
  // would stop here with the chain untouched.
  bool choosePhysical() {
    const Value* bestTensor = nullptr;
    double best = 0;
    std::vector<int> unlocked;
    for (const Value* w : vtog_.nodes()) {
      if (anchored_.count(w)) continue;
      double total = 0;
      std::vector<int> edges;
      std::unordered_set<const Value*> counted;
      for (int in : vtog_.incoming(w)) {
        const Value* u = vtog_.edge(in).from;
        if (anchored_.count(u) || u == w || counted.count(u)) continue;
        double bestForU = 0;
        for (const std::vector<int>& cover : usableCovers(u)) {
          bool usesW = std::any_of(cover.begin(), cover.end(), [&](int e) { return vtog_.edge(e).to == w; });
          if (!usesW || !targetsIn(cover, w) || closesCycle(u, cover)) continue;
          bestForU = std::max(bestForU, saving(cover));
        }
        if (bestForU > 0) {
          counted.insert(u);
          total += bestForU;
          edges.push_back(in);
        }
      }
      if (total > best) {
        best = total;
        bestTensor = w;
        unlocked = edges;
      }
    }
    if (!bestTensor) return false;
    anchor(bestTensor, {}, 0, fmt::format("physical (unlocks {})", edgeList(unlocked)));
    return true;
  }

  const Vtog& vtog_;
  SavingOracle& oracle_;
  const StrategyConstraints& constraints_;
  std::set<int> chosen_;
  // The chosen edges by the tensor they leave, for closesCycle's walk (a
  // scan of every chosen edge per step made a 220-layer Llama take minutes).
  std::unordered_map<const Value*, std::vector<int>> chosenFrom_;
  std::unordered_set<const Value*> anchored_;
  std::map<std::set<int>, double> latencyCache_;
  std::map<std::vector<int>, double> savingCache_;
  GreedyResult result_;
  int calls_ = 0;
};

} // namespace

GreedyResult runGlobalGreedy(const Vtog& vtog, SavingOracle& oracle, const StrategyConstraints& constraints) {
  return Greedy(vtog, oracle, constraints).run();
}

} // namespace tcx
