#pragma once
// The one error type of tcx. Every failure that a user can cause (a bad file,
// an unsupported op, a shape that cannot be inferred) is an Error with a kind
// that the front ends map to an exit code (docs/cli.md) and a message that
// names the file, node and op involved.

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace tcx {

enum class ErrorKind {
  InvalidArgument,    // a bad command-line value or API argument
  Io,                 // a file that cannot be read or written
  InvalidModel,       // a malformed or inconsistent model
  Unsupported,        // a valid model that uses something tcx does not support
  ShapeInference,     // a shape or dtype that cannot be inferred or is inconsistent
  DataDependentShape, // a shape that depends on a value only known at run time
  Device,             // the GPU failed: out of device memory, a fault inside a kernel
  Internal,           // a bug in tcx
};

const char* errorKindName(ErrorKind kind);

class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}

  ErrorKind kind() const { return kind_; }

  // The same error with `context` ("model.onnx: node 'x' (Reshape)") in front.
  Error withContext(const std::string& context) const {
    return Error(kind_, context + ": " + what());
  }

private:
  ErrorKind kind_;
};

template <typename... Args>
[[noreturn]] void raise(ErrorKind kind, fmt::format_string<Args...> format, Args&&... args) {
  throw Error(kind, fmt::format(format, std::forward<Args>(args)...));
}

// Checks an invariant that a caller's input can violate.
#define TCX_CHECK(cond, kind, ...)                                                                 \
  do {                                                                                             \
    if (!(cond))                                                                                   \
      ::tcx::raise(kind, __VA_ARGS__);                                                             \
  } while (false)

} // namespace tcx
