// Throughput on tensors of the size of a Llama-3-8B layer's largest
// activations. Hidden ([.]): run with `elementwise_ops_test [perf]`.

#include "Helpers.h"

#include <chrono>
#include <ctime>

using namespace tcx;
using namespace tcx::test;

namespace {

Tensor ramp(Shape shape) {
  Tensor t(DType::BF16, std::move(shape));
  std::span<BFloat16> data = t.data<BFloat16>();
  for (size_t i = 0; i < data.size(); ++i) data[i] = BFloat16(static_cast<float>(i % 1000) / 100.0f - 5.0f);
  return t;
}

// Wall-clock seconds, and CPU seconds of the whole process: on a loaded
// machine the latter shows the work better.
template <typename F> std::pair<double, double> seconds(F&& f) {
  auto start = std::chrono::steady_clock::now();
  std::clock_t cpuStart = std::clock();
  f();
  double cpu = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), cpu};
}

} // namespace

TEST_CASE("element-wise ops on 100M bf16 elements take well under a second", "[.][perf]") {
  Tensor a = ramp({10000, 10000}), b = ramp({10000, 10000}), row = ramp({10000}), column = ramp({10000, 1});
  Tensor mask = runOp1("Greater", {a, row});
  const std::vector<std::pair<std::string, std::function<void()>>> cases = {
      {"Add",
       [&] {
         runOp1("Add", {a, b});
       }},
      {"Mul by a row",
       [&] {
         runOp1("Mul", {a, row});
       }},
      {"Mul by a column",
       [&] {
         runOp1("Mul", {a, column});
       }},
      {"Div by a scalar",
       [&] {
         runOp1("Div", {a, tensor(DType::BF16, {}, {3})});
       }},
      {"Neg", [&] { runOp1("Neg", {a}); }},
      {"Exp", [&] { runOp1("Exp", {a}); }},
      {"Sigmoid", [&] { runOp1("Sigmoid", {a}); }},
      {"Tanh", [&] { runOp1("Tanh", {a}); }},
      {"Gelu", [&] { runOp1("Gelu", {a}); }},
      {"Where",
       [&] {
         runOp1("Where", {mask, a, b});
       }},
      {"Max of 3",
       [&] {
         runOp1("Max", {a, b, row});
       }},
      {"Cast to f32",
       [&] {
         runOp1("Cast", {a}, attrs({{"to", dtypeToOnnx(DType::F32)}}));
       }},
  };
  for (const auto& [name, run] : cases) {
    auto [wall, cpu] = seconds(run);
    WARN(name << ": " << wall << " s, " << cpu << " s of CPU");
    CHECK(wall < 1.0);
  }
}
