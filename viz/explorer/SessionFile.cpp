#include "SessionFile.h"

#include "support/AtomicFile.h"
#include "support/Error.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace tcx::viz {

namespace {

constexpr const char* kFormat = "tcx-explorer-session";
constexpr int kVersion = 1;

QJsonArray strings(const std::vector<std::string>& items) {
  QJsonArray a;
  for (const std::string& s : items) a.append(QString::fromStdString(s));
  return a;
}

// Reads one session file, every complaint naming it.
class Reader {
public:
  explicit Reader(QString path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const QString& what) const {
    raise(ErrorKind::InvalidArgument, "{}: {}", path_.toStdString(), what.toStdString());
  }

  QJsonValue field(const QJsonObject& o, const char* name, QJsonValue::Type type, bool required) const {
    QJsonValue v = o.value(name);
    if (v.isUndefined() && !required) return v;
    if (v.type() != type) fail(QString("'%1' is missing or has the wrong type").arg(name));
    return v;
  }

  std::vector<std::string> edgeNames(const QJsonObject& c, const char* name) const {
    std::vector<std::string> out;
    for (const QJsonValue& v : field(c, name, QJsonValue::Array, false).toArray()) {
      if (!v.isString()) fail(QString("constraints.%1 must list edge names").arg(name));
      out.push_back(v.toString().toStdString());
    }
    return out;
  }

  ViewBookmark bookmark(const QJsonValue& v) const {
    if (!v.isObject()) fail("a bookmark is not an object");
    const QJsonObject b = v.toObject();
    const QJsonArray m = field(b, "transform", QJsonValue::Array, true).toArray();
    const QJsonArray c = field(b, "centre", QJsonValue::Array, true).toArray();
    if (m.size() != 6 || c.size() != 2) fail("a bookmark needs a 6-number transform and a 2-number centre");
    return {field(b, "name", QJsonValue::String, true).toString(), field(b, "tab", QJsonValue::String, true).toString(),
            QTransform(m[0].toDouble(), m[1].toDouble(), m[2].toDouble(), m[3].toDouble(), m[4].toDouble(),
                       m[5].toDouble()),
            QPointF(c[0].toDouble(), c[1].toDouble())};
  }

  SessionState read(const QJsonObject& o) const {
    if (o.value("format").toString() != kFormat) fail(QString("not a tcx explorer session (no \"format\": \"%1\")").arg(kFormat));
    if (o.value("version").toInt() != kVersion) fail(QString("unsupported session version (this tcx reads %1)").arg(kVersion));
    SessionState s;
    const QString model = field(o, "model", QJsonValue::String, true).toString();
    s.modelPath = QFileInfo(model).isAbsolute() ? model : QFileInfo(path_).dir().absoluteFilePath(model);
    const QJsonObject c = field(o, "constraints", QJsonValue::Object, false).toObject();
    s.constraints = {edgeNames(c, "accepted"), edgeNames(c, "forced"), edgeNames(c, "forbidden")};
    s.tab = field(o, "tab", QJsonValue::String, false).toString();
    const QString selection = field(o, "selection", QJsonValue::String, false).toString();
    if (!selection.isEmpty()) {
      s.selection = view::ItemRef::parse(selection.toStdString());
      if (!s.selection) fail(QString("bad selection '%1' (expected kind:name)").arg(selection));
    }
    for (const QJsonValue& b : field(o, "bookmarks", QJsonValue::Array, false).toArray()) s.bookmarks.push_back(bookmark(b));
    return s;
  }

private:
  QString path_;
};

} // namespace

SessionState SessionFile::load(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    raise(ErrorKind::Io, "{}: cannot read the session: {}", path.toStdString(), file.errorString().toStdString());
  QJsonParseError parse;
  QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
  Reader reader(path);
  if (doc.isNull()) reader.fail(QString("not JSON: %1 at offset %2").arg(parse.errorString()).arg(parse.offset));
  if (!doc.isObject()) reader.fail("the session is not a JSON object");
  return reader.read(doc.object());
}

void SessionFile::save(const QString& path, const SessionState& state) {
  QJsonObject o{{"format", kFormat}, {"version", kVersion}};
  o["model"] = QFileInfo(path).absoluteDir().relativeFilePath(QFileInfo(state.modelPath).absoluteFilePath());
  o["constraints"] = QJsonObject{{"accepted", strings(state.constraints.accept)},
                                 {"forced", strings(state.constraints.force)},
                                 {"forbidden", strings(state.constraints.forbid)}};
  o["tab"] = state.tab;
  if (state.selection) o["selection"] = QString::fromStdString(state.selection->key());
  QJsonArray bookmarks;
  for (const ViewBookmark& b : state.bookmarks) {
    const QTransform& t = b.transform;
    bookmarks.append(QJsonObject{{"name", b.name},
                                 {"tab", b.tab},
                                 {"transform", QJsonArray{t.m11(), t.m12(), t.m21(), t.m22(), t.dx(), t.dy()}},
                                 {"centre", QJsonArray{b.centre.x(), b.centre.y()}}});
  }
  o["bookmarks"] = bookmarks;
  writeFileAtomically(path.toStdString(), QJsonDocument(o).toJson().toStdString());
}

} // namespace tcx::viz
