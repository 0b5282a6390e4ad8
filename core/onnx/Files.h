#pragma once
// Whole-file reads for model and tensor files (support/AtomicFile.h writes them).

#include <string>

namespace tcx {

// The bytes of `path`; raises Io when it cannot be opened or read.
std::string readFileBytes(const std::string& path);

// The folder that paths inside the file at `path` are relative to.
std::string parentFolder(const std::string& path);

} // namespace tcx
