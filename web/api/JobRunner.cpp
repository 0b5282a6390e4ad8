#include "web/api/JobRunner.h"

#include "web/api/ApiTypes.h"

#include <algorithm>

namespace tcx::web {

namespace {

// The job `id` in `jobs` (const or not); ApiError 404 when there is none.
template <class Jobs>
auto& findJob(Jobs& jobs, int id) {
  auto it = std::find_if(jobs.begin(), jobs.end(), [&](const JobSnapshot& j) { return j.id == id; });
  if (it == jobs.end()) throw ApiError(404, "no job " + std::to_string(id));
  return *it;
}

} // namespace

const char* jobStateName(JobState state) {
  switch (state) {
  case JobState::Running: return "running";
  case JobState::Done: return "done";
  case JobState::Failed: return "failed";
  case JobState::Cancelled: return "cancelled";
  }
  return "?";
}

nlohmann::json JobSnapshot::toJson() const {
  return {{"id", id}, {"kind", kind}, {"state", jobStateName(state)}, {"percent", percent}, {"what", what},
          {"result", result}};
}

void JobContext::progress(int percent, std::string what) {
  runner_.update(id_, [&](JobSnapshot& job) {
    job.percent = percent;
    job.what = std::move(what);
  });
}

JobRunner::JobRunner(Listener listener) : listener_(std::move(listener)) {}

JobRunner::~JobRunner() { cancelAndWait(); }

int JobRunner::start(std::string kind, Work work) {
  std::unique_lock lock(mutex_);
  if (!jobs_.empty() && jobs_.back().state == JobState::Running)
    throw ApiError(409, "job " + std::to_string(jobs_.back().id) + " (" + jobs_.back().kind +
                            ") is running: wait for it or cancel it first");
  lock.unlock();
  join(); // the last job's thread has finished its work; reap it
  lock.lock();
  const int id = nextId_++;
  jobs_.push_back({id, std::move(kind), JobState::Running, 0, "starting", nullptr});
  context_.reset(new JobContext(*this, id));
  JobContext* context = context_.get();
  lock.unlock();
  worker_ = std::thread([this, id, context, work = std::move(work)] {
    JobState state = JobState::Done;
    nlohmann::json result;
    std::string what = "done";
    try {
      result = work(*context);
      if (context->cancelled()) {
        state = JobState::Cancelled;
        what = "cancelled";
      }
    } catch (const std::exception& e) { // tcx::Error and what Z3 or the allocator throw
      state = JobState::Failed;
      what = e.what();
    }
    update(id, [&](JobSnapshot& job) {
      job.state = state;
      job.what = what;
      job.percent = 100;
      job.result = std::move(result);
    });
  });
  if (listener_) listener_(id);
  return id;
}

std::optional<std::string> JobRunner::runningKind() const {
  std::lock_guard lock(mutex_);
  if (jobs_.empty() || jobs_.back().state != JobState::Running) return std::nullopt;
  return jobs_.back().kind;
}

JobSnapshot JobRunner::snapshot(int id) const {
  std::lock_guard lock(mutex_);
  return findJob(jobs_, id);
}

std::vector<JobSnapshot> JobRunner::all() const {
  std::lock_guard lock(mutex_);
  return jobs_;
}

void JobRunner::cancel(int id) {
  std::lock_guard lock(mutex_);
  const JobSnapshot& job = findJob(jobs_, id);
  if (job.state == JobState::Running && context_) context_->cancel_ = true;
}

void JobRunner::cancelAndWait() {
  {
    std::lock_guard lock(mutex_);
    if (context_) context_->cancel_ = true;
  }
  join();
}

void JobRunner::join() {
  if (worker_.joinable()) worker_.join();
}

void JobRunner::update(int id, const std::function<void(JobSnapshot&)>& change) {
  {
    std::lock_guard lock(mutex_);
    change(findJob(jobs_, id));
  }
  if (listener_) listener_(id);
}

} // namespace tcx::web
