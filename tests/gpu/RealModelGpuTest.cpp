// The real-model suite on the GPU, at the small size (tests/models): every
// export's baseline and VTC-optimised plans run on the device against the
// CPU reference (support/GpuCheck.h). The full-size exports run through
// `tcx profile --check` (models/real/README.md says how).
#include "RealModels.h"
#include "support/GpuCheck.h"

#include "onnx/OnnxImporter.h"

#include <catch2/catch.hpp>

using namespace tcx;

TEST_CASE("every real model's plans match the reference on the GPU", "[gpu][models]") {
  for (const test::RealModel& m : test::realModels("small")) {
    SECTION(m.name + "." + m.exporter) {
      INFO(m.path << " (" << m.what << ")");
      test::requirePlansMatchReference(importOnnx(m.path), 7);
    }
  }
}

TEST_CASE("every real model's plans match the reference with vendor library calls", "[gpu][models][vendor]") {
  for (const test::RealModel& m : test::realModels("small")) {
    SECTION(m.name + "." + m.exporter) {
      INFO(m.path << " (" << m.what << ")");
      test::requirePlansMatchReference(importOnnx(m.path), 19, VendorPolicy::Always);
    }
  }
}

TEST_CASE("the real CNNs stored channels-last match the reference on the GPU, generated and on cuDNN",
          "[gpu][models][layout]") {
  const PlanOptions channelsLast{.layouts = LayoutPolicy::ChannelsLast};
  for (const test::RealModel& m : test::realModels("small")) {
    if (m.kind != "cnn" || m.exporter != "dynamo") continue;
    SECTION(m.name) {
      INFO(m.path << " (" << m.what << ")");
      test::requirePlansMatchReference(importOnnx(m.path), 23, VendorPolicy::Never, channelsLast);
      test::requirePlansMatchReference(importOnnx(m.path), 29, VendorPolicy::Always, channelsLast);
    }
  }
}
