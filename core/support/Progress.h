#pragma once
// Progress reporting from long-running core work to whichever front end
// listens (a terminal bar in the CLI, a progress bar in the explorer). Core
// never prints; it calls this.

#include <cstddef>
#include <functional>
#include <string_view>

namespace tcx {

// done of total steps; `what` names the current step (a node, a file).
using ProgressFn = std::function<void(size_t done, size_t total, std::string_view what)>;

} // namespace tcx
