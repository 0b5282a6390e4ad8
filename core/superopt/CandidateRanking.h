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
//
// Every phase ends by the deadline, keeping back part of what is left for
// the phases after it: size tuning may use a third; the first trials the
// rest (within verifySeconds) or, when a GPU times the best, half of it; the
// further trials what the first leave, or half of it with a GPU. Work that
// has started is not interrupted, so a trial starts only if predicted to end
// in time (TrialCost.h), a timing only if one as long as the longest before
// it would.
// What was left undone is counted in SearchResult::cut. Tuning goes in the
// order found, and a candidate it does not reach keeps its search sizes
// (still a valid program); trials and timings go best first, so what the
// deadline cuts there is the least promising.

#include "superopt/Deadline.h"
#include "superopt/SearchFrontier.h"
#include "superopt/SuperoptSearch.h"
#include "superopt/TrialCost.h"

#include <vector>

namespace tcx::superopt {

// Candidates estimated more than this many times slower than the reference
// are set aside unverified (SearchProgress::slow).
inline constexpr double kMaxSlowdown = 4;

// `found` holds distinct graphs (the engine drops repeats as it finds them).
// Fills result.candidates (best first), result.referenceMicros and
// result.cut; updates the verification counters of `progress`, reporting
// through `onProgress`. `trialCost`: the model the search planned its
// reserve with (SuperoptSearch.cpp); with a deadline and none, one is
// measured here.
void rankCandidates(SearchResult& result, const std::vector<FoundCandidate>& found, const SearchOptions& options,
                    SearchProgress& progress, const ProgressFn& onProgress, const Deadline& deadline = {},
                    TrialCost* trialCost = nullptr);

// The structure of a μGraph with grid and for-loop sizes left out: operator
// types, operands and maps at every level.
uint64_t structureHash(const mugraph::KernelGraph& graph);

} // namespace tcx::superopt
