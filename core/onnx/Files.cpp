#include "onnx/Files.h"

#include "support/Error.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tcx {

std::string readFileBytes(const std::string& path) {
  std::error_code ec;
  TCX_CHECK(!std::filesystem::is_directory(path, ec), ErrorKind::Io, "cannot read '{}': it is a folder", path);
  std::ifstream in(path, std::ios::binary);
  TCX_CHECK(in, ErrorKind::Io, "cannot open '{}': {}", path, std::strerror(errno));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  TCX_CHECK(!in.bad(), ErrorKind::Io, "cannot read '{}'", path);
  return std::move(bytes).str();
}

std::string parentFolder(const std::string& path) { return std::filesystem::path(path).parent_path().string(); }

} // namespace tcx
