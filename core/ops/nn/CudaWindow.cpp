#include "ops/nn/CudaWindow.h"

#include <fmt/format.h>

namespace tcx::nn {

CudaWindow cudaWindow(const WindowGeometry& g, const Dims3& padsEnd, const std::vector<std::string>& output,
                      WindowDirection direction) {
  CudaWindow w;
  const size_t first = 3 - output.size(); // the Dims3 slot of the outermost spatial dimension
  for (size_t d = 0; d < output.size(); ++d) {
    const size_t s = first + d;
    const std::string tap = fmt::format("_t{}", d), at = fmt::format("_p{}", d);
    const char* join = d ? " && " : "";
    w.loops += fmt::format("for (Index {0} = 0; {0} < {1}; ++{0}) ", tap, g.kernel[s]);
    switch (direction) {
    case WindowDirection::Forward:
      w.positions += fmt::format("const Index {} = {} * {} - ({}) + {} * {};\n", at, output[d], g.strides[s],
                                 g.padsBegin[s], tap, g.dilations[s]);
      w.inside += fmt::format("{0}{1} >= 0 && {1} < {2}", join, at, g.inputSize[s]);
      w.insidePadded +=
          fmt::format("{0}{1} >= -({2}) && {1} < {3}", join, at, g.padsBegin[s], g.inputSize[s] + padsEnd[s]);
      break;
    case WindowDirection::Transposed: {
      const std::string offset = fmt::format("_q{}", d);
      w.positions += fmt::format("const Index {0} = {1} + ({2}) - {3} * {4};\nconst Index {5} = {0} / {6};\n", offset,
                                 output[d], g.padsBegin[s], tap, g.dilations[s], at, g.strides[s]);
      w.inside +=
          fmt::format("{0}{1} >= 0 && {1} % {2} == 0 && {3} < {4}", join, offset, g.strides[s], at, g.inputSize[s]);
      break;
    }
    }
    w.taps.push_back(tap);
    w.input.push_back(at);
  }
  return w;
}

} // namespace tcx::nn
