// tcx serve [MODEL | SESSION.json]: the web explorer (docs/web.md) on
// loopback, or on --host with a token. The server and every rule it keeps
// live in web/; this file parses options and runs Qt's event loop.
#include "Commands.h"

#include "support/Error.h"
#include "web/server/WebServer.h"

#include <QCoreApplication>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <memory>

namespace tcx::cli {

namespace {

namespace fs = std::filesystem;

struct ServeOptions {
  std::string model; // an ONNX file or an explorer session (.json)
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string root = ".";
  std::string token;
  double maxUploadMiB = 512;
};

// A desktop explorer session file (viz/explorer/SessionFile.h): its model,
// relative to the file, and its constraints.
void openSession(web::ExplorerApi& api, const fs::path& file) {
  std::ifstream in(file);
  TCX_CHECK(in.good(), ErrorKind::Io, "{}: cannot read the session", file.string());
  nlohmann::json session;
  try {
    session = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    raise(ErrorKind::InvalidArgument, "{}: not a session file: {}", file.string(), e.what());
  }
  TCX_CHECK(session.is_object() && session.value("format", "") == "tcx-explorer-session", ErrorKind::InvalidArgument,
            "{}: not a tcx explorer session (\"format\": \"tcx-explorer-session\")", file.string());
  api.open(file.parent_path() / session.value("model", ""));
  const nlohmann::json constraints = session.value("constraints", nlohmann::json::object());
  auto list = [&](const char* key) { return constraints.value(key, std::vector<std::string>{}); };
  api.constrain({list("accepted"), list("forced"), list("forbidden")});
}

int serve(const ServeOptions& opts) {
  int argc = 1;
  char name[] = "tcx";
  char* argv[] = {name, nullptr};
  QCoreApplication app(argc, argv);
  web::ServerOptions server;
  TCX_CHECK(server.host.setAddress(QString::fromStdString(opts.host)), ErrorKind::InvalidArgument,
            "--host {}: not an IP address", opts.host);
  TCX_CHECK(opts.port >= 0 && opts.port <= 65535, ErrorKind::InvalidArgument, "--port {}: not a port", opts.port);
  server.port = static_cast<quint16>(opts.port);
  server.token = QString::fromStdString(opts.token);
  web::ApiOptions api{.version = TCX_VERSION, .maxUploadBytes = static_cast<size_t>(opts.maxUploadMiB * (1 << 20))};
  web::WebServer web(web::RootDirectory(opts.root), api, server);
  if (!opts.model.empty()) {
    const fs::path model(opts.model);
    if (model.extension() == ".json") openSession(web.api(), model);
    else web.api().open(model);
  }
  TCX_CHECK(web.start() != 0, ErrorKind::Io, "cannot listen on {}:{}", opts.host, opts.port);
  fmt::print("tcx serve: listening on {}\n", web.url().toStdString());
  if (!web.token().isEmpty())
    fmt::print("tcx serve: every request needs the token (in the link above, or `Authorization: Bearer {}`)\n",
               web.token().toStdString());
  std::fflush(stdout);
  return app.exec();
}

} // namespace

void addServeCommand(CLI::App& app, Action& action) {
  auto opts = std::make_shared<ServeOptions>();
  CLI::App* cmd = app.add_subcommand("serve", "Serve the web explorer (docs/web.md) to a browser");
  cmd->add_option("model", opts->model, "An ONNX model or an explorer session (.json) to open first");
  cmd->add_option("--host", opts->host, "Address to listen on (default 127.0.0.1; any other needs the token)");
  cmd->add_option("--port", opts->port, "Port (default 8080; 0: any free port)");
  cmd->add_option("--root", opts->root, "Directory that model paths from the page are confined to (default: .)");
  cmd->add_option("--token", opts->token, "The token requests need (default: generated when --host is not loopback)");
  cmd->add_option("--max-upload", opts->maxUploadMiB, "Largest model the page may upload, in MiB (default 512)");
  cmd->callback([opts, &action] { action = [opts] { return serve(*opts); }; });
}

} // namespace tcx::cli
