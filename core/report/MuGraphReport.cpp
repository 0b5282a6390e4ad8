#include "report/MuGraphReport.h"

#include "report/ReportFile.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tcx {

void writeVerifyReport(const std::string& path, const std::string& programA, const std::string& programB,
                       const verify::VerifyResult& r, const std::string& commandLine) {
  writeReportAtomically(path, [&](SqliteDb& db) {
    writeReportMeta(db, commandLine, {{"field", "Z_p x Z_q, p = 98784247763, q = 2147483647"}});
    SqliteStatement st(db, "INSERT INTO verifications VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    st.bind(programA).bind(programB).bind(std::string(verify::verdictName(r.verdict)));
    st.bind(r.requestedDelta).bind(r.delta).bind(static_cast<int64_t>(r.k)).bind(r.trials).bind(r.redraws);
    st.bind(r.seconds).bind(r.elementsPerTrial).bind(r.notLax);
    if (r.firstDifference)
      st.bind(int64_t{r.firstDifference->output})
          .bind(r.firstDifference->element)
          .bind(r.firstDifference->a)
          .bind(r.firstDifference->b);
    else
      st.bindNull().bindNull().bindNull().bindNull();
    st.run();
  });
}

void writeModelRow(SqliteDb& db, const Graph& graph, const ReportContext& context) {
  SqliteStatement(db, "INSERT INTO model (path, graph, nodes) VALUES (?, ?, ?)")
      .bind(context.modelPath)
      .bind(graph.name)
      .bind(static_cast<int64_t>(graph.numNodes()))
      .run();
}

void writeLaxReport(const std::string& path, const Graph& graph, const std::vector<mugraph::LaxSubprogram>& parts,
                    const ReportContext& context) {
  writeReportAtomically(path, [&](SqliteDb& db) {
    writeReportMeta(db, context.commandLine, {});
    writeModelRow(db, graph, context);
    SqliteStatement st(db, "INSERT INTO lax_subprograms VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    int64_t id = 0;
    for (const mugraph::LaxSubprogram& p : parts) {
      std::vector<std::string> ops;
      for (const Node* n : p.nodes) ops.push_back(n->opType());
      st.bind(id++).bind(int64_t{p.lax}).bind(static_cast<int64_t>(p.nodes.size())).bind(p.nodes.front()->name());
      st.bind(p.nodes.back()->name()).bind(fmt::format("{}", fmt::join(ops, "+"))).bind(int64_t{p.exps}).bind(p.cut);
      st.run();
    }
  });
}

} // namespace tcx
