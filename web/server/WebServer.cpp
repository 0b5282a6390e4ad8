#include "WebServer.h"

#include "HtmlReport.h"

#include <QFile>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QMetaObject>
#include <QTcpSocket>
#include <QUrlQuery>
#include <QWebSocket>

#include <algorithm>

namespace tcx::web {

namespace {

const char* methodName(QHttpServerRequest::Method method) {
  switch (method) {
  case QHttpServerRequest::Method::Get: return "GET";
  case QHttpServerRequest::Method::Post: return "POST";
  case QHttpServerRequest::Method::Put: return "PUT";
  case QHttpServerRequest::Method::Delete: return "DELETE";
  case QHttpServerRequest::Method::Head: return "HEAD";
  case QHttpServerRequest::Method::Options: return "OPTIONS";
  case QHttpServerRequest::Method::Patch: return "PATCH";
  case QHttpServerRequest::Method::Connect: return "CONNECT";
  case QHttpServerRequest::Method::Trace: return "TRACE";
  default: return "UNKNOWN"; // QHttpServerRequest::Method is a flag set (All, AnyKnown)
  }
}

QByteArray contentType(const QString& path) {
  if (path.endsWith(".html")) return "text/html; charset=utf-8";
  if (path.endsWith(".js")) return "text/javascript; charset=utf-8";
  if (path.endsWith(".css")) return "text/css; charset=utf-8";
  if (path.endsWith(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

void writeJson(QHttpServerResponder& responder, int status, const nlohmann::json& body) {
  responder.write(QByteArray::fromStdString(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)),
                  {{"Content-Type", "application/json; charset=utf-8"},
                   {"Cache-Control", "no-store"},
                   {"X-Content-Type-Options", "nosniff"}},
                  static_cast<QHttpServerResponder::StatusCode>(status));
}

} // namespace

WebServer::WebServer(RootDirectory root, ApiOptions apiOptions, const ServerOptions& options, QObject* parent)
    : QAbstractHttpServer(parent), options_(options), access_(options.host, options.token) {
  // Job changes arrive on the job's thread; the sockets live on this one.
  api_ = std::make_unique<ExplorerApi>(std::move(root), std::move(apiOptions), [this](int id) {
    QMetaObject::invokeMethod(this, [this, id] { pushJob(id); }, Qt::QueuedConnection);
  });
  connect(this, &QAbstractHttpServer::newWebSocketConnection, this, &WebServer::acceptWebSocket);
}

WebServer::~WebServer() = default;

quint16 WebServer::start() {
  port_ = listen(options_.host, options_.port);
  return port_;
}

QString WebServer::url() const {
  const QString host = options_.host.protocol() == QAbstractSocket::IPv6Protocol ? "[" + options_.host.toString() + "]"
                                                                                : options_.host.toString();
  QString url = QString("http://%1:%2/").arg(host).arg(port_);
  if (!token().isEmpty()) url += "?token=" + token();
  return url;
}

bool WebServer::handleRequest(const QHttpServerRequest& request, QTcpSocket* socket) {
  // A WebSocket upgrade: answering true without a response lets the base
  // class hand the socket to its QWebSocketServer (acceptWebSocket then
  // checks the token); false refuses it.
  if (request.value("Upgrade").compare("websocket", Qt::CaseInsensitive) == 0) return request.url().path() == "/ws";
  if (request.url().path().startsWith("/api/")) answerApi(request, socket);
  else answerStatic(request, socket);
  return true;
}

void WebServer::missingHandler(const QHttpServerRequest& request, QTcpSocket* socket) {
  QHttpServerResponder responder = makeResponder(request, socket);
  writeJson(responder, 404, {{"error", request.url().path().toStdString() + ": not found"}});
}

void WebServer::answerApi(const QHttpServerRequest& request, QTcpSocket* socket) {
  QHttpServerResponder responder = makeResponder(request, socket);
  if (!access_.allows(request)) {
    writeJson(responder, 401, {{"error", "this server needs its token: open the link `tcx serve` printed"}});
    return;
  }
  if (request.url().path() == "/api/report.html") {
    answerReport(request, responder);
    return;
  }
  ApiRequest api{methodName(request.method()), request.url().path().toStdString(), {}, request.body().toStdString()};
  for (const auto& [key, value] : QUrlQuery(request.url()).queryItems(QUrl::FullyDecoded))
    if (key != "token") api.query.emplace_back(key.toStdString(), value.toStdString());
  const unsigned generation = api_->generation(), revision = api_->revision();
  const ApiResponse response = api_->handle(api);
  writeJson(responder, response.status, response.body);
  if (api_->revision() != revision) broadcast(QByteArray::fromStdString(api_->changeMessage(generation).dump()));
}

// The page's state as a report (HtmlReport.h), to save: the HTML needs the
// client's resources, which the API knows nothing of.
void WebServer::answerReport(const QHttpServerRequest& request, QHttpServerResponder& responder) {
  if (request.method() != QHttpServerRequest::Method::Get) {
    writeJson(responder, 405, {{"error", "/api/report.html: use GET"}});
    return;
  }
  if (!api_->isOpen()) {
    writeJson(responder, 409, {{"error", "no model is open: nothing to report"}});
    return;
  }
  const QByteArray name = QUrl::toPercentEncoding(QString::fromStdString(api_->modelName()));
  responder.write(QByteArray::fromStdString(htmlReport(*api_)),
                  {{"Content-Type", "text/html; charset=utf-8"},
                   {"Content-Disposition", "attachment; filename=\"" + name + "-report.html\""},
                   {"Cache-Control", "no-store"}},
                  QHttpServerResponder::StatusCode::Ok);
}

// The client: index.html at "/", the other files by name, all from the
// resources compiled in (nothing is read from disk).
void WebServer::answerStatic(const QHttpServerRequest& request, QTcpSocket* socket) {
  QHttpServerResponder responder = makeResponder(request, socket);
  if (request.method() != QHttpServerRequest::Method::Get) {
    writeJson(responder, 405, {{"error", "the page's files are read with GET"}});
    return;
  }
  QString path = request.url().path();
  if (path == "/") path = "/index.html";
  QFile file(":/tcx/web" + path);
  if (path.contains("..") || !file.open(QIODevice::ReadOnly)) {
    writeJson(responder, 404, {{"error", path.toStdString() + ": not found"}});
    return;
  }
  responder.write(file.readAll(), {{"Content-Type", contentType(path)}, {"X-Content-Type-Options", "nosniff"}},
                  QHttpServerResponder::StatusCode::Ok);
}

void WebServer::acceptWebSocket() {
  while (hasPendingWebSocketConnections()) {
    std::unique_ptr<QWebSocket> socket = nextPendingWebSocketConnection();
    if (!access_.allows(socket->requestUrl())) {
      socket->close(QWebSocketProtocol::CloseCodePolicyViolated, "this server needs its token");
      socket.release()->deleteLater();
      continue;
    }
    QWebSocket* raw = socket.get();
    connect(raw, &QWebSocket::disconnected, this, [this, raw] {
      auto it = std::find_if(sockets_.begin(), sockets_.end(), [raw](const auto& s) { return s.get() == raw; });
      if (it != sockets_.end()) {
        it->release()->deleteLater();
        sockets_.erase(it);
      }
    });
    sockets_.push_back(std::move(socket));
  }
}

void WebServer::pushJob(int id) {
  const unsigned generation = api_->generation(), revision = api_->revision();
  broadcast(QByteArray::fromStdString(api_->jobEvent(id).dump()));
  if (api_->revision() != revision) broadcast(QByteArray::fromStdString(api_->changeMessage(generation).dump()));
}

void WebServer::broadcast(const QByteArray& message) {
  for (const auto& socket : sockets_) socket->sendTextMessage(QString::fromUtf8(message));
}

} // namespace tcx::web
