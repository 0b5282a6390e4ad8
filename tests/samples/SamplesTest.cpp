#include "Samples.h"

#include "exec/Checksum.h"
#include "exec/RandomInputs.h"
#include "exec/ReferenceExecutor.h"
#include "ops/Printer.h"
#include "onnx/OnnxExporter.h"
#include "onnx/OnnxImporter.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace tcx;

namespace {

std::string samplePath(const std::string& name) { return std::string(TCX_SOURCE_DIR) + "/samples/" + name + ".onnx"; }

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Mirage's attention samples compute softmax as Exp/Sum/Div without the
// max subtraction (Figure 4a), so random f16 inputs can overflow to inf;
// their outputs are not checked for values (tests/vt runs them at reduced
// shapes against the plans).
bool isMirageAttention(const std::string& name) {
  return name.starts_with("mha_") || name.starts_with("gqa_") || name.starts_with("mqa_");
}

} // namespace

TEST_CASE("the committed samples are what the generator writes", "[samples]") {
  for (const samples::SampleInfo& s : samples::allSamples()) {
    INFO(s.name << ": regenerate with `cmake --build build --target samples`");
    REQUIRE(readFile(samplePath(s.name)) == exportOnnxBytes(s.build()));
  }
}

TEST_CASE("every sample imports to the graph it was built from and runs", "[samples]") {
  for (const samples::SampleInfo& s : samples::allSamples()) {
    SECTION(s.name) {
      Graph built = s.build();
      Graph imported = importOnnx(samplePath(s.name));
      REQUIRE(graphToString(imported) == graphToString(built));

      ExecutionResult result = ReferenceExecutor(imported).run(randomInputs(imported, 7));
      REQUIRE(result.outputs.size() == imported.outputs().size());
      for (size_t i = 0; i < result.outputs.size(); ++i) {
        REQUIRE(result.outputs[i].type() == imported.outputs()[i]->type());
        if (isMirageAttention(s.name)) continue;
        TensorChecksum c = checksum(result.outputs[i]);
        CHECK(c.nanCount == 0);
        CHECK(c.meanAbs > 0); // every output was written
      }
    }
  }
}
