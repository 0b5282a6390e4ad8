// Catch2's implementation, compiled once for every test executable
// (tcx_catch): each main (test_main.cpp, gui/GuiMain.cpp,
// profiler/GpuTestMain.cpp) calls runCatchSession. Compiled once per main, it
// cost about 40 s each.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "CatchSession.h"

namespace tcx::test {

int runCatchSession(int argc, char** argv) { return Catch::Session().run(argc, argv); }

} // namespace tcx::test
