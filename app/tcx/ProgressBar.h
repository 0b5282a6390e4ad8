#pragma once
// A terminal progress bar on stderr. It stays silent for work that ends
// within a second and when stderr is not a terminal (CI logs, pipes).

#include "support/Progress.h"

#include <chrono>
#include <string>

namespace tcx::cli {

class ProgressBar {
public:
  explicit ProgressBar(std::string label);
  ~ProgressBar(); // clears the bar's line if one was drawn

  void update(size_t done, size_t total, std::string_view what);
  ProgressFn callback() {
    return [this](size_t done, size_t total, std::string_view what) { update(done, total, what); };
  }

private:
  std::string label_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point lastDraw_;
  bool enabled_;
  bool drawn_ = false;
};

} // namespace tcx::cli
