#include "web/api/ExplorerApi.h"

#include "web/api/SessionJson.h"
#include "web/api/ViewJson.h"

#include "backend/GpuBackend.h"
#include "codegen/CudaCodegen.h"
#include "codegen/SlotBinding.h"
#include "onnx/OnnxImporter.h"
#include "superopt/SuperoptSearch.h"
#include "superopt/Superoptimize.h"
#include "support/Error.h"
#include "target/GpuPreset.h"
#include "view/GraphSearch.h"
#include "view/ItemLinks.h"
#include "view/ItemRef.h"
#include "vt/EdgeState.h"

#include <algorithm>

namespace tcx::web {

namespace fs = std::filesystem;

// A finished GPU measurement, waiting for the server's thread to record it
// in the session it measured.
struct ExplorerApi::Measurement {
  unsigned generation = 0;
  backend::MeasuredLatency latency;
};

namespace {

// Superoptimizer searches started from a page are bounded: a search without
// a limit runs for hours (Mirage reports up to 4 h).
constexpr double kDefaultSearchSeconds = 10;
constexpr double kMaxSearchSeconds = 600;
constexpr int kMeasureRepetitions = 20;
constexpr size_t kCandidatesListed = 10;

int statusOf(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::InvalidArgument: return 400;
  case ErrorKind::Io: return 404;
  case ErrorKind::InvalidModel:
  case ErrorKind::Unsupported:
  case ErrorKind::ShapeInference:
  case ErrorKind::DataDependentShape: return 422;
  case ErrorKind::Device: return 503;
  case ErrorKind::Internal: return 500;
  }
  return 500;
}

std::vector<std::string> stringList(const nlohmann::json& body, const char* key) {
  std::vector<std::string> out;
  if (!body.contains(key)) return out;
  const nlohmann::json& list = body.at(key);
  if (!list.is_array()) throw ApiError(400, std::string("'") + key + "' must be a list of edge names");
  for (const nlohmann::json& item : list) {
    if (!item.is_string()) throw ApiError(400, std::string("'") + key + "' must be a list of edge names");
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::string stringField(const nlohmann::json& body, const char* key) {
  if (!body.contains(key) || !body.at(key).is_string()) throw ApiError(400, std::string("'") + key + "' (a string) is missing");
  return body.at(key).get<std::string>();
}

// The file name part of an uploaded model's name, which must end in .onnx.
std::string uploadName(const std::string& asked) {
  const std::string name = fs::path(asked).filename().string();
  if (name.size() <= 5 || name.substr(name.size() - 5) != ".onnx")
    throw ApiError(400, "upload name '" + asked + "': expected a file name ending in .onnx");
  return name;
}

nlohmann::json searchResultJson(const superopt::SearchResult& r) {
  nlohmann::json candidates = nlohmann::json::array();
  for (size_t i = 0; i < std::min(r.candidates.size(), kCandidatesListed); ++i) {
    const superopt::Candidate& c = r.candidates[i];
    candidates.push_back({{"rank", i + 1},
                          {"estimatedMicros", c.estimatedMicros},
                          {"measuredMicros", c.measuredMicros ? nlohmann::json(*c.measuredMicros) : nlohmann::json()},
                          {"speedup", c.estimatedMicros > 0 ? r.referenceMicros / c.estimatedMicros : 0.0},
                          {"verdict", verify::verdictName(c.verdict.verdict)},
                          {"kernels", c.graph.ops().size()}});
  }
  const superopt::SearchProgress& p = r.progress;
  return {{"reference", r.reference.name()},
          {"referenceMicros", r.referenceMicros},
          {"stop", superopt::stopReasonName(r.stop)},
          {"candidates", std::move(candidates)},
          {"found", r.candidates.size()},
          {"counters",
           {{"explored", p.explored},
            {"pruned", p.pruned},
            {"invalid", p.invalid},
            {"candidates", p.candidates},
            {"verified", p.verified},
            {"rejected", p.rejected},
            {"elapsedSeconds", p.elapsedSeconds}}}};
}

} // namespace

const ExplorerApi::Route ExplorerApi::kRoutes[] = {
    {"GET", "/api/status", &ExplorerApi::status, false, false},
    {"POST", "/api/open", &ExplorerApi::openPath, false, true},
    {"POST", "/api/upload", &ExplorerApi::upload, false, true},
    {"GET", "/api/model", &ExplorerApi::model, true, false},
    {"GET", "/api/view", &ExplorerApi::view, true, false},
    {"GET", "/api/strategy", &ExplorerApi::strategy, true, false},
    {"POST", "/api/constraints", &ExplorerApi::setConstraints, true, true},
    {"GET", "/api/latency", &ExplorerApi::latency, true, false},
    {"GET", "/api/kernels", &ExplorerApi::kernels, true, false},
    {"GET", "/api/source", &ExplorerApi::source, true, false},
    {"GET", "/api/details", &ExplorerApi::details, true, false},
    {"GET", "/api/search", &ExplorerApi::search, true, false},
    {"GET", "/api/superopt/programs", &ExplorerApi::superoptPrograms, true, false},
    {"POST", "/api/jobs", &ExplorerApi::startJob, true, true},
    {"GET", "/api/jobs", &ExplorerApi::jobs, false, false},
};

ExplorerApi::ExplorerApi(RootDirectory root, ApiOptions options, JobRunner::Listener onJob)
    : root_(std::move(root)), options_(std::move(options)), jobs_(std::move(onJob)) {}

ExplorerApi::~ExplorerApi() { jobs_.cancelAndWait(); }

ApiResponse ExplorerApi::handle(const ApiRequest& request) {
  try {
    const std::string cancelPrefix = "/api/jobs/", cancelSuffix = "/cancel";
    const std::string& path = request.path;
    if (path.size() > cancelPrefix.size() + cancelSuffix.size() && path.starts_with(cancelPrefix) &&
        path.ends_with(cancelSuffix)) {
      if (request.method != "POST") throw ApiError(405, path + ": use POST");
      return cancelJob(path.substr(cancelPrefix.size(), path.size() - cancelPrefix.size() - cancelSuffix.size()));
    }
    bool pathKnown = false;
    for (const Route& route : kRoutes) {
      if (path != route.path) continue;
      pathKnown = true;
      if (request.method != route.method) continue;
      if (route.changesState && options_.readOnly) throw ApiError(403, "this is a read-only report: nothing can change");
      if (route.needsModel && !session_) throw ApiError(409, "no model is open: open one first (POST /api/open or /api/upload)");
      if (route.handler != &ExplorerApi::upload && request.body.size() > options_.maxJsonBytes)
        throw ApiError(413, "the request body is larger than " + std::to_string(options_.maxJsonBytes) + " bytes");
      nlohmann::json body = (this->*route.handler)(request);
      return {route.handler == &ExplorerApi::startJob ? 202 : 200, std::move(body)};
    }
    if (pathKnown) throw ApiError(405, path + ": method " + request.method + " not allowed");
    throw ApiError(404, path + ": no such request (docs/web.md lists them)");
  } catch (const ApiError& e) {
    return {e.status(), {{"error", e.what()}}};
  } catch (const Error& e) {
    return {statusOf(e.kind()), {{"error", e.what()}}};
  } catch (const std::exception& e) {
    return {500, {{"error", std::string("internal error: ") + e.what()}}};
  }
}

void ExplorerApi::install(std::unique_ptr<VtcSession> session, std::string name, std::string file) {
  // A job reads the session about to be replaced (a measurement) or will
  // report on it (a search): it ends first.
  jobs_.cancelAndWait();
  session_ = std::move(session);
  ++generation_;
  ++revision_;
  name_ = std::move(name);
  file_ = std::move(file);
  checkVerdict_.clear();
}

void ExplorerApi::open(const fs::path& file) {
  auto session = std::make_unique<VtcSession>(importOnnx(file.string()), defaultGpuPreset());
  session->select(StrategyConstraints{});
  install(std::move(session), file.stem().string(), root_.relativeName(fs::weakly_canonical(file)));
}

void ExplorerApi::constrain(const EdgeConstraintSpecs& constraints) {
  session_->select(constraints);
  strategyChanged();
}

// After a selection that did not raise: the old measurement's verdict no
// longer describes the plans.
void ExplorerApi::strategyChanged() {
  checkVerdict_.clear();
  ++revision_;
}

void ExplorerApi::recordMeasurement(PlanLatency baseline, PlanLatency optimized, std::string device,
                                    std::string verdict) {
  session_->setMeasuredLatency(std::move(baseline), std::move(optimized), std::move(device));
  checkVerdict_ = std::move(verdict);
  ++revision_;
}

nlohmann::json ExplorerApi::changeMessage(unsigned generationBefore) const {
  return {{"type", generation_ != generationBefore ? "model" : "strategy"}, {"revision", revision_}};
}

nlohmann::json ExplorerApi::modelJson() const {
  return {{"name", name_},
          {"file", file_},
          {"ops", session_->graph().numNodes()},
          {"tensors", session_->graph().values().size()},
          {"kernels", session_->kernels().kernels().size()},
          {"vtogEdges", session_->vtog().edges().size()},
          {"latencySource", session_->latencySource()},
          {"measured", session_->latencyMeasured()},
          {"revision", revision_},
          {"views", {"computation", "kernels", "vtog", "pointsto"}}};
}

nlohmann::json ExplorerApi::status(const ApiRequest&) {
  const backend::GpuStatus gpu = backend::gpuStatus();
  nlohmann::json jobs = nlohmann::json::array();
  for (const JobSnapshot& job : jobs_.all()) jobs.push_back(job.toJson());
  return {{"version", options_.version},
          {"model", session_ ? nlohmann::json{{"name", name_}, {"file", file_}} : nlohmann::json()},
          {"gpu", {{"available", gpu.available}, {"describe", gpu.describe}}},
          {"readOnly", options_.readOnly},
          {"jobs", std::move(jobs)}};
}

nlohmann::json ExplorerApi::openPath(const ApiRequest& request) {
  const fs::path file = root_.resolve(stringField(parseJsonBody(request), "path"));
  open(file);
  return modelJson();
}

nlohmann::json ExplorerApi::upload(const ApiRequest& request) {
  const std::string name = uploadName(request.param("name"));
  if (request.body.empty()) throw ApiError(400, "upload '" + name + "': the body is empty");
  if (request.body.size() > options_.maxUploadBytes)
    throw ApiError(413, "upload '" + name + "': larger than " + std::to_string(options_.maxUploadBytes) + " bytes");
  auto session = std::make_unique<VtcSession>(importOnnxBytes(request.body, name), defaultGpuPreset());
  session->select(StrategyConstraints{});
  install(std::move(session), fs::path(name).stem().string(), "upload:" + name);
  return modelJson();
}

nlohmann::json ExplorerApi::model(const ApiRequest&) { return modelJson(); }

nlohmann::json ExplorerApi::view(const ApiRequest& request) {
  const std::string name = request.param("name");
  const std::optional<ViewKind> kind = parseViewKind(name);
  if (!kind) throw ApiError(400, "view '" + name + "': expected computation, kernels, vtog or pointsto");
  return viewJson(*session_, buildView(*session_, *kind, request));
}

nlohmann::json ExplorerApi::strategy(const ApiRequest&) {
  nlohmann::json answer = strategyJson(*session_);
  answer["revision"] = revision_;
  return answer;
}

nlohmann::json ExplorerApi::setConstraints(const ApiRequest& request) {
  if (jobs_.runningKind() == "profile")
    throw ApiError(409, "a measurement is running: cancel it before changing the strategy");
  const nlohmann::json body = parseJsonBody(request);
  if (body.contains("edge")) {
    const std::string state = stringField(body, "state");
    const std::optional<EdgeState> parsed = parseEdgeState(state);
    if (!parsed) throw ApiError(400, "state '" + state + "': expected auto, accepted, forced or forbidden");
    const int edge = session_->resolveEdge(stringField(body, "edge"));
    session_->select(withEdgeState(session_->constraints(), edge, *parsed));
    strategyChanged();
  } else {
    constrain({stringList(body, "accepted"), stringList(body, "forced"), stringList(body, "forbidden")});
  }
  return {{"strategy", strategy(request)}, {"latency", latencyJson(*session_, checkVerdict_)}};
}

nlohmann::json ExplorerApi::latency(const ApiRequest&) { return latencyJson(*session_, checkVerdict_); }

bool ExplorerApi::optimizedPlan(const ApiRequest& request) const {
  const std::string plan = request.param("plan", "optimized");
  if (plan != "optimized" && plan != "baseline") throw ApiError(400, "plan '" + plan + "': expected optimized or baseline");
  return plan == "optimized";
}

nlohmann::json ExplorerApi::kernels(const ApiRequest& request) { return kernelsJson(*session_, optimizedPlan(request)); }

nlohmann::json ExplorerApi::source(const ApiRequest& request) {
  const bool optimized = optimizedPlan(request);
  const ExecPlan& plan = optimized ? session_->optimizedPlan() : session_->baselinePlan();
  GeneratedPlan code;
  try {
    code = generateCuda(plan);
  } catch (const Error& e) {
    throw ApiError(422, std::string("no CUDA for this plan: ") + e.what());
  }
  nlohmann::json spans = nlohmann::json::object(), slots = nlohmann::json::object();
  for (size_t i = 0; i < plan.kernels.size() && i < code.kernelSpans.size(); ++i) {
    if (code.kernelSpans[i].empty()) continue;
    const std::string key = view::kernelRef(plan.kernels[i]).key();
    spans[key] = {code.kernelSpans[i].firstLine, code.kernelSpans[i].lastLine};
    slots[key] = describeSlots(plan, code, static_cast<int>(i));
  }
  return {{"plan", optimized ? "optimized" : "baseline"},
          {"code", code.source},
          {"spans", std::move(spans)},
          {"slots", std::move(slots)}};
}

nlohmann::json ExplorerApi::details(const ApiRequest& request) {
  const std::string key = request.param("item");
  const std::optional<view::ItemRef> ref = view::ItemRef::parse(key);
  if (!ref) throw ApiError(400, "item '" + key + "': expected a key such as node:NAME, value:NAME or edge:e3");
  std::map<ViewKind, BuiltView> views;
  for (ViewKind kind : kViewKinds)
    views.emplace(kind, buildView(*session_, kind, kind == ViewKind::Computation ? request : ApiRequest{}));
  return detailsJson(*session_, *ref, views);
}

nlohmann::json ExplorerApi::search(const ApiRequest& request) {
  const std::string name = request.param("view", "computation");
  const std::optional<ViewKind> kind = parseViewKind(name);
  if (!kind) throw ApiError(400, "view '" + name + "': expected computation, kernels, vtog or pointsto");
  const std::string mode = request.param("mode", "substring");
  const view::SearchMode searchMode = mode == "optype" ? view::SearchMode::OpType
                                      : mode == "regex" ? view::SearchMode::Regex
                                                        : view::SearchMode::Substring;
  if (mode != "substring" && mode != "optype" && mode != "regex")
    throw ApiError(400, "mode '" + mode + "': expected substring, optype or regex");
  const BuiltView built = buildView(*session_, *kind, request);
  nlohmann::json matches = nlohmann::json::array();
  for (const view::ItemRef& ref : view::search(built.graph, request.param("q"), searchMode)) {
    const std::optional<view::ItemRef> shown = built.graph.drawnAs(ref);
    matches.push_back({{"key", ref.key()}, {"shownAs", shown ? nlohmann::json(shown->key()) : nlohmann::json()}});
  }
  return {{"matches", std::move(matches)}};
}

nlohmann::json ExplorerApi::superoptPrograms(const ApiRequest&) {
  nlohmann::json programs = nlohmann::json::array();
  std::string none;
  try {
    const std::vector<superopt::SuperoptProgram> found = superopt::superoptPrograms(session_->graph());
    for (size_t i = 0; i < found.size(); ++i)
      programs.push_back({{"index", i}, {"description", superopt::describeProgram(found[i], i)}});
  } catch (const Error& e) {
    none = std::string("the model's LAX subprograms have no μGraph form: ") + e.what();
  }
  if (programs.empty() && none.empty()) none = "this model has no LAX subprogram: nothing to superoptimize";
  return {{"programs", std::move(programs)}, {"none", none}};
}

nlohmann::json ExplorerApi::startJob(const ApiRequest& request) {
  const nlohmann::json body = parseJsonBody(request);
  const std::string kind = stringField(body, "kind");
  int id = 0;
  if (kind == "superopt") {
    const int index = body.value("program", 0);
    std::vector<superopt::SuperoptProgram> programs = superopt::superoptPrograms(session_->graph());
    if (index < 0 || index >= static_cast<int>(programs.size()))
      throw ApiError(400, "program " + std::to_string(index) + ": this model has " + std::to_string(programs.size()) +
                              " programs to superoptimize");
    const double seconds = body.value("seconds", kDefaultSearchSeconds);
    if (!(seconds > 0 && seconds <= kMaxSearchSeconds))
      throw ApiError(400, "seconds: expected a time limit above 0 and at most " + std::to_string(int(kMaxSearchSeconds)));
    superopt::SearchOptions options;
    options.timeLimitSeconds = seconds;
    id = jobs_.start("superopt", [program = std::move(programs[static_cast<size_t>(index)].program), options,
                                  seconds](JobContext& context) mutable {
      auto onProgress = [&](const superopt::SearchProgress& p) {
        context.progress(static_cast<int>(100 * std::min(1.0, p.elapsedSeconds / seconds)),
                         "explored " + std::to_string(p.explored) + ", pruned " + std::to_string(p.pruned) +
                             ", candidates " + std::to_string(p.candidates));
      };
      return searchResultJson(superopt::SuperoptSearch(std::move(program), options).run(onProgress, &context.cancelFlag()));
    });
  } else if (kind == "profile") {
    const backend::GpuStatus gpu = backend::gpuStatus();
    if (!gpu.available) throw ApiError(422, "latencies stay " + session_->latencySource() + ": " + gpu.describe);
    const VtcSession* session = session_.get();
    id = jobs_.start("profile", [this, session, generation = generation_](JobContext& context) {
      auto progress = [&](size_t done, size_t total, std::string_view what) {
        context.progress(static_cast<int>(100 * done / std::max<size_t>(total, 1)), std::string(what));
      };
      const backend::MeasureControl control{
          .repetitions = kMeasureRepetitions, .cancel = &context.cancelFlag(), .progress = progress};
      std::optional<backend::MeasuredLatency> measured = backend::measurePlans(*session, control);
      if (!measured) return nlohmann::json();
      nlohmann::json result = {{"device", measured->device},
                               {"baselineSeconds", measured->baseline.seconds},
                               {"optimizedSeconds", measured->optimized.seconds},
                               {"check", backend::checkVerdict(*measured)}};
      auto m = std::make_shared<Measurement>();
      m->generation = generation;
      m->latency = std::move(*measured);
      std::lock_guard lock(measurementMutex_);
      pendingMeasurement_ = std::move(m);
      return result;
    });
  } else {
    throw ApiError(400, "job kind '" + kind + "': expected superopt or profile");
  }
  return jobs_.snapshot(id).toJson();
}

nlohmann::json ExplorerApi::jobs(const ApiRequest&) {
  nlohmann::json list = nlohmann::json::array();
  for (const JobSnapshot& job : jobs_.all()) list.push_back(job.toJson());
  return {{"jobs", std::move(list)}};
}

ApiResponse ExplorerApi::cancelJob(const std::string& id) {
  if (options_.readOnly) throw ApiError(403, "this is a read-only report: nothing can change");
  int parsed = 0;
  try {
    size_t used = 0;
    parsed = std::stoi(id, &used);
    if (used != id.size()) throw std::invalid_argument(id);
  } catch (const std::exception&) {
    throw ApiError(404, "no job '" + id + "'");
  }
  jobs_.cancel(parsed);
  return {200, jobs_.snapshot(parsed).toJson()};
}

nlohmann::json ExplorerApi::jobEvent(int id) {
  const JobSnapshot job = jobs_.snapshot(id);
  if (job.state == JobState::Done && job.kind == "profile") {
    std::shared_ptr<Measurement> m;
    {
      std::lock_guard lock(measurementMutex_);
      m = std::move(pendingMeasurement_);
    }
    // A measurement of a model since replaced keeps the new one's estimates.
    if (m && m->generation == generation_) {
      const std::string verdict = backend::checkVerdict(m->latency);
      recordMeasurement(std::move(m->latency.baseline), std::move(m->latency.optimized), std::move(m->latency.device),
                        verdict);
    }
  }
  return {{"type", "job"}, {"job", job.toJson()}};
}

} // namespace tcx::web
