#include "Samples.h"

#include "pipeline/VtcSession.h"
#include "report/VtcReport.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <sqlite3.h>

using namespace tcx;
namespace fs = std::filesystem;

namespace {

std::string queryOne(sqlite3* db, const char* sql) {
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  std::string v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  return v;
}

} // namespace

TEST_CASE("the SQLite report holds the run, the VTOG, the strategy and both plans", "[vtc][report]") {
  VtcSession s(samples::buildLlama3Decode({2, 16, 32, 4, 2, 8, DType::BF16}), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  fs::path path = fs::temp_directory_path() / ("tcx_report_test_" + std::to_string(::getpid()) + ".db");
  writeVtcReport(path.string(), s, {"llama.onnx", "tcx optimize llama.onnx"});
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.string().c_str(), &db) == SQLITE_OK);
  CHECK(queryOne(db, "SELECT value FROM meta WHERE key = 'schema_version'") == std::to_string(kReportSchemaVersion));
  CHECK(queryOne(db, "SELECT count(*) FROM vtog_edges") == std::to_string(s.vtog().edges().size()));
  CHECK(queryOne(db, "SELECT count(*) FROM vtog_edges WHERE chosen = 1") == std::to_string(s.greedy().selected.size()));
  CHECK(queryOne(db, "SELECT data_movement_kernels FROM summary WHERE plan = 'baseline'") == "19");
  CHECK(queryOne(db, "SELECT data_movement_kernels FROM summary WHERE plan = 'optimized'") == "0");
  CHECK(queryOne(db, "SELECT count(*) FROM nodes WHERE eliminated = 1") == "19");
  CHECK(queryOne(db, "SELECT latency_source FROM summary WHERE plan = 'optimized'") == "estimated (h100-sxm)");
  sqlite3_close(db);
  fs::remove(path);
}

TEST_CASE("a report that cannot be written leaves nothing behind", "[vtc][report]") {
  VtcSession s(samples::buildShufflenetV2Unit({1, 4, 3}), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  fs::path dir = fs::temp_directory_path() / "tcx_no_such_dir_for_reports";
  fs::remove_all(dir);
  CHECK_THROWS_AS(writeVtcReport((dir / "r.db").string(), s, {"m.onnx", "tcx"}), Error);
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("measured latencies replace the estimates in the report, naming the GPU", "[vtc][report]") {
  VtcSession s(samples::buildShufflenetV2Unit({1, 4, 3}), defaultGpuPreset());
  s.select(EdgeConstraintSpecs{});
  // What tcx profile records: one time per plan kernel, as measured.
  auto measured = [](const ExecPlan& plan, const PlanLatency& estimates, double perKernel) {
    PlanLatency l = estimates;
    for (size_t i = 0; i < plan.kernels.size(); ++i) {
      l.perKernel[i].seconds = perKernel;
      (plan.kernels[i].isDataMovement() ? l.dataMovementSeconds : l.computeSeconds) = 0;
    }
    l.seconds = perKernel * static_cast<double>(plan.kernels.size());
    return l;
  };
  s.setMeasuredLatency(measured(s.baselinePlan(), s.baselineLatency(), 5e-6),
                       measured(s.optimizedPlan(), s.optimizedLatency(), 7e-6), "Test GPU");
  CHECK(s.latencyMeasured());
  fs::path path = fs::temp_directory_path() / ("tcx_measured_report_" + std::to_string(::getpid()) + ".db");
  writeVtcReport(path.string(), s, {"shufflenet.onnx", "tcx profile shufflenet.onnx --report"});
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.string().c_str(), &db) == SQLITE_OK);
  CHECK(queryOne(db, "SELECT value FROM meta WHERE key = 'gpu'") == "Test GPU");
  CHECK(queryOne(db, "SELECT latency_source FROM summary WHERE plan = 'optimized'") == "measured (Test GPU)");
  CHECK(queryOne(db, "SELECT DISTINCT latency_us FROM kernels WHERE plan = 'optimized'") == "7.0");
  sqlite3_close(db);
  fs::remove(path);
  // Selecting again estimates again.
  s.select(EdgeConstraintSpecs{});
  CHECK_FALSE(s.latencyMeasured());
}
