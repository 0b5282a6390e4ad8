#include "view/GraphSearch.h"

#include "support/Error.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>
#include <set>

namespace tcx::view {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Whether an item (its name and, for ops, op type) matches.
using Matcher = std::function<bool(const std::string& name, const std::string& opType)>;

Matcher matcherFor(const std::string& query, SearchMode mode) {
  switch (mode) {
  case SearchMode::Substring:
    return [q = lower(query)](const std::string& name, const std::string&) { return lower(name).find(q) != std::string::npos; };
  case SearchMode::OpType:
    return [q = lower(query)](const std::string&, const std::string& opType) { return !opType.empty() && lower(opType) == q; };
  case SearchMode::Regex:
    try {
      return [re = std::regex(query)](const std::string& name, const std::string&) { return std::regex_search(name, re); };
    } catch (const std::regex_error& e) {
      raise(ErrorKind::InvalidArgument, "bad regular expression '{}': {}", query, e.what());
    }
  }
  return {};
}

} // namespace

std::vector<ItemRef> search(const DisplayGraph& graph, const std::string& query, SearchMode mode) {
  const Matcher matches = matcherFor(query, mode);
  std::vector<ItemRef> found;
  std::set<ItemRef> seen;
  auto add = [&](const ItemRef& ref) {
    if (seen.insert(ref).second) found.push_back(ref);
  };
  for (const DisplayNode& n : graph.nodes) {
    if (matches(n.ref.name, n.opType)) add(n.ref);
    for (const HiddenItem& h : n.hidden)
      if (matches(h.ref.name, h.opType)) add(h.ref);
  }
  for (const DisplayEdge& e : graph.edges)
    if (e.ref && matches(e.ref->name, "")) add(*e.ref);
  for (const DisplayCluster& c : graph.clusters)
    if (matches(c.ref.name, "")) add(c.ref);
  return found;
}

} // namespace tcx::view
