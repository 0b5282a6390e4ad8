#pragma once
// Runs Catch2's session. Its implementation is compiled once, in
// CatchSession.cpp (tcx_catch): Catch2 declares Catch::Session only where
// it compiles the implementation, so the mains call this instead.

namespace tcx::test {

int runCatchSession(int argc, char** argv);

} // namespace tcx::test
