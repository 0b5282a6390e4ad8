#pragma once
// The point in time by which a superoptimization must end: what a time
// limit becomes once, at the start, and what every phase after it reads
// (the search, size tuning, the verifier's trials, GPU timing, and the
// front end writing results). A phase does not get a number of seconds of
// its own; it gets a share of what is left, so what one phase leaves unused
// goes to the next, and the last one ends by the same point whatever the
// phases before it took. Without a limit the deadline never passes.

#include <algorithm>
#include <chrono>
#include <limits>

namespace tcx::superopt {

class Deadline {
public:
  using Clock = std::chrono::steady_clock;

  Deadline() = default; // none
  explicit Deadline(Clock::time_point at) : at_(at) {}
  // `seconds` from now; none for 0 or less (a limit of 0 means none).
  static Deadline after(double seconds) {
    return seconds > 0 ? Deadline(Clock::now() + duration(seconds)) : Deadline();
  }

  Clock::time_point at() const { return at_; } // time_point::max() without a bound
  bool bounded() const { return at_ != Clock::time_point::max(); }
  bool passed() const { return bounded() && Clock::now() >= at_; }
  // 0 once passed; infinity without a bound.
  double secondsLeft() const {
    if (!bounded()) return std::numeric_limits<double>::infinity();
    return std::max(0.0, std::chrono::duration<double>(at_ - Clock::now()).count());
  }
  // Whether work expected to take `seconds` can start now and end before it.
  bool fits(double seconds) const { return !bounded() || Clock::now() + duration(seconds) < at_; }

  // The part of what is left that a phase may use, `fraction` of it from
  // now: the rest is kept back for the phases after it.
  Deadline share(double fraction) const {
    return bounded() ? Deadline(Clock::now() + duration(fraction * secondsLeft())) : Deadline();
  }
  // `seconds` sooner: what the work after it keeps back.
  Deadline sooner(double seconds) const { return bounded() ? Deadline(at_ - duration(seconds)) : Deadline(); }
  Deadline earliest(Deadline other) const { return at_ <= other.at_ ? *this : other; }
  bool operator==(const Deadline&) const = default;

private:
  static Clock::duration duration(double seconds) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }

  Clock::time_point at_ = Clock::time_point::max();
};

} // namespace tcx::superopt
