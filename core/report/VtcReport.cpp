#include "report/VtcReport.h"

#include "ops/OpDef.h"
#include "report/ReportFile.h"
#include "report/Sqlite.h"

#include <cstdio>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tcx {

namespace {

std::string constraintOf(const StrategyConstraints& c, int e) {
  if (c.forced.count(e)) return "forced";
  if (c.forbidden.count(e)) return "forbidden";
  if (c.accepted.count(e)) return "accepted";
  return "auto";
}

class ReportWriter {
public:
  ReportWriter(SqliteDb& db, const VtcSession& s, const ReportContext& ctx) : db_(db), s_(s), ctx_(ctx) {}

  void write() {
    writeReportMeta(db_, ctx_.commandLine,
                    {{"gpu", s_.latencyDevice()},
                     {"gpu_preset", s_.costModel().preset().name},
                     {"latency_source", s_.latencySource()},
                     {"selection_source", s_.selectionSource()}});
    writeModel();
    writeVtog();
    writeStrategy();
    writePlan("baseline", s_.baselinePlan(), s_.baselineLatency());
    writePlan("optimized", s_.optimizedPlan(), s_.optimizedLatency());
  }

private:
  void writeModel() {
    const Graph& g = s_.graph();
    size_t dm = 0;
    for (const Node* n : g.nodes()) dm += n->op().isDataMovement();
    SqliteStatement(db_, "INSERT INTO model VALUES (?, ?, ?, ?, ?)")
        .bind(ctx_.modelPath)
        .bind(g.name)
        .bind(static_cast<int64_t>(g.numNodes()))
        .bind(static_cast<int64_t>(dm))
        .bind(static_cast<int64_t>(s_.kernels().kernels().size()))
        .run();
    const auto& eliminated = s_.optimizedPlan().eliminated;
    SqliteStatement nodes(db_, "INSERT INTO nodes VALUES (?, ?, ?, ?, ?, ?, ?)");
    int64_t id = 0;
    for (const Node* n : g.nodes())
      nodes.bind(id++)
          .bind(n->name())
          .bind(n->opType())
          .bind(std::string(opClassName(n->op().opClass)))
          .bind(int64_t{n->op().isDataMovement()})
          .bind(s_.kernels().kernelOf(n).name)
          .bind(int64_t{std::find(eliminated.begin(), eliminated.end(), n) != eliminated.end()})
          .run();
    SqliteStatement tensors(db_, "INSERT INTO tensors VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    id = 0;
    for (const Value* v : s_.vtog().nodes()) {
      const char* kind = v->isGraphInput() ? "input" : v->isGraphOutput() ? "output" : v->isConstant() ? "constant" : "intermediate";
      std::string storage;
      for (const Value* p : s_.strategy().resolve(v).physical) storage += (storage.empty() ? "" : ",") + p->name();
      tensors.bind(id++)
          .bind(v->name())
          .bind(std::string(dtypeName(v->type().dtype)))
          .bind(shapeToString(v->type().shape))
          .bind(static_cast<int64_t>(v->type().byteSize()))
          .bind(std::string(kind))
          .bind(v->producer() ? v->producer()->name() : std::string())
          .bind(int64_t{s_.strategy().isVirtual(v)})
          .bind(storage)
          .run();
    }
  }

  void writeVtog() {
    SqliteStatement edges(db_, "INSERT INTO vtog_edges VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const VtogEdge& e : s_.vtog().edges())
      edges.bind(int64_t{e.id})
          .bind(e.from->name())
          .bind(e.to->name())
          .bind(e.op->name())
          .bind(e.op->opType())
          .bind(std::string(edgeDirectionName(e.direction)))
          .bind(std::string(opportunityTypeName(e.type)))
          .bind(int64_t{e.contiguity.minContiguousDim})
          .bind(e.contiguity.runElements)
          .bind(int64_t{e.contiguity.partial})
          .bind(e.mapping.toString({e.to->name()}))
          .bind(constraintOf(s_.constraints(), e.id))
          .bind(int64_t{s_.greedy().selected.count(e.id) != 0})
          .run();
    SqliteStatement conflicts(db_, "INSERT INTO vtog_conflicts VALUES (?, ?)");
    for (const Value* v : s_.vtog().nodes())
      for (const auto& [a, b] : s_.vtog().conflicts(v)) conflicts.bind(int64_t{a}).bind(int64_t{b}).run();
  }

  void writeStrategy() {
    SqliteStatement steps(db_, "INSERT INTO strategy_steps VALUES (?, ?, ?, ?, ?)");
    int64_t i = 0;
    for (const GreedyStep& st : s_.greedy().steps) {
      std::vector<std::string> names;
      for (int e : st.cover) names.push_back(fmt::format("e{}", e));
      steps.bind(i++).bind(st.tensor->name()).bind(fmt::format("{}", fmt::join(names, ","))).bind(st.saving * 1e6).bind(st.reason).run();
    }
    SqliteStatement notes(db_, "INSERT INTO strategy_notes VALUES (?)");
    for (const std::string& n : s_.greedy().notes) notes.bind(n).run();
  }

  void writePlan(const std::string& name, const ExecPlan& plan, const PlanLatency& latency) {
    SqliteStatement kernels(db_, "INSERT INTO kernels VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const PlanKernel& k : plan.kernels) {
      const KernelEstimate& e = latency.perKernel[static_cast<size_t>(k.id)];
      int64_t vin = std::count_if(k.inputs.begin(), k.inputs.end(), [](const TensorAccess& a) { return a.isVirtual(); });
      int64_t vout = std::count_if(k.outputs.begin(), k.outputs.end(), [](const TensorAccess& a) { return a.isVirtual(); });
      bool dm = k.isDataMovement();
      kernels.bind(name)
          .bind(int64_t{k.id})
          .bind(k.name)
          .bind(std::string(dm ? "data_movement" : "compute"))
          .bind(std::string(kernelKindName(k.fused->kind)))
          .bind(k.fused->opSummary())
          .bind(e.seconds * 1e6)
          .bind(s_.latencySource())
          .bind(e.bytes)
          .bind(e.flops)
          .bind(std::string(e.memoryBound ? "memory" : "compute"))
          .bind(vin)
          .bind(vout)
          .run();
    }
    SqliteStatement buffers(db_, "INSERT INTO buffers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const PlanBuffer& b : plan.buffers)
      buffers.bind(name)
          .bind(int64_t{b.id})
          .bind(b.name)
          .bind(std::string(bufferKindName(b.kind)))
          .bind(b.bytes)
          .bind(b.arenaOffset)
          .bind(int64_t{b.firstKernel})
          .bind(int64_t{b.lastKernel})
          .bind(b.layout.toString())
          .run();
    SqliteStatement(db_, "INSERT INTO memory VALUES (?, ?, ?, ?)")
        .bind(name)
        .bind(plan.peakMemoryBytes())
        .bind(plan.arenaBytes)
        .bind(plan.externalBytes)
        .run();
    SqliteStatement(db_, "INSERT INTO summary VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(name)
        .bind(static_cast<int64_t>(plan.kernels.size()))
        .bind(static_cast<int64_t>(plan.numDataMovementKernels()))
        .bind(latency.seconds * 1e6)
        .bind(latency.dataMovementSeconds * 1e6)
        .bind(latency.computeSeconds * 1e6)
        .bind(plan.peakMemoryBytes())
        .bind(s_.latencySource())
        .run();
  }

  SqliteDb& db_;
  const VtcSession& s_;
  const ReportContext& ctx_;
};

} // namespace

void writeVtcReport(const std::string& path, const VtcSession& session, const ReportContext& context) {
  writeReportAtomically(path, [&](SqliteDb& db) { ReportWriter(db, session, context).write(); });
}

} // namespace tcx
