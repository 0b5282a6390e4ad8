#include "profiler/Trace.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tcx::gpu;

TEST_CASE("a Chrome trace has one complete event per kernel, in microseconds from the first", "[profiler]") {
  std::vector<KernelRecord> kernels = {
      {.name = "gemm", .startNs = 1'000'000, .endNs = 1'012'500, .correlationId = 7, .streamId = 3},
      {.name = "softmax", .startNs = 1'013'000, .endNs = 1'015'000, .correlationId = 8, .streamId = 3},
  };
  auto path = std::filesystem::temp_directory_path() / ("tcx_trace_test_" + std::to_string(::getpid()) + ".json");
  writeChromeTrace(path.string(), kernels, "tcx: test");
  std::ifstream in(path);
  nlohmann::json trace = nlohmann::json::parse(in);
  std::filesystem::remove(path);

  const nlohmann::json& events = trace.at("traceEvents");
  REQUIRE(events.size() == 3);
  CHECK(events[0].at("ph") == "M");
  CHECK(events[0].at("args").at("name") == "tcx: test");
  CHECK(events[1].at("ph") == "X");
  CHECK(events[1].at("name") == "gemm");
  CHECK(events[1].at("ts").get<double>() == Approx(0));
  CHECK(events[1].at("dur").get<double>() == Approx(12.5));
  CHECK(events[1].at("tid") == 3);
  CHECK(events[2].at("ts").get<double>() == Approx(13));
  CHECK(events[2].at("args").at("correlation_id") == 8);
}
