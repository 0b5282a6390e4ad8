#pragma once
// `tcx report MODEL --html OUT.html`: the web explorer as one file that opens
// from file:// with no server. The page, its scripts and styles (the same
// resources `tcx serve` sends) are inlined, and window.TCX_SNAPSHOT holds
// the answers to the read-only requests the page makes, recorded from the
// ExplorerApi of the run that wrote it: every view at its default expansion,
// the strategy, both plans' latencies, kernels and CUDA, and the details of
// every item the views draw or hide in a collapsed group, every group and
// every kernel.

#include "web/api/ExplorerApi.h"

#include <string>

namespace tcx::web {

struct HtmlReportSummary {
  size_t requests = 0; // answers recorded
  size_t bytes = 0;    // of the file
};

// The report of `api`'s open model as one HTML page (what `tcx serve` sends
// for GET /api/report.html).
std::string htmlReport(ExplorerApi& api, HtmlReportSummary* summary = nullptr);

// Writes the report to `path`, whole or not at all (a temporary file renamed
// into place); raises tcx::Error (Io).
HtmlReportSummary writeHtmlReport(ExplorerApi& api, const std::string& path);

} // namespace tcx::web
