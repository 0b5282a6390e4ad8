#include "ModelOptions.h"

#include "onnx/OnnxImporter.h"

namespace tcx::cli {

void ModelOptions::addTo(CLI::App& command) {
  command.add_option("MODEL", path, "ONNX model file (.onnx)")->required()->check(CLI::ExistingFile);
  command.add_option("--dim", dims, "Bind a symbolic input dimension, NAME=SIZE (repeatable)")
      ->type_name("NAME=SIZE");
}

Graph ModelOptions::load() const {
  ImportOptions options;
  for (const std::string& binding : dims) {
    size_t eq = binding.find('=');
    TCX_CHECK(eq != std::string::npos && eq > 0, ErrorKind::InvalidArgument, "--dim expects NAME=SIZE, got '{}'",
              binding);
    int64_t size = 0;
    try {
      size_t used = 0;
      size = std::stoll(binding.substr(eq + 1), &used);
      TCX_CHECK(used == binding.size() - eq - 1 && size > 0, ErrorKind::InvalidArgument, "bad size");
    } catch (const std::exception&) {
      raise(ErrorKind::InvalidArgument, "--dim {}: the size must be a positive integer", binding);
    }
    options.dimBindings[binding.substr(0, eq)] = size;
  }
  return importOnnx(path, options);
}

} // namespace tcx::cli
