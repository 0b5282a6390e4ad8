// End-to-end tests of the `tcx` binary: output, JSON and exit codes.
#include "onnx/OnnxExporter.h"
#include "ops/GraphBuilder.h"

#include <catch2/catch.hpp>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <sys/wait.h>

using namespace tcx;
namespace fs = std::filesystem;

namespace {

struct Run {
  int exitCode;
  std::string output; // stdout and stderr together
};

Run tcxRun(const std::string& args) {
  std::string cmd = std::string(TCX_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// The first column of the first row `sql` selects from the SQLite file `db`.
std::string queryOne(const fs::path& db, const std::string& sql) {
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(handle, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  std::string v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(handle);
  return v;
}

std::string sample(const std::string& name) { return std::string(TCX_SOURCE_DIR) + "/samples/" + name + ".onnx"; }

fs::path tempDir() {
  fs::path dir = fs::temp_directory_path() / ("tcx_cli_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

#ifdef TCX_NVCC
// Configures and builds an exported project with nvcc; true when its tcx_plan was built.
bool nvccBuilds(const fs::path& dir) {
  const std::string build = "cmake -S " + dir.string() + " -B " + (dir / "build").string() +
                            " -DCMAKE_CUDA_COMPILER=" TCX_NVCC " > /dev/null && cmake --build " +
                            (dir / "build").string() + " > /dev/null";
  INFO(build);
  return std::system(build.c_str()) == 0 && fs::exists(dir / "build" / "tcx_plan");
}
#endif

} // namespace

TEST_CASE("tcx info --json reports ops and marks data movement", "[cli]") {
  Run r = tcxRun("info --json " + sample("shufflenet_v2_unit"));
  REQUIRE(r.exitCode == 0);
  auto j = nlohmann::json::parse(r.output);
  CHECK(j["nodes"] == 10);
  // Split, Concat, Reshape, Transpose, Reshape
  CHECK(j["data_movement_nodes"] == 5);
  bool sawConcat = false;
  for (const auto& op : j["ops"])
    if (op["op"] == "Concat") sawConcat = op["data_movement"].get<bool>();
  CHECK(sawConcat);
}

TEST_CASE("tcx run is deterministic per seed and round-trips inputs and outputs", "[cli]") {
  fs::path dir = tempDir();
  Run a = tcxRun("run --json --seed 3 --save-outputs " + (dir / "out").string() + " " + sample("shufflenet_v2_unit"));
  REQUIRE(a.exitCode == 0);
  Run b = tcxRun("run --json --seed 3 " + sample("shufflenet_v2_unit"));
  REQUIRE(b.exitCode == 0);
  auto ja = nlohmann::json::parse(a.output), jb = nlohmann::json::parse(b.output);
  CHECK(ja["outputs"][0]["fnv1a"] == jb["outputs"][0]["fnv1a"]);
  Run c = tcxRun("run --json --seed 4 " + sample("shufflenet_v2_unit"));
  CHECK(nlohmann::json::parse(c.output)["outputs"][0]["fnv1a"] != ja["outputs"][0]["fnv1a"]);
  CHECK(fs::exists(dir / "out" / "output_0.pb"));
  fs::remove_all(dir);
}

TEST_CASE("tcx dot writes a digraph", "[cli]") {
  Run r = tcxRun("dot " + sample("yolov11_c3k2"));
  REQUIRE(r.exitCode == 0);
  CHECK(r.output.rfind("digraph", 0) == 0);
  CHECK(r.output.find("Concat") != std::string::npos);
}

TEST_CASE("tcx reports bad input with its documented exit codes", "[cli]") {
  fs::path dir = tempDir();
  SECTION("missing file is a usage error") {
    Run r = tcxRun("info /nonexistent/model.onnx");
    CHECK(r.exitCode == 2);
  }
  SECTION("garbage is an invalid model naming the file") {
    fs::path bad = dir / "garbage.onnx";
    std::ofstream(bad) << "this is not a protobuf";
    Run r = tcxRun("info " + bad.string());
    CHECK(r.exitCode == 4);
    CHECK(r.output.find("garbage.onnx") != std::string::npos);
  }
  SECTION("a truncated model is an invalid model") {
    std::ifstream in(sample("llama3_8b_decode"), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    fs::path cut = dir / "cut.onnx";
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    CHECK(tcxRun("run " + cut.string()).exitCode == 4);
  }
  SECTION("an unknown subcommand is a usage error") { CHECK(tcxRun("frobnicate").exitCode == 2); }
  fs::remove_all(dir);
}

TEST_CASE("tcx optimize --json gives the before/after numbers and writes the report", "[cli][vtc]") {
  fs::path dir = tempDir();
  fs::path db = dir / "yolo.db";
  Run r = tcxRun("optimize --json --report " + db.string() + " " + sample("yolov11_c3k2"));
  REQUIRE(r.exitCode == 0);
  auto j = nlohmann::json::parse(r.output);
  CHECK(j["data_movement_kernels_before"] == 2);
  CHECK(j["data_movement_kernels_after"] == 0);
  CHECK(j["kernels_after"].get<int>() < j["kernels_before"].get<int>());
  CHECK(j["peak_memory_bytes_after"].get<int64_t>() < j["peak_memory_bytes_before"].get<int64_t>());
  CHECK(j["latency_us_after"].get<double>() < j["latency_us_before"].get<double>());
  CHECK(j["latency_source"] == "estimated");
  CHECK(fs::file_size(db) > 0);

  SECTION("forbidding chosen edges until none is left restores the baseline") {
    std::string forbid;
    nlohmann::json jf = j;
    for (int round = 0; !jf["chosen_edges"].empty() && round < 16; ++round) {
      for (const auto& e : jf["chosen_edges"]) {
        CHECK(forbid.find(" " + e["edge"].get<std::string>() + " ") == std::string::npos);
        forbid += " --forbid " + e["edge"].get<std::string>() + " ";
      }
      Run f = tcxRun("optimize --json" + forbid + sample("yolov11_c3k2"));
      REQUIRE(f.exitCode == 0);
      jf = nlohmann::json::parse(f.output);
    }
    CHECK(jf["chosen_edges"].empty());
    CHECK(jf["data_movement_kernels_after"] == 2);
  }
  SECTION("an unknown edge is a usage error and leaves the old report intact") {
    auto size = fs::file_size(db);
    Run f = tcxRun("optimize --force e999 --report " + db.string() + " " + sample("yolov11_c3k2"));
    CHECK(f.exitCode == 2);
    CHECK(f.output.find("e999") != std::string::npos);
    CHECK(fs::file_size(db) == size);
  }
  fs::remove_all(dir);
}

TEST_CASE("tcx export writes a CUDA project that nvcc builds", "[cli][export]") {
  fs::path dir = tempDir() / "export";
  Run r = tcxRun("export --out " + dir.string() + " " + sample("llama3_8b_decode_attention"));
  REQUIRE(r.exitCode == 0);
  for (const char* file : {"plan.cu", "main.cu", "CMakeLists.txt", "include/tcx/attention.cuh", "include/tcx/scalar.cuh"})
    CHECK(fs::exists(dir / file));
  std::ifstream plan(dir / "plan.cu");
  std::string source((std::istreambuf_iterator<char>(plan)), {});
  // The optimised plan: one GEMM writing Q and the caches, the library attention.
  CHECK(source.find("gemm_small_m_body") != std::string::npos);
  CHECK(source.find("decode_attention_partial_body") != std::string::npos);
#ifdef TCX_NVCC
  CHECK(nvccBuilds(dir));
#endif
  fs::remove_all(dir);
}

TEST_CASE("tcx export puts a real model's float GEMMs on wgmma for sm_90a only, and nvcc builds it", "[cli][export]") {
  // ViT-B/16's MLP at one image (197 x 3072 x 768 and back) qualifies for gemm_wgmma_f32, its 197 x 768 x 768
  // projections for gemm_tiled's small tiles (planGemm); --arch sm_90 keeps the MLP on gemm_tiled.
  const std::string model = std::string(TCX_SOURCE_DIR) + "/models/real/full/vit.dynamo.onnx";
  auto read = [](const fs::path& file) {
    std::ifstream in(file);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  const fs::path hopper = tempDir() / "export_sm90a", plain = tempDir() / "export_sm90";
  REQUIRE(tcxRun("export --out " + hopper.string() + " " + model).exitCode == 0);
  REQUIRE(tcxRun("export --arch sm_90 --out " + plain.string() + " " + model).exitCode == 0);
  CHECK(read(hopper / "CMakeLists.txt").find("set(CMAKE_CUDA_ARCHITECTURES 90a)") != std::string::npos);
  CHECK(read(plain / "CMakeLists.txt").find("set(CMAKE_CUDA_ARCHITECTURES 90)") != std::string::npos);
  CHECK(read(hopper / "plan.cu").find("gemm_wgmma_f32_body<") != std::string::npos);
  CHECK(read(hopper / "plan.cu").find("tcx::gemm_tiled_body<float, tcx::Access::ColContiguous, tcx::Access::RowContiguous, 64,") !=
        std::string::npos);
  CHECK(read(plain / "plan.cu").find("gemm_wgmma_f32") == std::string::npos);
#ifdef TCX_NVCC
  CHECK(nvccBuilds(hopper));
#endif
  fs::remove_all(hopper);
  fs::remove_all(plain);
}

TEST_CASE("tcx's default layout is channels-last for the CNNs without depthwise convolutions at 32 images and for "
          "ResNeXt-50 at one, as exported for the rest and for the YOLOv11 C3K2 block", "[cli][layout]") {
  // LayoutPolicy::Auto (core/plan/LayoutChoice.cpp has the measurements): channels-last where no convolution is
  // depthwise (MobileNetV3) or a window over a tensor that may become a view into another (the C3K2 block's 3x3,
  // reading half of cv1's output in place), and there are at least 8 GFLOP of convolution: ResNeXt-50 has 8.5 at
  // one image, DenseNet-121 5.7, SqueezeNet 52 and RegNetY-400MF 26 at 32 images, the small ResNet-18 export little.
  const fs::path db = tempDir() / "auto_layout.db";
  for (const auto& [path, channelsLast] : std::vector<std::pair<std::string, bool>>{
           {"models/real/serve/resnet18.dynamo.onnx", true},
           {"models/real/serve/resnext50.dynamo.onnx", true},
           {"models/real/serve/densenet121.dynamo.onnx", true},
           {"models/real/serve/squeezenet.dynamo.onnx", true},
           {"models/real/serve/regnet_y_400mf.dynamo.onnx", true},
           {"models/real/full/resnext50.dynamo.onnx", true},
           {"models/real/full/densenet121.dynamo.onnx", false},
           {"models/real/small/resnet18.dynamo.onnx", false},
           {"models/real/serve/mobilenet_v3_small.dynamo.onnx", false},
           {"samples/yolov11_c3k2.onnx", false}}) {
    INFO(path);
    fs::remove(db);
    const std::string model = std::string(TCX_SOURCE_DIR) + "/" + path;
    REQUIRE(tcxRun("optimize --report " + db.string() + " " + model).exitCode == 0);
    const int stored = std::stoi(queryOne(db, "SELECT count(*) FROM buffers WHERE layout = 'NHWC' AND plan = 'optimized'"));
    if (channelsLast)
      CHECK(stored >= 10);
    else
      CHECK(stored == 0);
  }
  fs::remove(db);
}

TEST_CASE("tcx export --layout channels-last has a CNN's convolutions read channels-last x, and nvcc builds it",
          "[cli][export][layout]") {
  const std::string model = std::string(TCX_SOURCE_DIR) + "/models/real/small/resnet18.dynamo.onnx";
  auto channelsLastReads = [](const fs::path& dir) {
    std::ifstream in(dir / "plan.cu");
    const std::string source((std::istreambuf_iterator<char>(in)), {});
    int n = 0;
    for (size_t at = source.find("p.xStride[1] = 1;"); at != std::string::npos; at = source.find("p.xStride[1] = 1;", at + 1))
      ++n;
    return n;
  };
  const fs::path last = tempDir() / "export_nhwc", stated = tempDir() / "export_nchw";
  REQUIRE(tcxRun("export --layout channels-last --out " + last.string() + " " + model).exitCode == 0);
  REQUIRE(tcxRun("export --layout as-exported --out " + stated.string() + " " + model).exitCode == 0);
  // Every convolution after the first reads an intermediate, stored with the channel innermost.
  CHECK(channelsLastReads(last) >= 10);
  CHECK(channelsLastReads(stated) == 0);
  // The report says how each buffer is stored, in both plans.
  const fs::path db = tempDir() / "layouts.db";
  REQUIRE(tcxRun("optimize --layout channels-last --report " + db.string() + " " + model).exitCode == 0);
  for (const char* plan : {"baseline", "optimized"}) {
    INFO(plan);
    CHECK(std::stoi(queryOne(db, std::string("SELECT count(*) FROM buffers WHERE layout = 'NHWC' AND plan = '") +
                                     plan + "'")) >= 10);
    CHECK(queryOne(db, std::string("SELECT layout FROM buffers WHERE kind = 'input' AND plan = '") + plan + "'") ==
          "as stated");
  }
  Run bad = tcxRun("export --layout sideways --out " + last.string() + " " + model);
  CHECK(bad.exitCode == 2);
  CHECK(bad.output.find("--layout: sideways not in {as-exported,channels-last,auto}") != std::string::npos);
#ifdef TCX_NVCC
  CHECK(nvccBuilds(last));
#endif
  fs::remove_all(last);
  fs::remove_all(stated);
  fs::remove(db);
}

TEST_CASE("the GPU commands without a GPU say so and exit unsupported", "[cli][gpu]") {
  for (const char* command : {"profile", "trace --out /dev/null", "optimize --oracle profile"}) {
    Run r = tcxRun(std::string(command) + " " + sample("shufflenet_v2_unit"));
    if (r.exitCode == 0) continue; // a machine with a GPU: tests/gpu checks the results
    INFO(command << ": " << r.output);
    CHECK(r.exitCode == 5);
    CHECK((r.output.find("no CUDA device") != std::string::npos || r.output.find("CUDA toolkit") != std::string::npos));
  }
}

namespace {

// x z + y z, or (x + y) z when `factored`, or x z + x z when `mutant`: small
// μGraph files in the documented format.
std::string distributiveMuGraph(bool factored, bool mutant = false) {
  std::string inputs = R"({"type":"Input","name":"x","shape":[3,3],"dtype":"f32"},)"
                       R"({"type":"Input","name":"y","shape":[3,3],"dtype":"f32"},)"
                       R"({"type":"Input","name":"z","shape":[3,3],"dtype":"f32"},)";
  std::string body =
      factored ? R"({"type":"EwAdd","inputs":[[0,0],[1,0]]},)"
                 R"({"type":"Matmul","inputs":[[3,0],[2,0]]}],"outputs":[[4,0]]})"
               : std::string(R"({"type":"Matmul","inputs":[[0,0],[2,0]]},{"type":"Matmul","inputs":[[)") +
                     (mutant ? "0" : "1") + R"(,0],[2,0]]},{"type":"EwAdd","inputs":[[3,0],[4,0]]}],"outputs":[[5,0]]})";
  return R"({"format":"tcx-mugraph","version":1,"name":"d","ops":[)" + inputs + body;
}

void writeText(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

} // namespace

TEST_CASE("tcx verify gives the verdict with δ, k and trials, and records it", "[cli][mugraph]") {
  fs::path dir = tempDir() / "verify";
  fs::create_directories(dir);
  writeText(dir / "a.json", distributiveMuGraph(false));
  writeText(dir / "b.json", distributiveMuGraph(true));
  writeText(dir / "m.json", distributiveMuGraph(false, true));
  fs::path db = dir / "v.db";
  Run r = tcxRun("verify --json --seed 9 --report " + db.string() + " " + (dir / "a.json").string() + " " +
                 (dir / "b.json").string());
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  auto j = nlohmann::json::parse(r.output);
  CHECK(j["verdict"] == "equivalent");
  CHECK(j["exp_terms"] == 2);
  CHECK(j["trials"] == 56);
  CHECK(j["delta"].get<double>() <= j["requested_delta"].get<double>());
  CHECK(fs::exists(db));

  Run m = tcxRun("verify --delta 1e-6 " + (dir / "m.json").string() + " " + (dir / "b.json").string());
  CHECK(m.exitCode == 7);
  CHECK(m.output.find("not equivalent") != std::string::npos);
  CHECK(m.output.find("first difference: output 0") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("tcx verify rejects bad μGraph files with a clear error and writes nothing", "[cli][mugraph]") {
  fs::path dir = tempDir() / "verify_bad";
  fs::create_directories(dir);
  writeText(dir / "good.json", distributiveMuGraph(true));
  writeText(dir / "bad.json", R"({"format":"tcx-mugraph","version":1,)"
                              R"("ops":[{"type":"Matmul","inputs":[[7,0],[0,0]]}],"outputs":[]})");
  fs::path db = dir / "v.db";
  Run r = tcxRun("verify --report " + db.string() + " " + (dir / "bad.json").string() + " " +
                 (dir / "good.json").string());
  CHECK(r.exitCode == 4); // invalid model
  CHECK(r.output.find("bad.json: kernel.ops[0]: Matmul reads tensor (7, 0), which no earlier operator produces") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(db));
  Run missing = tcxRun("verify " + (dir / "none.json").string() + " " + (dir / "good.json").string());
  CHECK(missing.exitCode == 3); // I/O error
  CHECK(missing.output.find("cannot read") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("tcx lax lists the LAX subprograms with the reason for each cut", "[cli][mugraph]") {
  fs::path dir = tempDir() / "lax";
  fs::path db = dir / "lax.db";
  fs::create_directories(dir);
  Run r = tcxRun("lax --json --save " + dir.string() + " --report " + db.string() + " " + sample("rmsnorm_matmul"));
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  auto j = nlohmann::json::parse(r.output);
  REQUIRE(j["subprograms"].size() == 3);
  CHECK(j["subprograms"][0]["ops"] == "Pow+ReduceMean+Add");
  CHECK(j["subprograms"][0]["cut"] == "next: node '/norm/Sqrt' (Sqrt): Sqrt is not LAX");
  CHECK(j["subprograms"][1]["lax"] == false);
  CHECK(fs::exists(dir / "lax_0.json"));
  CHECK_FALSE(fs::exists(dir / "lax_1.json"));
  CHECK(fs::exists(db));
  fs::remove_all(dir);
}

TEST_CASE("tcx superopt searches each program, records it, and resumes from its checkpoint", "[cli][superopt]") {
  fs::path dir = tempDir() / "superopt";
  fs::path db = dir / "s.db";
  fs::create_directories(dir);
  std::string common = "superopt --json --max-kernel-ops 2 --max-block-ops 2 --threads 1 --seed 1 --out " +
                       dir.string() + " " + sample("rmsnorm_matmul");
  Run first = tcxRun(common + " --state-limit 300 --report " + db.string());
  INFO(first.output);
  REQUIRE(first.exitCode == 0);
  auto j = nlohmann::json::parse(first.output);
  REQUIRE(j["searches"].size() == 1); // joined through the Sqrt
  CHECK(j["searches"][0]["lax"] == false);
  CHECK(j["searches"][0]["stop"] == "state limit");
  CHECK(j["searches"][0]["explored"].get<int64_t>() >= 300);
  CHECK(j["searches"][0]["ranking_s"].get<double>() >= 0); // tuning, verifying and measuring, after the search
  CHECK(fs::exists(dir / "rmsnorm_matmul_0.checkpoint.json"));
  REQUIRE(fs::exists(db));
  CHECK(queryOne(db, "SELECT stop_reason FROM superopt_searches") == "state limit");
  CHECK(queryOne(db, "SELECT explored FROM superopt_searches") ==
        std::to_string(j["searches"][0]["explored"].get<int64_t>()));
  CHECK(queryOne(db, "SELECT passes_cut || ' ' || (ranking_s >= 0) FROM superopt_searches") == "0 1");

  Run resumed = tcxRun(common + " --state-limit 600 --resume");
  INFO(resumed.output);
  REQUIRE(resumed.exitCode == 0);
  auto k = nlohmann::json::parse(resumed.output);
  CHECK(k["searches"][0]["resumed"] == true);
  CHECK(k["searches"][0]["explored"].get<int64_t>() >= 600);
  fs::remove_all(dir);
}

TEST_CASE("every batch command works on real PyTorch exports", "[cli][models]") {
  // A decoder by each exporter, a CNN, Swin's windowed attention and the
  // KV-cache decode step (models/real): what users open, not our samples.
  const fs::path dir = tempDir() / "real";
  fs::create_directories(dir);
  for (const char* name : {"llama3.dynamo", "gemma2.torchscript", "resnet18.torchscript", "swin.dynamo",
                           "llama3_decode_kv.dynamo"}) {
    SECTION(name) {
      const std::string model = std::string(TCX_SOURCE_DIR) + "/models/real/small/" + name + ".onnx";
      for (const char* view : {"graph", "vtog", "points-to"}) {
        Run dot = tcxRun(std::string("dot --view ") + view + " " + model);
        INFO(view << ": " << dot.output.substr(0, 400));
        REQUIRE(dot.exitCode == 0);
        CHECK(dot.output.find("digraph") != std::string::npos);
      }
      const fs::path db = dir / (std::string(name) + ".db");
      Run optimize = tcxRun("optimize --json --report " + db.string() + " " + model);
      INFO(optimize.output.substr(0, 400));
      REQUIRE(optimize.exitCode == 0);
      CHECK(queryOne(db, "SELECT COUNT(*) FROM kernels") != "0");
      Run lax = tcxRun("lax --json " + model);
      CHECK(lax.exitCode == 0);
      const fs::path out = dir / name;
      Run exported = tcxRun("export --out " + out.string() + " " + model);
      INFO(exported.output.substr(0, 400));
      REQUIRE(exported.exitCode == 0);
      CHECK(fs::file_size(out / "plan.cu") > 0);
    }
  }
  fs::remove_all(dir);
}
