#include "report/SuperoptReport.h"

#include "mugraph/Json.h"
#include "report/MuGraphReport.h"
#include "report/ReportFile.h"
#include "superopt/MuGraphCost.h"

#include <fmt/format.h>

namespace tcx {

void writeSuperoptReport(const std::string& path, const Graph& graph, const std::vector<SuperoptRun>& runs,
                         const ReportContext& context) {
  writeReportAtomically(path, [&](SqliteDb& db) {
    writeReportMeta(db, context.commandLine, {});
    writeModelRow(db, graph, context);
    SqliteStatement search(db, "INSERT INTO superopt_searches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                               "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    SqliteStatement cand(db, "INSERT INTO superopt_candidates VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (size_t i = 0; i < runs.size(); ++i) {
      const superopt::SearchResult& r = runs[i].result;
      const superopt::SearchProgress& p = r.progress;
      const superopt::Candidate* best = r.candidates.empty() ? nullptr : &r.candidates.front();
      // A speedup compares like with like: measured with measured.
      bool measured = best && best->measuredMicros && r.referenceMeasuredMicros;
      double bestUs = best ? (measured ? *best->measuredMicros : best->estimatedMicros) : 0;
      double referenceUs = measured ? *r.referenceMeasuredMicros : r.referenceMicros;
      search.bind(static_cast<int64_t>(i)).bind(r.reference.name());
      search.bind(static_cast<int64_t>(runs[i].program->nodes.size())).bind(int64_t{runs[i].program->lax});
      search.bind(runs[i].program->joined).bind(runs[i].settings).bind(std::string(superopt::stopReasonName(r.stop)));
      search.bind(int64_t{r.resumed}).bind(p.explored).bind(p.pruned).bind(p.invalid).bind(p.candidates);
      search.bind(p.variants).bind(p.slow).bind(p.verified).bind(p.rejected).bind(p.unchecked);
      search.bind(p.elapsedSeconds).bind(int64_t{p.passesCut}).bind(r.rankingSeconds);
      search.bind(r.solver.queries).bind(r.solver.closureProved).bind(r.solver.closureMissed)
          .bind(r.solver.solverCalls).bind(r.solver.unknown).bind(r.solver.solverSeconds);
      search.bind(referenceUs);
      if (best)
        search.bind(bestUs).bind(referenceUs / bestUs);
      else
        search.bindNull().bindNull();
      search.bind(std::string(measured ? "measured" : "estimated"));
      search.run();
      for (size_t k = 0; k < r.candidates.size(); ++k) {
        const superopt::Candidate& c = r.candidates[k];
        cand.bind(static_cast<int64_t>(i)).bind(static_cast<int64_t>(k)).bind(fmt::format("{:016x}", c.hash));
        cand.bind(int64_t{superopt::countKernels(c.graph).launches}).bind(c.estimatedMicros);
        if (c.measuredMicros)
          cand.bind(*c.measuredMicros);
        else
          cand.bindNull();
        cand.bind(std::string(verify::verdictName(c.verdict.verdict))).bind(c.verdict.delta).bind(c.verdict.trials);
        cand.bind(c.foundAtSeconds).bind(mugraph::toJson(c.graph));
        cand.run();
      }
    }
  });
}

} // namespace tcx
