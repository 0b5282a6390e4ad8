#pragma once
// A thin RAII layer over SQLite's C API: a database handle and prepared
// statements with typed binds, raising tcx::Error on any failure.

#include <cstdint>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace tcx {

class SqliteDb {
public:
  explicit SqliteDb(const std::string& path); // creates the file
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  void exec(const std::string& sql);
  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }

private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

class SqliteStatement {
public:
  SqliteStatement(SqliteDb& db, const std::string& sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  // Binds the next parameter (1, 2, ... in call order since the last run()).
  SqliteStatement& bind(int64_t v);
  SqliteStatement& bind(double v);
  SqliteStatement& bind(const std::string& v);
  SqliteStatement& bindNull();
  // Executes, then resets for the next row.
  void run();

private:
  SqliteDb& db_;
  sqlite3_stmt* stmt_ = nullptr;
  int next_ = 1;
};

} // namespace tcx
