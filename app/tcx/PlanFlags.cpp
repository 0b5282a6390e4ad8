#include "PlanFlags.h"

#include <array>

namespace tcx::cli {

namespace {

constexpr std::array kLayoutPolicies{LayoutPolicy::AsExported, LayoutPolicy::ChannelsLast, LayoutPolicy::Auto};

} // namespace

PlanOptions PlanFlags::options() const {
  PlanOptions o{.donateInputs = !noDonate};
  for (LayoutPolicy p : kLayoutPolicies)
    if (layout == layoutPolicyName(p)) o.layouts = p;
  return o;
}

void addPlanFlags(CLI::App& command, PlanFlags& flags) {
  command.add_flag("--no-donate", flags.noDonate, "Never update a graph input in place (a KV cache) for its output");
  std::vector<std::string> names;
  for (LayoutPolicy p : kLayoutPolicies) names.push_back(layoutPolicyName(p));
  command.add_option("--layout", flags.layout,
                     "How intermediates are stored: as-exported; channels-last for the 4-D tensors convolutions "
                     "read and write; auto (the default): channels-last where no convolution is depthwise and there are "
                     "8 GFLOP of convolution work or more")
      ->check(CLI::IsMember(names));
}

} // namespace tcx::cli
