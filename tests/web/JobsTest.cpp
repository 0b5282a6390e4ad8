// Jobs started through the API: a superoptimizer search that finishes, one
// that is cancelled, one job at a time, and a measurement refused without a
// GPU (with the reason).
#include "ApiFixture.h"

#include "backend/GpuBackend.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

using namespace tcx;
using namespace tcx::test;
using nlohmann::json;

namespace {

// Polls job `id` until it has ended, at most `seconds`.
json waitForJob(web::ExplorerApi& api, int id, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  json job;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const json jobs = call(api, "GET /api/jobs").body.at("jobs");
    for (const json& j : jobs)
      if (j.at("id") == id) job = j;
  } while (job.value("state", "running") == "running" && std::chrono::steady_clock::now() < deadline);
  return job;
}

void openRmsNorm(web::ExplorerApi& api) {
  REQUIRE(call(api, "POST /api/open", R"({"path": "samples/rmsnorm_matmul.onnx"})").status == 200);
}

} // namespace

TEST_CASE("A superoptimizer job reports progress and its candidates", "[web][jobs]") {
  std::atomic<int> announcements{0};
  web::ExplorerApi api(web::RootDirectory(TCX_SOURCE_DIR), {}, [&](int) { ++announcements; });
  openRmsNorm(api);
  const json programs = call(api, "GET /api/superopt/programs").body;
  REQUIRE(!programs.at("programs").empty());
  const web::ApiResponse started = call(api, "POST /api/jobs", R"({"kind": "superopt", "program": 0, "seconds": 2})");
  REQUIRE(started.status == 202);
  CHECK(started.body.at("state") == "running");
  // One job at a time.
  CHECK(call(api, "POST /api/jobs", R"({"kind": "superopt", "seconds": 2})").status == 409);
  const json job = waitForJob(api, started.body.at("id"), 60);
  REQUIRE(job.at("state") == "done");
  CHECK(job.at("percent") == 100);
  CHECK(job.at("result").at("counters").at("explored").get<int>() > 0);
  CHECK(job.at("result").contains("candidates"));
  CHECK(announcements.load() >= 2); // started, then at least its end
  const unsigned revision = api.revision();
  CHECK(api.jobEvent(job.at("id")).at("job").at("state") == "done");
  CHECK(api.revision() == revision); // a search changes nothing in the session
}

TEST_CASE("A running search is cancelled on request", "[web][jobs]") {
  auto api = makeApi();
  openRmsNorm(api);
  const web::ApiResponse started = call(api, "POST /api/jobs", R"({"kind": "superopt", "seconds": 120})");
  REQUIRE(started.status == 202);
  const int id = started.body.at("id");
  const auto begin = std::chrono::steady_clock::now();
  CHECK(call(api, "POST /api/jobs/" + std::to_string(id) + "/cancel").status == 200);
  const json job = waitForJob(api, id, 60);
  CHECK(job.at("state") == "cancelled");
  CHECK(std::chrono::steady_clock::now() - begin < std::chrono::seconds(60));
  CHECK(call(api, "POST /api/jobs/999/cancel").status == 404);
}

TEST_CASE("Bad job requests are refused", "[web][jobs]") {
  auto api = makeApi();
  openRmsNorm(api);
  CHECK(call(api, "POST /api/jobs", R"({"kind": "dance"})").status == 400);
  CHECK(call(api, "POST /api/jobs", R"({"kind": "superopt", "program": 99})").status == 400);
  CHECK(call(api, "POST /api/jobs", R"({"kind": "superopt", "seconds": -1})").status == 400);
  CHECK(call(api, "GET /api/jobs").body.at("jobs").empty());
}

TEST_CASE("Measuring without a GPU is refused with the reason", "[web][jobs]") {
  if (backend::gpuStatus().available) {
    WARN("a GPU is present: the refusal is not tested here");
    return;
  }
  auto api = makeApi();
  openRmsNorm(api);
  const web::ApiResponse r = call(api, "POST /api/jobs", R"({"kind": "profile"})");
  CHECK(r.status == 422);
  CHECK_THAT(r.body.at("error").get<std::string>(), Catch::Contains(backend::gpuStatus().describe));
  CHECK(call(api, "GET /api/latency").body.at("measured") == false);
}
