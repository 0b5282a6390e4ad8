#pragma once
// Search over what a view contains, collapsed groups included: the
// explorer's search box and `highlight`. Matches inside a collapsed group
// are returned as themselves; DisplayGraph::drawnAs gives the group to show.

#include "view/DisplayGraph.h"

#include <string>
#include <vector>

namespace tcx::view {

enum class SearchMode {
  Substring, // in item names, case-insensitive
  OpType,    // op type, exactly (case-insensitive)
  Regex,     // ECMAScript, anywhere in item names
};

// Items in view order, each once; raises InvalidArgument for a bad regex.
std::vector<ItemRef> search(const DisplayGraph& graph, const std::string& query, SearchMode mode);

} // namespace tcx::view
