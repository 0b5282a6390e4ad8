// The float instantiation of the one interpreter.
#include "mugraph/FloatDomain.h"
#include "mugraph/InterpreterImpl.h"

namespace tcx::mugraph {
template class Interpreter<FloatDomain>;
} // namespace tcx::mugraph
