#include "web/api/RootDirectory.h"

#include "web/api/ApiTypes.h"

#include "support/Error.h"

#include <algorithm>

namespace fs = std::filesystem;

namespace tcx::web {

namespace {

bool within(const fs::path& file, const fs::path& root) {
  auto [rootEnd, fileIt] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
  return rootEnd == root.end();
}

} // namespace

RootDirectory::RootDirectory(const fs::path& root) {
  std::error_code ec;
  root_ = fs::canonical(root, ec);
  TCX_CHECK(!ec && fs::is_directory(root_), ErrorKind::Io, "--root {}: not a directory", root.string());
}

fs::path RootDirectory::resolve(const std::string& relative) const {
  if (relative.empty()) throw ApiError(400, "no path given");
  const fs::path asked(relative);
  // The lexical check first, so that `..` is refused whether or not the file
  // it would reach exists (and its existence is not revealed).
  const fs::path joined = (asked.is_absolute() ? asked : root_ / asked).lexically_normal();
  if (!within(joined, root_)) throw ApiError(403, "'" + relative + "' lies outside the served root");
  std::error_code ec;
  const fs::path file = fs::canonical(joined, ec);
  if (ec) throw ApiError(404, "'" + relative + "': no such file under the served root");
  if (!within(file, root_)) throw ApiError(403, "'" + relative + "' leads outside the served root (a symbolic link)");
  if (!fs::is_regular_file(file)) throw ApiError(400, "'" + relative + "' is not a file");
  return file;
}

std::string RootDirectory::relativeName(const fs::path& file) const {
  return within(file, root_) ? file.lexically_relative(root_).generic_string() : file.filename().string();
}

} // namespace tcx::web
