// The main of every Catch2 test executable but the GUI and GPU ones.
#include "support/CatchSession.h"

int main(int argc, char** argv) { return tcx::test::runCatchSession(argc, argv); }
