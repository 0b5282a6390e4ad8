#include "HtmlReport.h"

#include "support/AtomicFile.h"
#include "support/Error.h"

#include <QFile>
#include <QRegularExpression>
#include <QString>

#include <set>

namespace tcx::web {

namespace {

QString resource(const QString& name) {
  QFile file(":/tcx/web/" + name);
  TCX_CHECK(file.open(QIODevice::ReadOnly), ErrorKind::Internal, "the web client's '{}' is not compiled in",
            name.toStdString());
  return QString::fromUtf8(file.readAll());
}

// Text inside a <script> element must not close it early. Only "</script"
// does (any case); "<\/script" means the same inside a JS string, regular
// expression or JSON string, where alone it can occur.
QString scriptSafe(QString text) {
  static const QRegularExpression close("</(script)", QRegularExpression::CaseInsensitiveOption);
  return text.replace(close, "<\\/\\1");
}

// The page's <script src> and stylesheet links replaced by their contents.
QString inlineResources(QString page) {
  static const QRegularExpression script(R"re(<script src="([^"]+)"></script>)re");
  static const QRegularExpression style(R"re(<link rel="stylesheet" href="([^"]+)">)re");
  for (const auto& [pattern, open, close] :
       {std::tuple{&script, "<script>", "</script>"}, std::tuple{&style, "<style>", "</style>"}}) {
    QString out;
    qsizetype last = 0;
    for (QRegularExpressionMatchIterator it = pattern->globalMatch(page); it.hasNext();) {
      const QRegularExpressionMatch m = it.next();
      out += page.mid(last, m.capturedStart() - last);
      out += QString(open) + scriptSafe(resource(m.captured(1))) + close;
      last = m.capturedEnd();
    }
    page = out + page.mid(last);
  }
  return page;
}

// The snapshot's key for a request, as the client's api.js builds it:
// method, path, and the parameters in order, undecoded values.
std::string requestKey(const ApiRequest& request) {
  std::string key = request.method + " " + request.path;
  for (size_t i = 0; i < request.query.size(); ++i)
    key += (i == 0 ? "?" : "&") + request.query[i].first + "=" + request.query[i].second;
  return key;
}

class Snapshot {
public:
  explicit Snapshot(ExplorerApi& api) : api_(api) {}

  // Records the answer to GET `path` with `query`; returns it.
  nlohmann::json& get(const std::string& path, std::vector<std::pair<std::string, std::string>> query = {}) {
    const ApiRequest request{"GET", path, std::move(query), {}};
    const ApiResponse response = api_.handle(request);
    nlohmann::json& slot = answers_[requestKey(request)];
    slot = response.status < 300 ? response.body : nlohmann::json{{"error", response.body.value("error", "")}, {"status", response.status}};
    return slot;
  }
  nlohmann::json& answers() { return answers_; }

private:
  ExplorerApi& api_;
  nlohmann::json answers_ = nlohmann::json::object();
};

nlohmann::json record(ExplorerApi& api) {
  Snapshot snapshot(api);
  snapshot.get("/api/status")["readOnly"] = true;
  for (const char* path : {"/api/model", "/api/strategy", "/api/latency", "/api/superopt/programs", "/api/jobs"})
    snapshot.get(path);
  for (const char* plan : {"optimized", "baseline"}) {
    snapshot.get("/api/kernels", {{"plan", plan}});
    snapshot.get("/api/source", {{"plan", plan}});
  }
  std::set<std::string> items;
  for (const char* view : {"computation", "kernels", "vtog", "pointsto"}) {
    const nlohmann::json& answer = snapshot.get("/api/view", {{"name", view}});
    // What the page can click: drawn nodes and edges, groups, and the ops
    // and tensors inside collapsed groups (search finds those).
    for (const auto& node : answer.value("nodes", nlohmann::json::array())) {
      items.insert(node.at("key").get<std::string>());
      for (const auto& hidden : node.at("hidden")) items.insert(hidden.get<std::string>());
    }
    for (const auto& edge : answer.value("edges", nlohmann::json::array()))
      if (edge.at("key").is_string()) items.insert(edge.at("key").get<std::string>());
    for (const auto& group : answer.value("groups", nlohmann::json::array())) items.insert(group.at("key").get<std::string>());
  }
  for (const char* plan : {"GET /api/kernels?plan=optimized", "GET /api/kernels?plan=baseline"})
    for (const auto& kernel : snapshot.answers()[plan].value("kernels", nlohmann::json::array()))
      items.insert(kernel.at("key").get<std::string>());
  for (const std::string& item : items) snapshot.get("/api/details", {{"item", item}});
  return std::move(snapshot.answers());
}

} // namespace

std::string htmlReport(ExplorerApi& api, HtmlReportSummary* summary) {
  const nlohmann::json answers = record(api);
  const QString snapshot = "<script>window.TCX_SNAPSHOT = " +
                           scriptSafe(QString::fromStdString(answers.dump(-1, ' ', false,
                                                                          nlohmann::json::error_handler_t::replace))) +
                           ";</script>\n";
  QString page = inlineResources(resource("index.html"));
  const qsizetype firstScript = page.indexOf("<script");
  page.insert(firstScript < 0 ? page.indexOf("</head>") : firstScript, snapshot);
  std::string html = page.toStdString();
  if (summary) *summary = {answers.size(), html.size()};
  return html;
}

HtmlReportSummary writeHtmlReport(ExplorerApi& api, const std::string& path) {
  HtmlReportSummary summary;
  const std::string bytes = htmlReport(api, &summary);
  writeFileAtomically(path, bytes);
  return summary;
}

} // namespace tcx::web
