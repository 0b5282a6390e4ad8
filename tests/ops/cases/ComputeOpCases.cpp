#include "ComputeOpCases.h"

namespace tcx::test {

std::vector<OpCase> computeOpCases() {
  std::vector<OpCase> all;
  for (auto cases : {elementwiseCases, typeCases, reductionCases, poolingCases, normalizationCases, convolutionCases,
                     gemmCases, attentionCases})
    for (OpCase& c : cases()) all.push_back(std::move(c));
  return all;
}

} // namespace tcx::test
