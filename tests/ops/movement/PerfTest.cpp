// Throughput of the data-movement kernels on 64M bf16 elements (128 MB), the
// scale of a Llama-3-8B layer's largest tensors. Hidden ([.]): run with
// `movement_ops_test [perf]`.

#include "MovementTest.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <functional>

using namespace tcx;
using namespace tcx::test;

namespace {

template <typename F> double seconds(F&& f) {
  auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

TEST_CASE("data-movement ops on 64M bf16 elements run at memory speed", "[.][perf]") {
  const Tensor x(DType::BF16, {8192, 8192});
  const Tensor heads(DType::BF16, {1, 4096, 128, 128});
  const Tensor row(DType::BF16, {1, 8192});
  const Tensor table(DType::BF16, {32000, 2048});
  const Tensor tokens = Tensor::fromVector<int64_t>({16}, std::vector<int64_t>(16, 31999));
  const std::vector<std::pair<std::string, std::function<void()>>> cases = {
      {"Reshape", [&] { runOp1("Reshape", {x, ints({-1})}); }},
      {"Transpose 2-D", [&] { runOp1("Transpose", {x}); }},
      {"Transpose heads", [&] { runOp1("Transpose", {heads}, attrs({{"perm", std::vector<int64_t>{0, 2, 1, 3}}})); }},
      {"Slice columns", [&] { runOp1("Slice", {x, ints({1}), ints({8191}), ints({1})}); }},
      {"Slice reversed", [&] { runOp1("Slice", {x, ints({-1}), ints({kInt64Min}), ints({1}), ints({-1})}); }},
      {"Concat columns", [&] { runOp1("Concat", {x, x}, attrs({{"axis", 1}})); }},
      {"Split columns", [&] { runOp("Split", {x}, attrs({{"axis", 1}}), 2); }},
      {"Expand rows", [&] { runOp1("Expand", {row, ints({8192, 8192})}); }},
      {"Tile", [&] { runOp1("Tile", {row, ints({4096, 2})}); }},
      {"Pad", [&] { runOp1("Pad", {x, ints({1, 1, 1, 1})}); }},
      {"Pad reflect", [&] { runOp1("Pad", {x, ints({4, 4, 4, 4})}, attrs({{"mode", "reflect"}})); }},
      {"Gather rows", [&] { runOp1("Gather", {table, tokens}); }},
  };
  for (const auto& [name, run] : cases) {
    double s = seconds(run);
    WARN(name << ": " << s << " s");
    CHECK(s < 1.0);
  }
}
