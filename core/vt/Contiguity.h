#pragma once
// Contiguity of a virtual tensor's accesses (VTC Definitions 4 and 5,
// Theorem 1): how long the runs of consecutive virtual elements are that
// sit at consecutive physical addresses. Long runs keep global-memory
// accesses coalesced; a fully contiguous mapping is always profitable
// (Type I), anything else is Type II and needs measuring (or estimating).

#include "index/MappingFunction.h"

#include <cstdint>

namespace tcx {

struct Contiguity {
  // The minimal contiguous dimension d (0-based): strides from d on are the
  // suffix products of the shape and the bias does not depend on them.
  // rank() when even the last dimension is not contiguous.
  int minContiguousDim = 0;
  int64_t runElements = 1; // product of the shape from d on: one contiguous run
  bool full = false;       // d == 0: one run, the whole tensor (Type I)
  bool partial = false;    // runs reach the coalescing width
};

// The worst piece decides. A fill piece (Pad's border) reads no memory and
// does not count.
Contiguity analyzeContiguity(const MappingFunction& mapping, size_t elementBytes, int64_t coalescingBytes = 128);

enum class OpportunityType { TypeI, TypeII };
inline OpportunityType opportunityType(const Contiguity& c) { return c.full ? OpportunityType::TypeI : OpportunityType::TypeII; }
const char* opportunityTypeName(OpportunityType t);

} // namespace tcx
