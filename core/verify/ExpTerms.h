#pragma once
// Counting the k of Mirage Theorems 3 and 4: the number of exponential terms
// f_i/g_i * e^(h_i/u_i) in Equation (2) for one output element.
//
// The count runs the interpreter over ExpTermDomain, whose value for a
// scalar is (has a term with exponent 0, number of terms with an
// exponential): an input or constant is one plain term; exp() of anything is
// one exponential term; a sum has the terms of both sides; a product, and a
// quotient once cross-multiplied (a/b = a * b^-1 over a common denominator),
// has the product of the term counts. This bounds the distinct exponents from
// above: terms that share an exponent merge, which only lowers the true k,
// and Theorem 3's bound weakens as k grows, so a larger k is safe.
//
// For attention over n keys, the output is sum_j e^(s_j) v_j / sum_j e^(s_j):
// n * n terms after cross-multiplying.

#include "mugraph/MuGraph.h"

#include <cstdint>

namespace tcx::verify {

// The largest term count over all elements of all outputs of `graph`;
// saturates at 2^62.
uint64_t countExpTerms(const mugraph::KernelGraph& graph);

} // namespace tcx::verify
