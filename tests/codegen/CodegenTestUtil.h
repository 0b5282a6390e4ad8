#pragma once
// What the code generation tests ask of a GeneratedPlan.

#include "codegen/GeneratedPlan.h"

#include <algorithm>
#include <string>
#include <vector>

namespace tcx::test {

inline size_t countLaunches(const GeneratedPlan& g, const std::string& prefix) {
  size_t n = 0;
  for (const GeneratedLaunch& l : g.launches) n += l.what.rfind(prefix, 0) == 0;
  return n;
}

// The launches whose description mentions `text`.
inline std::vector<GeneratedLaunch> launchesDescribed(const GeneratedPlan& g, const std::string& text) {
  std::vector<GeneratedLaunch> found;
  for (const GeneratedLaunch& l : g.launches)
    if (l.what.find(text) != std::string::npos) found.push_back(l);
  return found;
}

inline size_t countOccurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The entries of `source` that do not open with the wait for the kernel
// before them (codegen/KernelText.h kernelOpening). A kernel not written as
// ModuleBuilder writes them shows as missing too.
inline std::vector<std::string> entriesNotAwaiting(const std::string& source) {
  const std::string signature = "extern \"C\" __global__ void", params = "(Buffers b) {\n";
  std::vector<std::string> missing;
  for (size_t at = source.find(signature); at != std::string::npos; at = source.find(signature, at + 1)) {
    const size_t open = source.find(params, at);
    const size_t nameStart = open == std::string::npos ? at : source.rfind(' ', open) + 1;
    const std::string name = source.substr(nameStart, open == std::string::npos ? 40 : open - nameStart);
    if (open == std::string::npos || source.compare(open + params.size(), 28, "  tcx::awaitPredecessors();\n") != 0)
      missing.push_back(name);
  }
  return missing;
}

// The slot a launch binds `buffer` to (at offset 0), or -1.
inline int slotOf(const GeneratedLaunch& l, int buffer) {
  const auto slot = std::find(l.buffers.begin(), l.buffers.end(), BufferBinding{buffer, 0});
  return slot == l.buffers.end() ? -1 : static_cast<int>(slot - l.buffers.begin());
}

// The lines of `span` in the plan's source.
inline std::string spanText(const GeneratedPlan& g, const SourceSpan& span) { return std::string(g.spanText(span)); }

} // namespace tcx::test
