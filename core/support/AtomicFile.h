#pragma once
// Writing a file so that readers see the old file or the whole new one,
// never a half-written one: write a temporary beside it, then rename.

#include <string>
#include <string_view>

namespace tcx {

// Raises Io naming the path on failure; the target is untouched then.
void writeFileAtomically(const std::string& path, std::string_view contents);

} // namespace tcx
