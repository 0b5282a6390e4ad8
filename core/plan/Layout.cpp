#include "plan/Layout.h"

#include "support/Error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>

namespace tcx {

const char* layoutPolicyName(LayoutPolicy policy) {
  switch (policy) {
  case LayoutPolicy::AsExported: return "as-exported";
  case LayoutPolicy::ChannelsLast: return "channels-last";
  case LayoutPolicy::Auto: return "auto";
  }
  return "?";
}

bool Layout::isIdentity() const {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != static_cast<int>(i)) return false;
  return true;
}

Layout Layout::channelsLast(int rank) {
  TCX_CHECK(rank >= 3, ErrorKind::Internal, "a channels-last layout needs a batch, a channel and a spatial dimension");
  Layout l;
  l.order.push_back(0);
  for (int d = 2; d < rank; ++d) l.order.push_back(d);
  l.order.push_back(1);
  return l;
}

std::string Layout::toString() const {
  if (isIdentity()) return "as stated";
  if (*this == channelsLast(4)) return "NHWC";
  return fmt::format("{}", fmt::join(order, ","));
}

Shape storedShape(const Shape& shape, const Layout& layout) {
  if (layout.isIdentity()) return shape;
  TCX_CHECK(layout.order.size() == shape.size(), ErrorKind::Internal, "layout {} for a tensor of rank {}",
            layout.toString(), shape.size());
  Shape stored;
  for (int d : layout.order) stored.push_back(shape[d]);
  return stored;
}

MappingFunction storageMapping(const Shape& shape, const Layout& layout) {
  if (layout.isIdentity()) return MappingFunction::identity(shape);
  // Kept per thread, as MappingFunction::identity keeps its own: lowering
  // composes this into every access of every tensor stored channels-last,
  // at each of the greedy's kernel lowerings.
  thread_local std::map<std::pair<Shape, std::vector<int>>, MappingFunction> built;
  auto key = std::make_pair(shape, layout.order);
  if (auto it = built.find(key); it != built.end()) return it->second;
  std::vector<std::vector<int64_t>> strides(shape.size(), std::vector<int64_t>(shape.size(), 0));
  for (size_t i = 0; i < layout.order.size(); ++i) strides[i][layout.order[i]] = 1;
  MappingFunction f =
      MappingFunction::affine(shape, storedShape(shape, layout), strides, std::vector<int64_t>(shape.size(), 0));
  return built.emplace(std::move(key), std::move(f)).first->second;
}

} // namespace tcx
