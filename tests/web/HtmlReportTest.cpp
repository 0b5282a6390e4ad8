// `tcx report --html`: one file, every script inlined, the snapshot of the
// read-only answers the page asks for, and nothing left behind on failure.
#include "HtmlReport.h"

#include "ApiFixture.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tcx;
using nlohmann::json;

namespace {

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST_CASE("A report inlines the page and records the answers the page reads", "[web][report]") {
  namespace fs = std::filesystem;
  auto api = test::makeApi();
  api.open(fs::path(TCX_SOURCE_DIR) / "samples/llama3_8b_decode.onnx");
  const fs::path out = fs::temp_directory_path() / "tcx-report-test.html";
  const web::HtmlReportSummary summary = web::writeHtmlReport(api, out.string());
  const std::string html = readFile(out);
  CHECK(summary.bytes == html.size());
  CHECK(html.find("<script src=") == std::string::npos);
  CHECK(html.find("<link rel=\"stylesheet\"") == std::string::npos);
  const std::string marker = "window.TCX_SNAPSHOT = ";
  const size_t start = html.find(marker);
  REQUIRE(start != std::string::npos);
  const size_t end = html.find(";</script>", start);
  const json snapshot = json::parse(html.substr(start + marker.size(), end - start - marker.size()));
  CHECK(snapshot.size() == summary.requests);
  CHECK(snapshot.at("GET /api/status").at("readOnly") == true);
  for (const char* key : {"GET /api/view?name=computation", "GET /api/view?name=vtog", "GET /api/view?name=pointsto",
                          "GET /api/strategy", "GET /api/latency", "GET /api/kernels?plan=optimized",
                          "GET /api/source?plan=optimized"}) {
    INFO(key);
    CHECK(snapshot.contains(key));
  }
  // Every node the VTOG view draws has its details.
  for (const json& node : snapshot.at("GET /api/view?name=vtog").at("nodes"))
    CHECK(snapshot.contains("GET /api/details?item=" + node.at("key").get<std::string>()));
  fs::remove(out);
}

TEST_CASE("A report that cannot be written leaves no file", "[web][report]") {
  namespace fs = std::filesystem;
  auto api = test::makeApi();
  api.open(fs::path(TCX_SOURCE_DIR) / "samples/gqa_decode.onnx");
  // The target is a directory: the rename into place fails after the
  // temporary file was written, which must not stay behind.
  const fs::path dir = fs::temp_directory_path() / "tcx-report-fails";
  fs::remove_all(dir);
  fs::create_directories(dir / "r.html");
  CHECK_THROWS_AS(web::writeHtmlReport(api, (dir / "r.html").string()), Error);
  size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++entries;
  CHECK(entries == 1);
  CHECK(fs::is_directory(dir / "r.html"));
  CHECK(fs::is_empty(dir / "r.html"));
  fs::remove_all(dir);
}
