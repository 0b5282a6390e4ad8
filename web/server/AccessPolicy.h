#pragma once
// Who may use a `tcx serve`: anyone on loopback by default; when the server
// listens on another address, only requests carrying its token (the
// `Authorization: Bearer T` header or a `token=T` query parameter, which the
// page passes on from the link it was opened with). The token guards every
// API request and the WebSocket; the page and its scripts hold no model data
// and are served to anyone who can connect.

#include <QByteArray>
#include <QHostAddress>
#include <QString>

class QHttpServerRequest;
class QUrl;

namespace tcx::web {

class AccessPolicy {
public:
  // `token` empty: generated when `host` is not loopback.
  AccessPolicy(const QHostAddress& host, QString token);

  // Empty when no token is needed (loopback without --token).
  const QString& token() const { return token_; }
  bool allows(const QHttpServerRequest& request) const;
  bool allows(const QUrl& url) const; // a WebSocket's request URL

private:
  bool matches(const QString& candidate) const;
  QString token_;
};

} // namespace tcx::web
