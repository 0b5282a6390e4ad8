// `tcx serve` over real sockets: a WebServer on a loopback port, asked by
// QNetworkAccessManager and QWebSocket as a browser would ask it.
#include "WebServer.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>
#include <QWebSocket>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace tcx;
using nlohmann::json;

namespace {

struct Answer {
  int status = 0;
  QByteArray body;
  QByteArray contentType;
  json parsed() const { return json::parse(body.toStdString()); }
};

// Spins the event loop until `done` or `ms` have passed.
template <class Signal, class Sender>
bool waitFor(Sender* sender, Signal signal, int ms = 20000) {
  QEventLoop loop;
  QTimer timer;
  timer.setSingleShot(true);
  QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
  QObject::connect(sender, signal, &loop, &QEventLoop::quit);
  timer.start(ms);
  loop.exec();
  return timer.isActive();
}

class Client {
public:
  explicit Client(quint16 port) : base_(QString("http://127.0.0.1:%1").arg(port)) {}

  Answer send(const QByteArray& method, const QString& target, const QByteArray& body = {},
              const QByteArray& authorization = {}) {
    QNetworkRequest request(QUrl(base_ + target));
    request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
    if (!authorization.isEmpty()) request.setRawHeader("Authorization", authorization);
    QNetworkReply* reply = manager_.sendCustomRequest(request, method, body);
    REQUIRE(waitFor(reply, &QNetworkReply::finished));
    Answer a{reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll(),
             reply->header(QNetworkRequest::ContentTypeHeader).toByteArray()};
    reply->deleteLater();
    return a;
  }

private:
  QString base_;
  QNetworkAccessManager manager_;
};

struct Server {
  explicit Server(QString token = {})
      : web(web::RootDirectory(TCX_SOURCE_DIR), web::ApiOptions{.version = "test"},
            web::ServerOptions{.host = QHostAddress::LocalHost, .port = 0, .token = std::move(token)}) {
    port = web.start();
    REQUIRE(port != 0);
  }
  web::WebServer web;
  quint16 port = 0;
};

} // namespace

TEST_CASE("The server sends the page, its libraries and the API's answers", "[web][server]") {
  Server server;
  CHECK(server.web.token().isEmpty()); // loopback needs no token
  Client client(server.port);
  const Answer page = client.send("GET", "/");
  CHECK(page.status == 200);
  CHECK(page.contentType.startsWith("text/html"));
  CHECK(page.body.contains("<canvas"));
  for (const char* lib : {"/lib/d3.min.js", "/lib/chart.min.js", "/lib/highlight.min.js", "/lib/highlight.css"}) {
    INFO(lib);
    CHECK(client.send("GET", lib).status == 200);
  }
  CHECK(client.send("GET", "/missing.js").status == 404);
  CHECK(client.send("GET", "/../CMakeLists.txt").status == 404);
  CHECK(client.send("POST", "/index.html").status == 405);

  const Answer status = client.send("GET", "/api/status");
  CHECK(status.status == 200);
  CHECK(status.contentType.startsWith("application/json"));
  CHECK(status.parsed().at("version") == "test");

  const Answer opened = client.send("POST", "/api/open", R"({"path": "samples/gqa_decode.onnx"})");
  REQUIRE(opened.status == 200);
  CHECK(opened.parsed().at("name") == "gqa_decode");
  const Answer view = client.send("GET", "/api/view?name=computation&expand=" +
                                             QUrl::toPercentEncoding("group:/nonexistent"));
  CHECK(view.status == 400);
  CHECK(client.send("POST", "/api/constraints", "{oops").status == 400);
  CHECK(client.send("POST", "/api/open", R"({"path": "../../etc/passwd"})").status == 403);
  CHECK(client.send("GET", "/api/model").parsed().at("name") == "gqa_decode");

  // The page's state saved as a report: the same file `tcx report --html` writes.
  const Answer report = client.send("GET", "/api/report.html");
  CHECK(report.status == 200);
  CHECK(report.contentType.startsWith("text/html"));
  CHECK(report.body.contains("window.TCX_SNAPSHOT = "));
  CHECK(!report.body.contains("<script src="));
  CHECK(client.send("POST", "/api/report.html").status == 405);
}

TEST_CASE("Without a model there is no report to save", "[web][server]") {
  Server server;
  Client client(server.port);
  CHECK(client.send("GET", "/api/report.html").status == 409);
}

TEST_CASE("With a token, every API request and the WebSocket need it", "[web][server]") {
  Server server("s3cret");
  CHECK(server.web.url().endsWith("?token=s3cret"));
  Client client(server.port);
  CHECK(client.send("GET", "/").status == 200); // the page holds no model data
  const Answer refused = client.send("GET", "/api/status");
  CHECK(refused.status == 401);
  CHECK(client.send("GET", "/api/status", {}, "Bearer wrong").status == 401);
  CHECK(client.send("GET", "/api/status", {}, "Bearer s3cret").status == 200);
  CHECK(client.send("GET", "/api/status?token=s3cret").status == 200);
  CHECK(client.send("POST", "/api/open?token=nope", R"({"path": "samples/gqa_decode.onnx"})").status == 401);

  QWebSocket intruder;
  intruder.open(QUrl(QString("ws://127.0.0.1:%1/ws").arg(server.port)));
  CHECK(waitFor(&intruder, &QWebSocket::disconnected));
  // The refusal is the token's: the same socket with it stays open.
  QWebSocket member;
  member.open(QUrl(QString("ws://127.0.0.1:%1/ws?token=s3cret").arg(server.port)));
  REQUIRE(waitFor(&member, &QWebSocket::connected));
  CHECK(!waitFor(&member, &QWebSocket::disconnected, 500));
  CHECK(member.state() == QAbstractSocket::ConnectedState);
}

TEST_CASE("Pages hear of job progress and strategy changes over the WebSocket", "[web][server]") {
  Server server;
  Client client(server.port);
  QWebSocket socket;
  std::vector<json> messages;
  QObject::connect(&socket, &QWebSocket::textMessageReceived,
                   [&](const QString& text) { messages.push_back(json::parse(text.toStdString())); });
  socket.open(QUrl(QString("ws://127.0.0.1:%1/ws").arg(server.port)));
  REQUIRE(waitFor(&socket, &QWebSocket::connected));

  const auto opened = client.send("POST", "/api/open", R"({"path": "samples/gqa_decode.onnx"})");
  REQUIRE(opened.status == 200);
  // A refused change pushes nothing; an accepted one pushes its revision.
  REQUIRE(client.send("POST", "/api/constraints", R"({"forced": ["e999"]})").status == 400);
  const json edges = client.send("GET", "/api/strategy").parsed().at("edges");
  REQUIRE(!edges.empty());
  const auto forbidden = client.send("POST", "/api/constraints",
                                     QByteArray::fromStdString(json{{"edge", edges.front().at("id")}, {"state", "forbidden"}}.dump()));
  REQUIRE(forbidden.status == 200);
  REQUIRE(client.send("POST", "/api/open", R"({"path": "samples/rmsnorm_matmul.onnx"})").status == 200);
  REQUIRE(client.send("POST", "/api/jobs", R"({"kind": "superopt", "seconds": 1})").status == 202);
  for (int i = 0; i < 200; ++i) {
    if (!messages.empty() && messages.back().value("type", "") == "job" &&
        messages.back().at("job").at("state") != "running")
      break;
    waitFor(&socket, &QWebSocket::textMessageReceived, 500);
  }
  REQUIRE(!messages.empty());
  REQUIRE(messages.size() >= 3);
  CHECK(messages[0] == json{{"type", "model"}, {"revision", opened.parsed().at("revision")}});
  CHECK(messages[1] == json{{"type", "strategy"},
                            {"revision", forbidden.parsed().at("strategy").at("revision")}});
  CHECK(messages[1].at("revision").get<unsigned>() > messages[0].at("revision").get<unsigned>());
  CHECK(messages[2].at("type") == "model");
  CHECK(messages.back().at("type") == "job");
  CHECK(messages.back().at("job").at("kind") == "superopt");
  CHECK(messages.back().at("job").at("state") == "done");
}
