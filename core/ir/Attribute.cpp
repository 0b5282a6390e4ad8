#include "ir/Attribute.h"

#include <fmt/ranges.h>

namespace tcx {

const char* attrKindName(AttrKind kind) {
  switch (kind) {
  case AttrKind::Int: return "int";
  case AttrKind::Float: return "float";
  case AttrKind::String: return "string";
  case AttrKind::Ints: return "ints";
  case AttrKind::Floats: return "floats";
  case AttrKind::Strings: return "strings";
  case AttrKind::Tensor: return "tensor";
  }
  return "?";
}

std::string Attribute::toString() const {
  return std::visit(
      [](const auto& v) -> std::string {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, Tensor>)
          return "tensor " + v.type().toString();
        else if constexpr (std::is_same_v<V, std::string>)
          return fmt::format("\"{}\"", v);
        else if constexpr (std::is_same_v<V, std::vector<std::string>>)
          return fmt::format("[{}]", fmt::join(v, ","));
        else if constexpr (std::is_same_v<V, int64_t> || std::is_same_v<V, float>)
          return fmt::format("{}", v);
        else
          return fmt::format("[{}]", fmt::join(v, ","));
      },
      value_);
}

template <typename T> const T& AttrMap::get(const std::string& name, AttrKind kind) const {
  auto it = attrs_.find(name);
  TCX_CHECK(it != attrs_.end(), ErrorKind::InvalidModel, "required attribute '{}' is missing", name);
  TCX_CHECK(it->second.kind() == kind, ErrorKind::InvalidModel, "attribute '{}' is {}, expected {}", name,
            attrKindName(it->second.kind()), attrKindName(kind));
  return std::get<T>(it->second.storage());
}

int64_t AttrMap::getInt(const std::string& name) const { return get<int64_t>(name, AttrKind::Int); }
float AttrMap::getFloat(const std::string& name) const { return get<float>(name, AttrKind::Float); }
const std::string& AttrMap::getString(const std::string& name) const {
  return get<std::string>(name, AttrKind::String);
}
const std::vector<int64_t>& AttrMap::getInts(const std::string& name) const {
  return get<std::vector<int64_t>>(name, AttrKind::Ints);
}
const std::vector<float>& AttrMap::getFloats(const std::string& name) const {
  return get<std::vector<float>>(name, AttrKind::Floats);
}
const Tensor& AttrMap::getTensor(const std::string& name) const { return get<Tensor>(name, AttrKind::Tensor); }

int64_t AttrMap::getInt(const std::string& name, int64_t dflt) const { return has(name) ? getInt(name) : dflt; }
float AttrMap::getFloat(const std::string& name, float dflt) const { return has(name) ? getFloat(name) : dflt; }
std::string AttrMap::getString(const std::string& name, const std::string& dflt) const {
  return has(name) ? getString(name) : dflt;
}
std::vector<int64_t> AttrMap::getInts(const std::string& name, std::vector<int64_t> dflt) const {
  return has(name) ? getInts(name) : dflt;
}
std::optional<std::vector<int64_t>> AttrMap::findInts(const std::string& name) const {
  if (!has(name)) return std::nullopt;
  return getInts(name);
}

} // namespace tcx
