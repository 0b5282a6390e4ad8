#pragma once
// The registry of supported ops. Built once, on first use, by the
// registration functions of each op family (ops/Registration.h).

#include "ops/OpDef.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tcx {

class OpRegistry {
public:
  static const OpRegistry& instance();

  // nullptr if `name` is not a supported op.
  const OpDef* find(const std::string& name) const;
  std::vector<const OpDef*> all() const; // sorted by name

  // Used by the registration functions only: add an op, and complete a
  // registered one (a family's CUDA forms are registered after its ops).
  void add(OpDef def);
  OpDef& edit(const std::string& name);

private:
  std::map<std::string, std::unique_ptr<OpDef>> ops_;
};

} // namespace tcx
