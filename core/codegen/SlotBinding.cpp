#include "codegen/SlotBinding.h"

#include "support/Error.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fmt/format.h>

namespace tcx {

std::string unboundBufferRef(int buffer, int64_t byteOffset) {
  TCX_CHECK(byteOffset >= 0, ErrorKind::Internal, "buffer {} named at the negative offset {}", buffer, byteOffset);
  return byteOffset ? fmt::format("b.p[{}+{}]", buffer, byteOffset) : fmt::format("b.p[{}]", buffer);
}

namespace {

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether what is at `at` in `text` begins a word: no letter, digit or _
// before it.
bool startsWord(std::string_view text, size_t at) { return at == 0 || !isIdentifierChar(text[at - 1]); }

} // namespace

BoundCode bindSlots(std::string_view code) {
  constexpr std::string_view kRef = "b.p[";
  BoundCode bound;
  size_t at = 0;
  for (size_t ref = code.find(kRef); ref != std::string_view::npos; ref = code.find(kRef, at)) {
    if (!startsWord(code, ref)) {
      bound.code += code.substr(at, ref + kRef.size() - at);
      at = ref + kRef.size();
      continue;
    }
    const size_t digits = ref + kRef.size();
    const char* const last = code.data() + code.size();
    BufferBinding binding;
    std::from_chars_result parsed = std::from_chars(code.data() + digits, last, binding.buffer);
    if (parsed.ec == std::errc() && parsed.ptr < last && *parsed.ptr == '+')
      parsed = std::from_chars(parsed.ptr + 1, last, binding.byteOffset);
    const size_t close = static_cast<size_t>(parsed.ptr - code.data());
    TCX_CHECK(parsed.ec == std::errc() && close < code.size() && code[close] == ']', ErrorKind::Internal,
              "generated code names a buffer as '{}', not as unboundBufferRef does", code.substr(ref, 24));
    const size_t slot = std::find(bound.buffers.begin(), bound.buffers.end(), binding) - bound.buffers.begin();
    if (slot == bound.buffers.size()) bound.buffers.push_back(binding);
    bound.code += code.substr(at, digits - at);
    bound.code += std::to_string(slot);
    at = close;
  }
  bound.code += code.substr(at);
  return bound;
}

std::vector<std::string> describeSlots(const ExecPlan& plan, const GeneratedPlan& code, int planKernel) {
  const auto launch = std::ranges::find(code.launches, planKernel, &GeneratedLaunch::planKernel);
  if (launch == code.launches.end()) return {};
  std::vector<std::string> slots;
  for (size_t s = 0; s < launch->buffers.size(); ++s) {
    const BufferBinding& binding = launch->buffers[s];
    if (binding.isValue()) {
      slots.push_back(fmt::format("b.p[{}] = {}, a launch value", s, binding.byteOffset));
      continue;
    }
    const size_t b = static_cast<size_t>(binding.buffer);
    const std::string& buffer =
        b < code.numPlanBuffers ? plan.buffers.at(b).name : code.scratchNames.at(b - code.numPlanBuffers);
    slots.push_back(binding.byteOffset ? fmt::format("b.p[{}] = {} + {} bytes", s, buffer, binding.byteOffset)
                                       : fmt::format("b.p[{}] = {}", s, buffer));
  }
  return slots;
}

std::string replacePrefix(std::string_view code, std::string_view prefix, std::string_view to) {
  std::string out;
  size_t at = 0;
  for (size_t found = code.find(prefix); found != std::string_view::npos; found = code.find(prefix, found + 1)) {
    if (!startsWord(code, found)) continue;
    out += code.substr(at, found - at);
    out += to;
    at = found + prefix.size();
  }
  out += code.substr(at);
  return out;
}

} // namespace tcx
