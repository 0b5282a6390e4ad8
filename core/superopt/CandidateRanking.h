#pragma once
// After the search (Algorithm 1, lines 4-5 and the verifier of §5): choose
// each complete μGraph's grid and for-loop sizes (SizeTuning.h), build its
// thread graphs, estimate it, drop the variants that differ from a
// better-estimated one only in sizes (they share its algebra and its
// partition structure; keeping every size would verify the same program
// dozens of times), and verify the rest: one
// finite-field trial each, which rejects a non-equivalent program with
// probability at least 1/k, then the full δ bound for the best `verifyTop`.
// Only candidates that pass are kept, each with its verdict.

#include "superopt/SearchFrontier.h"
#include "superopt/SuperoptSearch.h"

#include <vector>

namespace tcx::superopt {

// Candidates estimated more than this many times slower than the reference
// are set aside unverified (SearchProgress::slow).
inline constexpr double kMaxSlowdown = 4;

// `found` holds distinct graphs (the engine drops repeats as it finds them).
// Fills result.candidates (best first) and result.referenceMicros; updates
// the verification counters of `progress`, reporting through `onProgress`.
void rankCandidates(SearchResult& result, const std::vector<FoundCandidate>& found, const SearchOptions& options,
                    SearchProgress& progress, const ProgressFn& onProgress);

// The structure of a μGraph with grid and for-loop sizes left out: operator
// types, operands and maps at every level.
uint64_t structureHash(const mugraph::KernelGraph& graph);

} // namespace tcx::superopt
