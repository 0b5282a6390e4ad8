// tcx report MODEL --html OUT.html [constraints]: the web explorer's views of
// one model and strategy as one self-contained file (web/server/HtmlReport.h).
#include "Commands.h"
#include "EdgeConstraintOptions.h"
#include "Format.h"

#include "web/server/HtmlReport.h"

#include <fmt/format.h>

#include <memory>

namespace tcx::cli {

namespace {

struct ReportOptions {
  std::string model;
  std::string html;
  EdgeConstraintSpecs constraints;
};

int report(const ReportOptions& opts) {
  web::ExplorerApi api(web::RootDirectory("."), web::ApiOptions{.version = TCX_VERSION});
  api.open(opts.model);
  api.constrain(opts.constraints);
  const web::HtmlReportSummary summary = web::writeHtmlReport(api, opts.html);
  fmt::print("{}: {} answers recorded, {} ({})\n", opts.html, summary.requests, formatBytes(summary.bytes),
             api.session().latencySource());
  return 0;
}

} // namespace

void addReportCommand(CLI::App& app, Action& action) {
  auto opts = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand("report", "Write the web explorer's views of a model as one HTML file");
  cmd->add_option("model", opts->model, "The ONNX model")->required();
  cmd->add_option("--html", opts->html, "The HTML file to write (self-contained: opens from file://)")->required();
  addEdgeConstraintOptions(*cmd, opts->constraints);
  cmd->callback([opts, &action] { action = [opts] { return report(*opts); }; });
}

} // namespace tcx::cli
