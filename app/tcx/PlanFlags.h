#pragma once
// --no-donate and --layout: how a strategy is lowered to a plan
// (PlanOptions), shared by every command that lowers one.

#include "plan/PlanLowering.h"

#include <CLI/CLI.hpp>

#include <string>

namespace tcx::cli {

struct PlanFlags {
  bool noDonate = false;
  std::string layout = layoutPolicyName(LayoutPolicy::Auto);

  PlanOptions options() const;
};

void addPlanFlags(CLI::App& command, PlanFlags& flags);

} // namespace tcx::cli
