#include "ProgressBar.h"

#include <cstdio>
#include <unistd.h>

namespace tcx::cli {

ProgressBar::ProgressBar(std::string label)
    : label_(std::move(label)), start_(std::chrono::steady_clock::now()), lastDraw_(start_),
      enabled_(isatty(STDERR_FILENO) != 0) {}

ProgressBar::~ProgressBar() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

void ProgressBar::update(size_t done, size_t total, std::string_view what) {
  using namespace std::chrono;
  auto now = steady_clock::now();
  if (!enabled_ || now - start_ < seconds(1) || (drawn_ && now - lastDraw_ < milliseconds(100))) return;
  lastDraw_ = now;
  drawn_ = true;
  constexpr int kWidth = 30;
  int filled = total ? static_cast<int>(kWidth * done / total) : 0;
  std::string bar(filled, '#');
  bar.resize(kWidth, '.');
  std::string item(what.substr(0, 40));
  std::fprintf(stderr, "\r\033[K%s [%s] %zu/%zu %s", label_.c_str(), bar.c_str(), done, total, item.c_str());
  std::fflush(stderr);
}

} // namespace tcx::cli
