// The web explorer's API without a server: every request, the answers the
// client draws from, and every refusal, each leaving the session as it was.
#include "ApiFixture.h"

#include "view/ComputationGraphView.h"
#include "view/GroupTree.h"
#include "view/VtogView.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tcx;
using namespace tcx::test;
using nlohmann::json;

namespace {

const std::string kLlama = "samples/llama3_8b_decode.onnx";

std::string openBody(const std::string& path) { return json{{"path", path}}.dump(); }

// The first VTOG edge with a conflict set, and one edge it conflicts with.
std::pair<std::string, std::string> conflictingPair(const json& strategy) {
  for (const json& e : strategy.at("edges"))
    if (!e.at("conflicts").empty()) return {e.at("id"), e.at("conflicts")[0]};
  FAIL("no VTOG edge has a conflict set");
  return {};
}

// The same strategy, whatever revision of the session either describes.
bool sameStrategy(json a, json b) {
  a.erase("revision");
  b.erase("revision");
  return a == b;
}

} // namespace

TEST_CASE("Without a model the API says how to open one", "[web][api]") {
  auto api = makeApi();
  const web::ApiResponse status = call(api, "GET /api/status");
  CHECK(status.status == 200);
  CHECK(status.body.at("model").is_null());
  CHECK(status.body.at("gpu").at("describe").get<std::string>() != "");
  const web::ApiResponse model = call(api, "GET /api/model");
  CHECK(model.status == 409);
  CHECK_THAT(model.body.at("error").get<std::string>(), Catch::Contains("no model is open"));
}

TEST_CASE("Opening a sample answers the model's size and every view with its layout", "[web][api]") {
  auto api = makeApi();
  const web::ApiResponse opened = call(api, "POST /api/open", openBody(kLlama));
  REQUIRE(opened.status == 200);
  CHECK(opened.body.at("name") == "llama3_8b_decode");
  CHECK(opened.body.at("file") == kLlama);
  CHECK(opened.body.at("ops") == api.session().graph().numNodes());
  CHECK(opened.body.at("vtogEdges") == api.session().vtog().edges().size());

  const web::ApiResponse vtog = call(api, "GET /api/view?name=vtog");
  REQUIRE(vtog.status == 200);
  const view::DisplayGraph expected = view::buildVtogGraph(api.session().vtog(), view::vtogAnnotations(api.session()));
  CHECK(vtog.body.at("nodes").size() == expected.nodes.size());
  REQUIRE(vtog.body.at("edges").size() == expected.edges.size());
  CHECK(vtog.body.at("layout") == "graphviz");
  for (const json& n : vtog.body.at("nodes")) {
    CHECK(n.at("box")[2].get<double>() > 0);
    CHECK(n.at("box")[3].get<double>() > 0);
  }
  for (const json& e : vtog.body.at("edges")) {
    CHECK(e.at("points").size() >= 4);
    CHECK((e.at("points").size() - 1) % 3 == 0); // a cubic Bezier: start, then three per segment
    CHECK(e.at("key").get<std::string>().starts_with("edge:e"));
  }

  for (const char* name : {"computation", "kernels", "pointsto"}) {
    const web::ApiResponse v = call(api, std::string("GET /api/view?name=") + name);
    INFO(name);
    CHECK(v.status == 200);
    CHECK(!v.body.at("nodes").empty());
  }
  CHECK(call(api, "GET /api/view?name=nonsense").status == 400);
}

TEST_CASE("The computation view expands the groups the request names", "[web][api]") {
  auto api = makeApi();
  REQUIRE(call(api, "POST /api/open", openBody(kLlama)).status == 200);
  const json none = call(api, "GET /api/view?name=computation&expansion=none").body;
  const json all = call(api, "GET /api/view?name=computation&expansion=all").body;
  REQUIRE(!none.at("groups").empty());
  CHECK(none.at("expanded").empty());
  CHECK(all.at("expanded").size() == all.at("groups").size());
  CHECK(all.at("nodes").size() > none.at("nodes").size());
  // Expanding one group by its key draws it as a cluster, no longer a node.
  const std::string top = none.at("groups")[0].at("key");
  const json one = call(api, "GET /api/view?name=computation&expand=" + top).body;
  CHECK(one.at("expanded") == json::array({top}));
  CHECK(one.at("clusters").size() == 1);
  CHECK(one.at("clusters")[0].at("key") == top);
  for (const json& n : one.at("nodes")) CHECK(n.at("key") != top);
  const web::ApiResponse bad = call(api, "GET /api/view?name=computation&expand=group:/no/such/scope");
  CHECK(bad.status == 400);
  CHECK_THAT(bad.body.at("error").get<std::string>(), Catch::Contains("group:/no/such/scope"));
}

TEST_CASE("Constraints change the strategy and latencies and refused ones change nothing", "[web][api]") {
  auto api = makeApi();
  REQUIRE(call(api, "POST /api/open", openBody(kLlama)).status == 200);
  const json before = call(api, "GET /api/strategy").body;
  const json latencyBefore = call(api, "GET /api/latency").body;
  CHECK(latencyBefore.at("measured") == false);
  CHECK_THAT(latencyBefore.at("source").get<std::string>(), Catch::StartsWith("estimated"));

  // Forbid every edge: nothing is virtual any more, and the optimised plan
  // is slower than the greedy's.
  json forbidden = json::array();
  for (const json& e : before.at("edges")) forbidden.push_back(e.at("id"));
  REQUIRE(!forbidden.empty());
  const web::ApiResponse changed = call(api, "POST /api/constraints", json{{"forbidden", forbidden}}.dump());
  REQUIRE(changed.status == 200);
  for (const json& e : changed.body.at("strategy").at("edges")) {
    CHECK(e.at("chosen") == false);
    CHECK(e.at("state") == "forbidden");
  }
  const json& latency = changed.body.at("latency");
  CHECK(latency.at("optimized").at("seconds").get<double>() >
        latencyBefore.at("optimized").at("seconds").get<double>());
  CHECK(call(api, "GET /api/latency").body == latency);

  // Constraints replaced by none: the greedy's strategy again.
  const web::ApiResponse reset = call(api, "POST /api/constraints", R"({"forbidden": []})");
  REQUIRE(reset.status == 200);
  CHECK(sameStrategy(reset.body.at("strategy"), before));
  // Every change is a new revision: a page tells its own changes, pushed back, from others'.
  CHECK(changed.body.at("strategy").at("revision") > before.at("revision"));
  CHECK(reset.body.at("strategy").at("revision") > changed.body.at("strategy").at("revision"));
  CHECK(reset.body.at("latency") == latencyBefore);

  // One edge at a time, as the strategy table sends it.
  const std::string chosen = [&] {
    for (const json& e : before.at("edges"))
      if (e.at("chosen")) return e.at("id").get<std::string>();
    FAIL("the greedy chose no edge");
    return std::string();
  }();
  const web::ApiResponse forced = call(api, "POST /api/constraints", json{{"edge", chosen}, {"state", "forced"}}.dump());
  REQUIRE(forced.status == 200);
  CHECK(forced.body.at("strategy").at("constraints").at("forced") == json::array({chosen}));
  const web::ApiResponse freed = call(api, "POST /api/constraints", json{{"edge", chosen}, {"state", "auto"}}.dump());
  REQUIRE(freed.status == 200);
  CHECK(sameStrategy(freed.body.at("strategy"), before));

  const json kept = call(api, "GET /api/strategy").body;
  const auto [edge, conflict] = conflictingPair(kept);
  const web::ApiResponse contradiction =
      call(api, "POST /api/constraints", json{{"forced", {edge, conflict}}}.dump());
  CHECK(contradiction.status == 400);
  CHECK(call(api, "GET /api/strategy").body == kept);

  for (const std::string& body : {std::string(R"({"forced": ["e99999"]})"), std::string(R"({"edge": "e0", "state": "maybe"})"),
                                  std::string(R"({"forced": "e0"})"), std::string("{not json"), std::string("[1, 2]")}) {
    INFO(body);
    const web::ApiResponse r = call(api, "POST /api/constraints", body);
    CHECK(r.status == 400);
    CHECK(!r.body.at("error").get<std::string>().empty());
    CHECK(call(api, "GET /api/strategy").body == kept);
  }
}

TEST_CASE("Paths are confined to the served root", "[web][api]") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "tcx-web-root-test";
  fs::remove_all(root);
  fs::create_directories(root / "models");
  fs::copy_file(fs::path(TCX_SOURCE_DIR) / kLlama, root / "models/llama.onnx");
  fs::create_symlink(fs::path(TCX_SOURCE_DIR) / "samples/gqa_decode.onnx", root / "models/escape.onnx");
  web::ExplorerApi api(web::RootDirectory(root), {});
  CHECK(call(api, "POST /api/open", openBody("models/llama.onnx")).status == 200);
  CHECK(call(api, "POST /api/open", openBody("models/../models/llama.onnx")).status == 200);
  for (const std::string& path : {std::string("../llama.onnx"), std::string("/etc/passwd"),
                                  std::string("models/../../x.onnx"), std::string("models/escape.onnx")}) {
    INFO(path);
    const web::ApiResponse r = call(api, "POST /api/open", openBody(path));
    CHECK(r.status == 403);
    CHECK(call(api, "GET /api/model").body.at("file") == "models/llama.onnx");
  }
  CHECK(call(api, "POST /api/open", openBody("models/missing.onnx")).status == 404);
  CHECK(call(api, "POST /api/open", openBody("models")).status == 400);
  CHECK(call(api, "POST /api/open", "{}").status == 400);
  fs::remove_all(root);
}

TEST_CASE("A bad model is refused with its reason and the open one stays", "[web][api]") {
  auto api = makeApi(web::ApiOptions{.maxUploadBytes = 1 << 20});
  REQUIRE(call(api, "POST /api/open", openBody(kLlama)).status == 200);
  const web::ApiResponse garbage = call(api, "POST /api/upload?name=broken.onnx", "this is not a protobuf");
  CHECK(garbage.status == 422);
  CHECK_THAT(garbage.body.at("error").get<std::string>(), Catch::Contains("broken.onnx"));
  CHECK(call(api, "GET /api/model").body.at("name") == "llama3_8b_decode");
  CHECK(call(api, "POST /api/upload?name=notes.txt", "x").status == 400);
  CHECK(call(api, "POST /api/upload?name=big.onnx", std::string((1 << 20) + 1, 'x')).status == 413);

  std::ifstream in(std::string(TCX_SOURCE_DIR) + "/samples/gqa_decode.onnx", std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  const web::ApiResponse uploaded = call(api, "POST /api/upload?name=gqa.onnx", bytes.str());
  REQUIRE(uploaded.status == 200);
  CHECK(uploaded.body.at("name") == "gqa");
  CHECK(uploaded.body.at("file") == "upload:gqa.onnx");
}

TEST_CASE("Details name an item's kernel, VTOG edges and counterparts in every view", "[web][api]") {
  auto api = makeApi();
  REQUIRE(call(api, "POST /api/open", openBody(kLlama)).status == 200);
  const json strategy = call(api, "GET /api/strategy").body;
  const json& edge = strategy.at("edges")[0];
  const web::ApiResponse op = call(api, "GET /api/details?item=" + edge.at("opKey").get<std::string>());
  REQUIRE(op.status == 200);
  CHECK(op.body.at("kind") == "node");
  CHECK(std::find(op.body.at("edges").begin(), op.body.at("edges").end(), edge.at("id")) != op.body.at("edges").end());
  CHECK(op.body.at("counterparts").at("vtog").is_string());
  CHECK(op.body.at("counterparts").at("computation").is_string());

  const json kernels = call(api, "GET /api/kernels?plan=optimized").body;
  REQUIRE(!kernels.at("kernels").empty());
  const json& k = kernels.at("kernels")[0];
  const web::ApiResponse kernel = call(api, "GET /api/details?item=" + k.at("key").get<std::string>());
  REQUIRE(kernel.status == 200);
  CHECK(kernel.body.at("kernel") == k.at("key"));

  CHECK(call(api, "GET /api/details?item=node:/no/such/op").status == 404);
  CHECK(call(api, "GET /api/details?item=bogus").status == 400);
  CHECK(call(api, "GET /api/kernels?plan=fastest").status == 400);
}

TEST_CASE("Search finds items in a view, inside collapsed groups too", "[web][api]") {
  auto api = makeApi();
  REQUIRE(call(api, "POST /api/open", openBody(kLlama)).status == 200);
  const json found = call(api, "GET /api/search?view=computation&q=MatMul&mode=optype&expansion=none").body;
  REQUIRE(!found.at("matches").empty());
  for (const json& m : found.at("matches")) {
    CHECK(m.at("key").get<std::string>().starts_with("node:"));
    CHECK(m.at("shownAs").get<std::string>().starts_with("group:")); // drawn as its collapsed group
  }
  CHECK(call(api, "GET /api/search?view=computation&q=(&mode=regex").status == 400);
}

TEST_CASE("The CUDA source marks every kernel's lines and says what its buffer slots hold", "[web][api]") {
  auto api = makeApi();
  REQUIRE(call(api, "POST /api/open", openBody(kLlama)).status == 200);
  const web::ApiResponse source = call(api, "GET /api/source?plan=optimized");
  REQUIRE(source.status == 200);
  const std::string code = source.body.at("code");
  const auto lines = static_cast<int>(std::count(code.begin(), code.end(), '\n')) + 1;
  REQUIRE(!source.body.at("spans").empty());
  for (const auto& [key, span] : source.body.at("spans").items()) {
    CHECK(key.starts_with("kernel:"));
    CHECK(span[0].get<int>() >= 1);
    CHECK(span[0].get<int>() <= span[1].get<int>());
    CHECK(span[1].get<int>() <= lines);
    // The slots, in order, each naming what the kernel's launches bind to it.
    const json& slots = source.body.at("slots").at(key);
    REQUIRE(!slots.empty());
    for (size_t s = 0; s < slots.size(); ++s)
      CHECK(slots[s].get<std::string>().starts_with("b.p[" + std::to_string(s) + "] = "));
  }
  // The QKV projection reads the graph's input x and the weight, and the decode attention's partials go to the
  // workspace the GEMMs share.
  std::string all;
  for (const auto& [key, slots] : source.body.at("slots").items())
    for (const json& slot : slots) all += slot.get<std::string>() + "\n";
  CHECK(all.find("] = x\n") != std::string::npos);
  CHECK(all.find("] = w_qkv\n") != std::string::npos);
  CHECK(all.find("] = the library kernels' workspace + 16384 bytes\n") != std::string::npos);
}

TEST_CASE("Unknown requests and wrong methods are refused", "[web][api]") {
  auto api = makeApi();
  CHECK(call(api, "GET /api/nothing").status == 404);
  CHECK(call(api, "GET /api/open").status == 405); // no state change through GET
  CHECK(call(api, "GET /api/jobs/1/cancel").status == 405);
  CHECK(call(api, "POST /api/jobs/abc/cancel").status == 404);
  CHECK(call(api, "POST /api/open", std::string((1 << 20) + 1, ' ')).status == 413);
}

TEST_CASE("A read-only API refuses every change", "[web][api]") {
  auto api = makeApi(web::ApiOptions{.readOnly = true});
  const web::ApiResponse r = call(api, "POST /api/open", openBody(kLlama));
  CHECK(r.status == 403);
  CHECK_THAT(r.body.at("error").get<std::string>(), Catch::Contains("read-only"));
}

TEST_CASE("Real PyTorch exports answer every view, the strategy, kernels and details", "[web][api]") {
  // One vision and one language model from each exporter (models/real/small, written by models/real/export.py).
  for (const char* model : {"models/real/small/resnet18.dynamo.onnx", "models/real/small/swin.torchscript.onnx",
                            "models/real/small/bert.dynamo.onnx", "models/real/small/llama3.torchscript.onnx"}) {
    INFO(model);
    auto api = makeApi();
    const web::ApiResponse opened = call(api, "POST /api/open", openBody(model));
    REQUIRE(opened.status == 200);
    CHECK(opened.body.at("ops").get<int>() > 0);
    for (const char* name : {"computation", "kernels", "vtog", "pointsto"}) {
      INFO(name);
      const web::ApiResponse v = call(api, std::string("GET /api/view?name=") + name);
      REQUIRE(v.status == 200);
      for (const json& n : v.body.at("nodes")) CHECK(n.at("box")[2].get<double>() > 0);
    }
    const json all = call(api, "GET /api/view?name=computation&expansion=all").body;
    CHECK(all.at("nodes").size() >= api.session().graph().numNodes() / 2);
    CHECK(call(api, "GET /api/strategy").body.at("edges").size() == api.session().vtog().edges().size());
    const json kernels = call(api, "GET /api/kernels?plan=optimized").body;
    REQUIRE(!kernels.at("kernels").empty());
    CHECK(call(api, "GET /api/details?item=" + kernels.at("kernels")[0].at("key").get<std::string>()).status == 200);
    const int source = call(api, "GET /api/source?plan=optimized").status;
    CHECK((source == 200 || source == 422));
  }
}
