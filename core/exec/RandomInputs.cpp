#include "exec/RandomInputs.h"

#include "ir/Dispatch.h"
#include "ops/OpDef.h"
#include "support/Hash.h"

#include <optional>

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

// How far uses are followed through data-movement ops (a weight transposed
// or reshaped before its matrix product) to the op that says how to draw it.
constexpr int kMaxMovementDepth = 8;

// The range the first op that computes with `v` asks for (OpDef::randomRange).
std::optional<RandomRange> rangeFor(const Value* v, int depth = 0) {
  for (const Use& use : v->uses()) {
    const OpDef& op = use.user->op();
    if (op.isDataMovement()) {
      if (depth < kMaxMovementDepth && use.user->numOutputs() > 0 && use.user->output(0))
        if (std::optional<RandomRange> r = rangeFor(use.user->output(0), depth + 1)) return r;
      continue;
    }
    if (op.randomRange)
      if (std::optional<RandomRange> r = op.randomRange(*use.user, use.operand)) return r;
  }
  return std::nullopt;
}

} // namespace

Tensor randomTensor(const TensorType& type, uint64_t seed, RandomRange range) {
  Tensor t(type);
  SplitMix64 rng{seed};
  const float mid = static_cast<float>((range.lo + range.hi) / 2), half = static_cast<float>((range.hi - range.lo) / 2);
  dispatchDType(type.dtype, [&]<typename T>() {
    for (T& x : t.data<T>()) {
      if constexpr (std::is_same_v<T, bool>)
        x = (rng.next() & 1) != 0;
      else if constexpr (kIsFloatStorage<T>)
        x = T(mid + half * rng.nextSigned());
      else
        x = static_cast<T>(rng.next() % 4);
    }
  });
  return t;
}

std::map<std::string, Tensor> randomInputs(const Graph& graph, uint64_t seed) {
  std::map<std::string, Tensor> inputs;
  for (const Value* in : graph.inputs())
    inputs.emplace(in->name(), randomTensor(in->type(), seed ^ fnv1a(in->name()), rangeFor(in).value_or(RandomRange{})));
  return inputs;
}

} // namespace tcx
