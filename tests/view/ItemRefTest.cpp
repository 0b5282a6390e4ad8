// ItemRef keys are how views find each other's selection: they must round-trip.
#include "view/ItemRef.h"

#include <catch2/catch.hpp>

using namespace tcx::view;

TEST_CASE("item keys round-trip, names with colons included", "[view]") {
  for (const ItemRef& ref : {ItemRef{ItemKind::Node, "/model/layers.0/self_attn/MatMul"}, ItemRef{ItemKind::Value, "a:b"},
                             ItemRef{ItemKind::Edge, "e3"}, ItemRef{ItemKind::Kernel, "k4"},
                             ItemRef{ItemKind::Group, "/model/layers.0"}}) {
    const auto parsed = ItemRef::parse(ref.key());
    REQUIRE(parsed);
    CHECK(*parsed == ref);
  }
  CHECK(ItemRef{ItemKind::Edge, "e3"}.key() == "edge:e3");
  CHECK_FALSE(ItemRef::parse("e3"));
  CHECK_FALSE(ItemRef::parse("tensor:x"));
}
