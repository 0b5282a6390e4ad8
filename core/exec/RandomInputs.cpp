#include "exec/RandomInputs.h"

#include "ir/Dispatch.h"
#include "support/Hash.h"

namespace tcx {

namespace {

// SplitMix64: small, fast and good enough for test data.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [-1, 1) with 24 random bits.
  float nextSigned() { return static_cast<float>(next() >> 40) * 0x1.0p-23f - 1.0f; }
};

} // namespace

Tensor randomTensor(const TensorType& type, uint64_t seed) {
  Tensor t(type);
  SplitMix64 rng{seed};
  dispatchDType(type.dtype, [&]<typename T>() {
    for (T& x : t.data<T>()) {
      if constexpr (std::is_same_v<T, bool>)
        x = (rng.next() & 1) != 0;
      else if constexpr (kIsFloatStorage<T>)
        x = T(rng.nextSigned());
      else
        x = static_cast<T>(rng.next() % 4);
    }
  });
  return t;
}

std::map<std::string, Tensor> randomInputs(const Graph& graph, uint64_t seed) {
  std::map<std::string, Tensor> inputs;
  for (const Value* in : graph.inputs()) inputs.emplace(in->name(), randomTensor(in->type(), seed ^ fnv1a(in->name())));
  return inputs;
}

} // namespace tcx
