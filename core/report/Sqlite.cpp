#include "report/Sqlite.h"

#include "support/Error.h"

#include <sqlite3.h>

namespace tcx {

SqliteDb::SqliteDb(const std::string& path) : path_(path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    raise(ErrorKind::Io, "cannot create SQLite database '{}': {}", path, msg);
  }
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

void SqliteDb::exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    raise(ErrorKind::Io, "SQLite error in '{}': {}", path_, msg);
  }
}

SqliteStatement::SqliteStatement(SqliteDb& db, const std::string& sql) : db_(db) {
  TCX_CHECK(sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr) == SQLITE_OK, ErrorKind::Internal,
            "SQLite cannot prepare '{}': {}", sql, sqlite3_errmsg(db.handle()));
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement& SqliteStatement::bind(int64_t v) {
  sqlite3_bind_int64(stmt_, next_++, v);
  return *this;
}

SqliteStatement& SqliteStatement::bind(double v) {
  sqlite3_bind_double(stmt_, next_++, v);
  return *this;
}

SqliteStatement& SqliteStatement::bind(const std::string& v) {
  sqlite3_bind_text(stmt_, next_++, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  return *this;
}

SqliteStatement& SqliteStatement::bindNull() {
  sqlite3_bind_null(stmt_, next_++);
  return *this;
}

void SqliteStatement::run() {
  int rc = sqlite3_step(stmt_);
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  next_ = 1;
  TCX_CHECK(rc == SQLITE_DONE, ErrorKind::Io, "SQLite error in '{}': {}", db_.path(), sqlite3_errmsg(db_.handle()));
}

} // namespace tcx
