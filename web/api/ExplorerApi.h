#pragma once
// The web explorer's API (docs/web.md): one open model's VtcSession, the
// requests that read it (views, strategy, latencies, kernels, CUDA source,
// details, search) and those that change it (open, upload, constraints,
// jobs), each answered with JSON. No Qt and no sockets: the HTTP server
// (web/server) only carries requests here and answers back, and
// `tcx report --html` records the answers to the read-only requests.
//
// A request that fails changes nothing: constraints are checked by the
// session's select(), which keeps the previous strategy when it raises, and
// a model replaces the open one only once it has imported and selected.

#include "pipeline/VtcSession.h"
#include "web/api/ApiTypes.h"
#include "web/api/JobRunner.h"
#include "web/api/RootDirectory.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace tcx::web {

struct ApiOptions {
  std::string version;
  bool readOnly = false;                       // a report: every state change refused
  size_t maxJsonBytes = size_t(1) << 20;       // a JSON request body
  size_t maxUploadBytes = size_t(512) << 20;   // an uploaded model
};

class ExplorerApi {
public:
  // `onJob` hears of every job change, on the job's thread (JobRunner).
  ExplorerApi(RootDirectory root, ApiOptions options, JobRunner::Listener onJob = {});
  ~ExplorerApi();

  // Answers one request; never throws.
  ApiResponse handle(const ApiRequest& request);

  // Opens `file` (any path: the command line's MODEL); raises tcx::Error.
  void open(const std::filesystem::path& file);
  // Applies `constraints` ("e3" names, as `tcx optimize` takes them);
  // raises tcx::Error.
  void constrain(const EdgeConstraintSpecs& constraints);
  // Replaces the estimates with latencies measured on `device` for the
  // plans of the current strategy; `verdict` says how their outputs compared
  // with the CPU reference (backend::checkVerdict).
  void recordMeasurement(PlanLatency baseline, PlanLatency optimized, std::string device, std::string verdict);
  bool isOpen() const { return session_ != nullptr; }
  const VtcSession& session() const { return *session_; }
  const ApiOptions& options() const { return options_; }
  const std::string& modelName() const { return name_; }

  // Counts models opened, and every change of the session (a model opened,
  // constraints applied, a measurement recorded): answers about the session
  // carry the revision they describe, so that a client can tell a pushed
  // change it has already loaded from one made elsewhere.
  unsigned generation() const { return generation_; }
  unsigned revision() const { return revision_; }
  // The message the server pushes after a change: {"type": "model"} when a
  // model was opened since `generationBefore`, else {"type": "strategy"},
  // with the revision.
  nlohmann::json changeMessage(unsigned generationBefore) const;

  // On the server's thread, after `onJob` announced job `id`: records a
  // finished measurement in the session (a new revision), then returns the
  // message to push to clients ({"type": "job", ...}).
  nlohmann::json jobEvent(int id);

private:
  using Handler = nlohmann::json (ExplorerApi::*)(const ApiRequest&);
  struct Route {
    const char* method;
    const char* path;
    Handler handler;
    bool needsModel;
    bool changesState;
  };
  static const Route kRoutes[];

  nlohmann::json status(const ApiRequest&);
  nlohmann::json openPath(const ApiRequest&);
  nlohmann::json upload(const ApiRequest&);
  nlohmann::json model(const ApiRequest&);
  nlohmann::json view(const ApiRequest&);
  nlohmann::json strategy(const ApiRequest&);
  nlohmann::json setConstraints(const ApiRequest&);
  nlohmann::json latency(const ApiRequest&);
  nlohmann::json kernels(const ApiRequest&);
  nlohmann::json source(const ApiRequest&);
  nlohmann::json details(const ApiRequest&);
  nlohmann::json search(const ApiRequest&);
  nlohmann::json superoptPrograms(const ApiRequest&);
  nlohmann::json startJob(const ApiRequest&);
  nlohmann::json jobs(const ApiRequest&);
  ApiResponse cancelJob(const std::string& id);

  nlohmann::json modelJson() const;
  void install(std::unique_ptr<VtcSession> session, std::string name, std::string file);
  bool optimizedPlan(const ApiRequest& request) const;
  void strategyChanged();

  RootDirectory root_;
  ApiOptions options_;
  std::unique_ptr<VtcSession> session_;
  unsigned generation_ = 0; // counts opened models: a measurement of a replaced one is dropped
  unsigned revision_ = 0;
  std::string name_, file_;
  std::string checkVerdict_; // of the measurement the latencies come from
  struct Measurement;
  std::mutex measurementMutex_;
  std::shared_ptr<Measurement> pendingMeasurement_; // written by a profile job, applied by jobEvent
  JobRunner jobs_;
};

} // namespace tcx::web
