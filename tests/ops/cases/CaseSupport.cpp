#include "CaseSupport.h"

#include "ir/Dispatch.h"

#include <utility>

namespace tcx::test {

Value* feed(GraphBuilder& b, const std::string& name, DType dtype, const Shape& shape, Feed how) {
  const size_t rank = shape.size();
  const int64_t last = shape.back();
  auto resized = [&](int64_t size) {
    Shape s = shape;
    s.back() = size;
    return s;
  };
  switch (how) {
  case Feed::Direct: return b.input(name, dtype, shape);
  case Feed::Transposed: {
    Ints perm(rank);
    for (size_t d = 0; d < rank; ++d) perm[d] = static_cast<int64_t>(d);
    std::swap(perm[rank - 1], perm[rank - 2]);
    Shape swapped = shape;
    std::swap(swapped[rank - 1], swapped[rank - 2]);
    return b.op("Transpose", {b.input(name, dtype, swapped)}, attrs({{"perm", perm}}));
  }
  case Feed::Sliced:
    return b.op("Slice", {b.input(name, dtype, resized(last + 3)), b.ints(name + "_starts", {2}),
                          b.ints(name + "_ends", {2 + last}), b.ints(name + "_axes", {-1})});
  case Feed::Concatenated:
    return b.op("Concat",
                {b.input(name + "_a", dtype, resized(last / 2)), b.input(name + "_b", dtype, resized(last - last / 2))},
                attrs({{"axis", -1}}));
  case Feed::Padded: {
    Ints pads(2 * rank, 0);
    pads[rank - 1] = 1;
    pads[2 * rank - 1] = 1;
    return b.op("Pad", {b.input(name, dtype, resized(last - 2)), b.ints(name + "_pads", pads)});
  }
  }
  return nullptr;
}

Value* typedConstant(GraphBuilder& b, const std::string& name, DType dtype, const Shape& shape,
                     const std::vector<double>& values) {
  Tensor t(dtype, shape);
  TCX_CHECK(static_cast<int64_t>(values.size()) == t.numElements(), ErrorKind::Internal,
            "constant '{}' of shape {} given {} values", name, shapeToString(shape), values.size());
  dispatchDType(dtype, [&]<typename T>() {
    std::span<T> data = t.data<T>();
    for (size_t i = 0; i < data.size(); ++i) {
      if constexpr (kIsFloatStorage<T>)
        data[i] = static_cast<T>(static_cast<ComputeType<T>>(values[i]));
      else if constexpr (std::is_same_v<T, bool>)
        data[i] = values[i] != 0;
      else
        data[i] = static_cast<T>(static_cast<int64_t>(values[i]));
    }
  });
  return b.constant(name, std::move(t));
}

Value* withNegatives(GraphBuilder& b, Value* x) {
  const DType dtype = x->type().dtype;
  if (isFloatingPoint(dtype) || dtype == DType::U8 || dtype == DType::Bool) return x;
  return b.op("Sub", {x, typedConstant(b, x->name() + "_shift", dtype, {}, {2})});
}

std::string caseName(const std::string& what, DType dtype) { return what + " " + std::string(dtypeName(dtype)); }

} // namespace tcx::test
