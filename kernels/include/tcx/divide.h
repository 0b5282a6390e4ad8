#ifndef TCX_DIVIDE_H
#define TCX_DIVIDE_H
// Division by a constant, rounded as IEEE float division rounds it, as one double multiply.
//
// CUDA's float a / b is a subroutine (a reciprocal estimate, its refinement, a range check and a
// slow path called out of line). In the Llama-3 decode attention the score's q.k / sqrt(d) made
// every block take 72.9 us where a multiply took 61.3 on average and 64.4 at most (H200,
// docs/benchmarks.md); Markstein's float correction (a multiply and two FMAs, exact only where
// every intermediate is normal, so still with the division as its fallback) was slower still, 76.4.
// In double, a * (1 / c) is within 2^-52 (relative) of a / c. A quotient of two floats is never
// within 2^-49 of a midpoint between floats: a - m c, for a midpoint m (25 significant bits, the
// last odd), is a nonzero multiple of the smaller of a's and m c's last bits (an odd 25-bit m times
// c has too many bits to be a float). The subnormal grid, with its midpoints at odd multiples of
// 2^-150, is farther still. So rounding the double product to float gives exactly a / c; zeros,
// infinities and NaNs come out as the division's. (On the GPUs tcx plans for, H100,
// H200 and A100, a double multiply issues at half the float rate.) tests/kernels/DivideTest.cpp
// checks it bit for bit against a / c for every significand of a at normal and subnormal
// quotients, over a spread of divisors.
// Plain C++ like abi.h: the CPU test runs the same function.

#include "tcx/abi.h"

namespace tcx {

// a / c for a normal float c, given rd = 1.0 / c in double.
TCX_HOST_DEVICE inline float divideByConstant(float a, double rd) {
  return static_cast<float>(static_cast<double>(a) * rd);
}

} // namespace tcx

#endif // TCX_DIVIDE_H
