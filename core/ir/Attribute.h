#pragma once
// Node attributes, with the kinds ONNX uses (graphs and sparse tensors are
// not supported). AttrMap's typed getters raise a clear error when an
// attribute is missing or of the wrong kind.

#include "ir/Tensor.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tcx {

enum class AttrKind { Int, Float, String, Ints, Floats, Strings, Tensor };
const char* attrKindName(AttrKind kind);

class Attribute {
public:
  using Storage = std::variant<int64_t, float, std::string, std::vector<int64_t>, std::vector<float>,
                               std::vector<std::string>, Tensor>;

  Attribute(int64_t v) : value_(v) {}
  Attribute(int v) : value_(static_cast<int64_t>(v)) {}
  Attribute(float v) : value_(v) {}
  Attribute(std::string v) : value_(std::move(v)) {}
  Attribute(const char* v) : value_(std::string(v)) {}
  Attribute(std::vector<int64_t> v) : value_(std::move(v)) {}
  Attribute(std::vector<float> v) : value_(std::move(v)) {}
  Attribute(std::vector<std::string> v) : value_(std::move(v)) {}
  Attribute(Tensor v) : value_(std::move(v)) {}

  AttrKind kind() const { return static_cast<AttrKind>(value_.index()); }
  const Storage& storage() const { return value_; }
  std::string toString() const; // for printers and the details panel

private:
  Storage value_;
};

class AttrMap {
public:
  bool has(const std::string& name) const { return attrs_.count(name) != 0; }
  void set(const std::string& name, Attribute value) { attrs_.insert_or_assign(name, std::move(value)); }
  void erase(const std::string& name) { attrs_.erase(name); }
  const std::map<std::string, Attribute>& all() const { return attrs_; }
  bool empty() const { return attrs_.empty(); }

  // Required attributes: raise InvalidModel when missing or of another kind.
  int64_t getInt(const std::string& name) const;
  float getFloat(const std::string& name) const;
  const std::string& getString(const std::string& name) const;
  const std::vector<int64_t>& getInts(const std::string& name) const;
  const std::vector<float>& getFloats(const std::string& name) const;
  const Tensor& getTensor(const std::string& name) const;

  // Optional attributes with a default.
  int64_t getInt(const std::string& name, int64_t dflt) const;
  float getFloat(const std::string& name, float dflt) const;
  std::string getString(const std::string& name, const std::string& dflt) const;
  std::vector<int64_t> getInts(const std::string& name, std::vector<int64_t> dflt) const;
  std::optional<std::vector<int64_t>> findInts(const std::string& name) const;

private:
  template <typename T> const T& get(const std::string& name, AttrKind kind) const;
  std::map<std::string, Attribute> attrs_;
};

} // namespace tcx
