#include "AccessPolicy.h"

#include <QHttpServerRequest>
#include <QRandomGenerator>
#include <QUrl>
#include <QUrlQuery>

namespace tcx::web {

namespace {

// 128 random bits from the system's generator, as hex.
QString generateToken() {
  QByteArray bytes(16, '\0');
  QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(bytes.data()), bytes.size() / 4);
  return QString::fromLatin1(bytes.toHex());
}

} // namespace

AccessPolicy::AccessPolicy(const QHostAddress& host, QString token) : token_(std::move(token)) {
  if (token_.isEmpty() && !host.isLoopback()) token_ = generateToken();
}

bool AccessPolicy::matches(const QString& candidate) const {
  if (candidate.size() != token_.size()) return false;
  // Compared in constant time: the token's prefix must not leak through timing.
  int diff = 0;
  for (qsizetype i = 0; i < candidate.size(); ++i) diff |= candidate[i].unicode() ^ token_[i].unicode();
  return diff == 0;
}

bool AccessPolicy::allows(const QHttpServerRequest& request) const {
  if (token_.isEmpty()) return true;
  const QByteArray header = request.value("Authorization");
  if (header.startsWith("Bearer ") && matches(QString::fromLatin1(header.mid(7)))) return true;
  return allows(request.url());
}

bool AccessPolicy::allows(const QUrl& url) const {
  return token_.isEmpty() || matches(QUrlQuery(url).queryItemValue("token", QUrl::FullyDecoded));
}

} // namespace tcx::web
