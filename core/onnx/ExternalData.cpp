#include "onnx/ExternalData.h"

#include "support/Error.h"

#include <onnx/onnx_pb.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>

namespace tcx {

namespace {

struct ExternalLocation {
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
};

uint64_t parseByteCount(const std::string& key, const std::string& text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  TCX_CHECK(ec == std::errc() && end == text.data() + text.size(), ErrorKind::InvalidModel,
            "external data {} '{}' is not a byte count", key, text);
  return value;
}

ExternalLocation parseLocation(const onnx::TensorProto& proto) {
  ExternalLocation loc;
  for (const onnx::StringStringEntryProto& entry : proto.external_data()) {
    if (entry.key() == "location")
      loc.location = entry.value();
    else if (entry.key() == "offset")
      loc.offset = parseByteCount("offset", entry.value());
    else if (entry.key() == "length")
      loc.length = parseByteCount("length", entry.value());
  }
  TCX_CHECK(!loc.location.empty(), ErrorKind::InvalidModel, "external data has no location");
  return loc;
}

// A model must not make tcx read files outside its own folder.
std::filesystem::path resolve(const std::string& baseDir, const std::string& location) {
  std::filesystem::path relative(location);
  bool escapes = relative.is_absolute();
  for (const auto& part : relative) escapes = escapes || part == "..";
  TCX_CHECK(!escapes, ErrorKind::InvalidModel, "external data location '{}' is outside the model's folder", location);
  return std::filesystem::path(baseDir) / relative;
}

} // namespace

Tensor readExternalData(const onnx::TensorProto& proto, const std::string& baseDir, TensorType type) {
  ExternalLocation loc = parseLocation(proto);
  std::filesystem::path path = resolve(baseDir, loc.location);
  uint64_t length = loc.length.value_or(type.byteSize());
  TCX_CHECK(length == type.byteSize(), ErrorKind::InvalidModel,
            "external data length {} does not match the tensor's {} bytes", length, type.byteSize());

  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  TCX_CHECK(in && !std::filesystem::is_directory(path, ec), ErrorKind::Io, "cannot open external data file '{}'",
            path.string());
  uint64_t fileSize = std::filesystem::file_size(path, ec);
  TCX_CHECK(!ec, ErrorKind::Io, "cannot read the size of external data file '{}': {}", path.string(), ec.message());
  TCX_CHECK(loc.offset <= fileSize && length <= fileSize - loc.offset, ErrorKind::InvalidModel,
            "external data file '{}' is too short: the tensor needs bytes [{}, {}) but the file has {}", path.string(),
            loc.offset, loc.offset + length, fileSize);

  Tensor t(std::move(type));
  in.seekg(static_cast<std::streamoff>(loc.offset));
  in.read(reinterpret_cast<char*>(t.raw()), static_cast<std::streamsize>(length));
  TCX_CHECK(in && static_cast<uint64_t>(in.gcount()) == length, ErrorKind::Io,
            "cannot read {} bytes at offset {} of external data file '{}'", length, loc.offset, path.string());
  return t;
}

} // namespace tcx
