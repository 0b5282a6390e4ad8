#pragma once
// The directory `tcx serve --root` confines model paths to. A path a client
// names is resolved against it with every symlink followed, and refused
// unless the result still lies inside: `..` and links pointing out of the
// root cannot reach other files.

#include <filesystem>
#include <string>

namespace tcx::web {

class RootDirectory {
public:
  // Raises tcx::Error (Io) when `root` is not a directory.
  explicit RootDirectory(const std::filesystem::path& root);

  const std::filesystem::path& path() const { return root_; }
  // The canonical file `relative` names under the root: ApiError 403 when it
  // lies outside, 404 when there is no such file.
  std::filesystem::path resolve(const std::string& relative) const;
  // `file` relative to the root, for display ("samples/x.onnx").
  std::string relativeName(const std::filesystem::path& file) const;

private:
  std::filesystem::path root_; // canonical
};

} // namespace tcx::web
