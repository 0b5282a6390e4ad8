#include "superopt/PartitionCache.h"

namespace tcx::superopt::detail {

std::shared_ptr<const std::vector<GraphPartition>>
PartitionCache::of(const std::shared_ptr<const KernelPrefix>& prefix, const std::vector<mugraph::TensorRef>& operands) {
  {
    std::lock_guard lock(mutex_);
    for (const Entry& e : entries_)
      if (e.prefix == prefix && e.operands == operands) return e.partitions;
  }
  // Enumerated outside the lock: two workers may both miss a set and
  // enumerate it, never wait on each other's enumeration.
  AxisAnalysis::Labelled labels = axes_.label(prefix->graph);
  std::vector<const TensorLabels*> l;
  std::vector<mugraph::TensorDesc> descs;
  for (mugraph::TensorRef t : operands) {
    l.push_back(&*labels.of(t));
    descs.push_back(prefix->graph.desc(t));
  }
  auto parts = std::make_shared<const std::vector<GraphPartition>>(
      sizeClassRepresentatives(enumeratePartitions(labels.unifier, l, limits_), descs));
  std::lock_guard lock(mutex_);
  if (entries_.size() == kSize) entries_.pop_front();
  entries_.push_back({prefix, operands, parts});
  return parts;
}

} // namespace tcx::superopt::detail
