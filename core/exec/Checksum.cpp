#include "exec/Checksum.h"

#include "ir/Dispatch.h"
#include "support/Hash.h"

#include <cmath>

namespace tcx {

TensorChecksum checksum(const Tensor& tensor) {
  TensorChecksum c;
  dispatchDType(tensor.dtype(), [&]<typename T>() {
    double absSum = 0;
    for (T x : tensor.data<T>()) {
      double v = static_cast<double>(static_cast<ComputeType<T>>(x));
      if (std::isnan(v)) {
        ++c.nanCount;
        continue;
      }
      c.sum += v;
      absSum += std::fabs(v);
    }
    c.meanAbs = tensor.numElements() ? absSum / static_cast<double>(tensor.numElements()) : 0;
  });
  c.fnv1a = fnv1a(tensor.raw(), tensor.byteSize());
  return c;
}

} // namespace tcx
