#pragma once
// How a kernel hands the results it holds to its epilogue functor. A kernel
// that holds many results a thread (a GEMM tile's accumulators, a vendor
// call's staged result) calls the functor once per element; each call loads
// what the element needs (a residual, a bias), computes and stores. Called
// one after another, each call's loads wait for the previous call's store
// to be issued, since the compiler cannot tell the buffers apart: one
// memory latency per element, a thread's loads never in flight together
// (the vendor epilogues of ResNeXt-50 ran at 1.7-2.4 TB/s on an H200 so).
//
// A functor that splits its work (codegen/EpilogueCode.h) has
//   Out compute(batch, m, n, acc)   the loads and arithmetic; returns the values to store
//   void store(batch, m, n, Out)    the stores
// and runEpilogue calls compute for a group of elements before it stores
// any, so the group's loads are in flight together. Any other functor (a
// lambda, a benchmark's) is called element by element.
//
// Compiled by NVRTC and nvcc (C++17): no host standard headers.

namespace tcx {

template <class...> using VoidT = void;

template <class E, class = void> struct SplitEpilogue {
  static constexpr bool value = false;
};
template <class E>
struct SplitEpilogue<E, VoidT<decltype(static_cast<const E*>(nullptr)->compute(0, 0, 0, 0.0f))>> {
  static constexpr bool value = true;
};

// One result a kernel holds: its coordinates and value, and whether it lies
// inside the output (tiles overhang the edges).
struct EpilogueAt {
  int batch, m, n;
  float acc;
  bool inside;
};

// `epilogue` with every channel (its second coordinate) offset by `first`: a
// grouped convolution's group writes channels first.. of the output. It has
// compute and store exactly where the functor it wraps has them (compute's
// return type fails to substitute otherwise), so that runEpilogue still
// groups a split functor's loads; a lambda in its place would run every
// grouped convolution's epilogue element by element.
template <class E> struct ChannelOffset {
  const E& epilogue;
  int first;
  __device__ __forceinline__ void operator()(int batch, int m, int n, float acc) const {
    epilogue(batch, first + m, n, acc);
  }
  template <class F = E>
  __device__ __forceinline__ auto compute(int batch, int m, int n, float acc) const
      -> decltype(static_cast<const F&>(epilogue).compute(batch, m, n, acc)) {
    return epilogue.compute(batch, first + m, n, acc);
  }
  template <class Out> __device__ __forceinline__ void store(int batch, int m, int n, const Out& out) const {
    epilogue.store(batch, first + m, n, out);
  }
};

// Runs `epilogue` over the `Count` results `at(i)` names (i < Count, a
// compile-time loop: `at` folds to registers), `Group` at a time for a
// split functor. Group divides Count.
template <int Group, int Count, typename Epilogue, typename At>
__device__ __forceinline__ void runEpilogue(const Epilogue& epilogue, const At& at) {
  static_assert(Count % Group == 0, "the groups cover the results");
  if constexpr (SplitEpilogue<Epilogue>::value) {
#pragma unroll
    for (int g = 0; g < Count; g += Group) {
      decltype(epilogue.compute(0, 0, 0, 0.0f)) out[Group];
#pragma unroll
      for (int i = 0; i < Group; ++i) {
        const EpilogueAt x = at(g + i);
        if (x.inside)
          out[i] = epilogue.compute(x.batch, x.m, x.n, x.acc);
      }
#pragma unroll
      for (int i = 0; i < Group; ++i) {
        const EpilogueAt x = at(g + i);
        if (x.inside)
          epilogue.store(x.batch, x.m, x.n, out[i]);
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < Count; ++i) {
      const EpilogueAt x = at(i);
      if (x.inside)
        epilogue(x.batch, x.m, x.n, x.acc);
    }
  }
}

} // namespace tcx
