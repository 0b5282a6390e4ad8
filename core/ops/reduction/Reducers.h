#pragma once
// The per-op halves of the Reduce* ops: how one element enters an
// accumulator and how an accumulator becomes the result. A reducer R for
// storage type T provides
//   R::Acc                        the accumulator, kept in registers;
//   R::init()                     the accumulator of the empty set;
//   R::step(Acc, T) -> Acc        folds in one element;
//   R::merge(Acc, Acc) -> Acc     joins two partial accumulators;
//   R::finish(Acc, count) -> T    the result for `count` folded elements.
// Most are a Reduction of three small policies (map each element, combine,
// finish); ReduceLogSumExp needs a running maximum and has its own.

#include "ops/reduction/Common.h"

#include <cmath>
#include <limits>
#include <utility>

namespace tcx::reduction {

template <typename A> bool isNaN(A a) {
  if constexpr (std::is_floating_point_v<A>)
    return std::isnan(a);
  else
    return false;
}

// Element maps, applied before combining.
struct Identity {
  template <typename A, typename T> static A apply(T x) { return static_cast<A>(x); }
};

struct Absolute {
  template <typename A, typename T> static A apply(T x) {
    if constexpr (std::is_integral_v<T>)
      return x < 0 ? A(0) - static_cast<A>(x) : static_cast<A>(x);
    else
      return std::abs(static_cast<A>(x));
  }
};

struct Square {
  template <typename A, typename T> static A apply(T x) {
    A v = static_cast<A>(x);
    return v * v;
  }
};

// Combiners: an associative operation with its identity.
struct Add {
  template <typename T> using Acc = SumType<T>;
  template <typename A> static A identity() { return A(0); }
  template <typename A> static A apply(A a, A b) { return a + b; }
};

struct Multiply {
  template <typename T> using Acc = SumType<T>;
  template <typename A> static A identity() { return A(1); }
  template <typename A> static A apply(A a, A b) { return a * b; }
};

// Max and Min compare in the element's own type (integers must keep their
// sign) and let a NaN win, as numpy's reductions do.
struct Max {
  template <typename T> using Acc = ComputeType<T>;
  template <typename A> static A identity() {
    if constexpr (std::numeric_limits<A>::has_infinity)
      return -std::numeric_limits<A>::infinity();
    else
      return std::numeric_limits<A>::lowest();
  }
  template <typename A> static A apply(A a, A b) { return b > a || isNaN(b) ? b : a; }
};

struct Min {
  template <typename T> using Acc = ComputeType<T>;
  template <typename A> static A identity() {
    if constexpr (std::numeric_limits<A>::has_infinity)
      return std::numeric_limits<A>::infinity();
    else
      return std::numeric_limits<A>::max();
  }
  template <typename A> static A apply(A a, A b) { return b < a || isNaN(b) ? b : a; }
};

// Finishers: the accumulator of `count` elements to the result.
struct Keep {
  template <typename T, typename A> static T apply(A a, int64_t) { return static_cast<T>(a); }
};

// An integer mean truncates toward zero, like numpy's mean cast back to the
// integer type; the mean of no integers is 0 rather than a division by zero.
struct DivideByCount {
  template <typename T, typename A> static T apply(A a, int64_t count) {
    if constexpr (std::is_integral_v<T>)
      return count == 0 ? T(0) : static_cast<T>(static_cast<int64_t>(a) / count);
    else
      return static_cast<T>(a / static_cast<A>(count));
  }
};

struct SquareRoot {
  template <typename T, typename A> static T apply(A a, int64_t) { return static_cast<T>(std::sqrt(a)); }
};

struct Logarithm {
  template <typename T, typename A> static T apply(A a, int64_t) { return static_cast<T>(std::log(a)); }
};

template <typename T, typename Map, typename Combine, typename Finish> struct Reduction {
  using Acc = typename Combine::template Acc<T>;
  static Acc init() { return Combine::template identity<Acc>(); }
  static Acc step(Acc a, T x) { return Combine::apply(a, Map::template apply<Acc>(x)); }
  static Acc merge(Acc a, Acc b) { return Combine::apply(a, b); }
  static T finish(Acc a, int64_t count) { return Finish::template apply<T>(a, count); }
};

// log(sum(exp(x))) kept as a running (max, sum of exp(x - max)) pair, so that
// large inputs do not overflow exp.
template <typename T> struct LogSumExp {
  using C = ComputeType<T>;
  struct Acc {
    C max;
    C sum;
  };
  static Acc init() { return {-std::numeric_limits<C>::infinity(), C(0)}; }
  static Acc step(Acc a, T x) { return merge(a, {static_cast<C>(x), C(1)}); }
  static Acc merge(Acc a, Acc b) {
    if (b.max > a.max) std::swap(a, b);
    // Equal maxima scale by 1 rather than exp(inf - inf), which is NaN.
    C scale = b.max == a.max ? C(1) : std::exp(b.max - a.max);
    return {a.max, a.sum + b.sum * scale};
  }
  static T finish(Acc a, int64_t) { return static_cast<T>(a.max + std::log(a.sum)); }
};

} // namespace tcx::reduction
