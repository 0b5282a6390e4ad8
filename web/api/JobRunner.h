#pragma once
// Long work the web explorer starts and watches: a superoptimizer search or
// a GPU measurement, one at a time, on a worker thread. The work reports
// progress and checks for cancellation through its JobContext; every change
// of a job's state is announced to the listener (on the worker thread), which
// the server turns into a WebSocket message on its own thread.
//
// One job at a time: a measurement reads the session, which must not change
// under it, and two searches would halve each other's cores anyway.

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tcx::web {

enum class JobState { Running, Done, Failed, Cancelled };
const char* jobStateName(JobState state); // "running", "done", "failed", "cancelled"

struct JobSnapshot {
  int id = 0;
  std::string kind; // "superopt", "profile"
  JobState state = JobState::Running;
  int percent = 0;  // -1: unknown
  std::string what; // the step running, or the error
  nlohmann::json result; // when done

  nlohmann::json toJson() const;
};

class JobContext {
public:
  bool cancelled() const { return cancel_.load(); }
  const std::atomic<bool>& cancelFlag() const { return cancel_; }
  void progress(int percent, std::string what);

private:
  friend class JobRunner;
  JobContext(class JobRunner& runner, int id) : runner_(runner), id_(id) {}
  JobRunner& runner_;
  int id_;
  std::atomic<bool> cancel_{false};
};

class JobRunner {
public:
  using Listener = std::function<void(int id)>;
  // What a job does; its return value is the job's result. A tcx::Error or
  // other exception fails the job with its message.
  using Work = std::function<nlohmann::json(JobContext&)>;

  explicit JobRunner(Listener listener);
  ~JobRunner(); // cancels the running job and waits for it

  // ApiError 409 while a job runs.
  int start(std::string kind, Work work);
  // The kind of the running job, or nullopt.
  std::optional<std::string> runningKind() const;
  // ApiError 404 for an unknown id.
  JobSnapshot snapshot(int id) const;
  std::vector<JobSnapshot> all() const;
  void cancel(int id);
  // Cancels the running job, if any, and waits until it has ended.
  void cancelAndWait();

private:
  friend class JobContext;
  void update(int id, const std::function<void(JobSnapshot&)>& change);
  void join();

  Listener listener_;
  mutable std::mutex mutex_;
  std::vector<JobSnapshot> jobs_;
  std::unique_ptr<JobContext> context_; // of the running (or last) job
  std::thread worker_;
  int nextId_ = 1;
};

} // namespace tcx::web
