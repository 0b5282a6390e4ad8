#pragma once
// `tcx serve`: the web explorer's HTTP server. It carries requests to the
// ExplorerApi and its answers back (web/api has every rule), serves the
// client compiled in as Qt resources (web/client), checks the AccessPolicy,
// and pushes job progress and strategy changes to every page over one
// WebSocket each (/ws).

#include "AccessPolicy.h"

#include "web/api/ExplorerApi.h"

#include <QAbstractHttpServer>
#include <QHostAddress>
#include <QHttpServerResponder>

#include <memory>
#include <vector>

class QWebSocket;

namespace tcx::web {

struct ServerOptions {
  QHostAddress host = QHostAddress::LocalHost;
  quint16 port = 0; // 0: any free port
  QString token;    // empty: generated unless the host is loopback
};

class WebServer : public QAbstractHttpServer {
  Q_OBJECT

public:
  WebServer(RootDirectory root, ApiOptions apiOptions, const ServerOptions& options, QObject* parent = nullptr);
  ~WebServer() override;

  ExplorerApi& api() { return *api_; }
  // Listens; returns the port, or 0 when the address cannot be bound.
  quint16 start();
  // "http://127.0.0.1:8080/" with the token's query when one is needed.
  QString url() const;
  const QString& token() const { return access_.token(); }

protected:
  bool handleRequest(const QHttpServerRequest& request, QTcpSocket* socket) override;
  void missingHandler(const QHttpServerRequest& request, QTcpSocket* socket) override;

private:
  void answerApi(const QHttpServerRequest& request, QTcpSocket* socket);
  void answerStatic(const QHttpServerRequest& request, QTcpSocket* socket);
  void answerReport(const QHttpServerRequest& request, QHttpServerResponder& responder);
  void acceptWebSocket();
  void pushJob(int id);
  void broadcast(const QByteArray& message);

  ServerOptions options_;
  AccessPolicy access_;
  std::unique_ptr<ExplorerApi> api_;
  quint16 port_ = 0;
  std::vector<std::unique_ptr<QWebSocket>> sockets_;
};

} // namespace tcx::web
