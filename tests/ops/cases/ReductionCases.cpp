// The reductions: every Reduce* op over axes given in each way the operand
// allows (some, negative, none, empty with and without noop_with_empty_axes)
// with keepdims 0 and 1, ArgMax and ArgMin, Hardmax and CumSum.

#include "CaseSupport.h"

namespace tcx::test {

namespace {

const Shape kRagged{3, 7, 13};

// What a Reduce* op's input must be for its result to be well conditioned
// (the GPU sums in another order than the CPU): ReduceLogSum's positive,
// ReduceProd's near 1, ReduceLogSumExp's large enough to overflow exp
// without the maximum subtracted first.
enum class Prepare { None, Positive, NearOne, Large };

Value* prepare(GraphBuilder& b, Value* x, Prepare how) {
  const DType dtype = x->type().dtype;
  auto constant = [&](const char* what, double value) {
    return typedConstant(b, x->name() + "_" + what, dtype, {}, {value});
  };
  switch (how) {
  case Prepare::None: return withNegatives(b, x);
  case Prepare::Positive: return b.op("Abs", {x});
  case Prepare::NearOne:
    return isFloatingPoint(dtype) ? b.op("Add", {b.op("Mul", {x, constant("eighth", 0.125)}), constant("one", 1)})
                                  : withNegatives(b, x);
  case Prepare::Large: return b.op("Mul", {x, constant("hundred", 100)});
  }
  return x;
}

OpCase reduceCase(const std::string& op, DType dtype, Prepare how, Feed virtualFeed) {
  return {caseName(op, dtype), [=] {
            GraphBuilder b(op);
            Value* x = prepare(b, b.input("x", dtype, kRagged), how);
            b.output(b.op(op, {x, b.ints("axes_1", {1})}));
            b.output(b.op(op, {x, b.ints("axes_last_first", {-1, 0})}, attrs({{"keepdims", 0}})));
            b.output(b.op(op, {x}, attrs({{"keepdims", 0}})));
            b.output(b.op(op, {x, b.ints("no_axes", {})}, attrs({{"noop_with_empty_axes", 1}})));
            b.output(b.op(op, {x, b.ints("all_axes", {})}));
            Value* v = prepare(b, feed(b, "v", dtype, kRagged, virtualFeed), how);
            b.output(b.op(op, {v, b.ints("axes_2", {2})}, attrs({{"keepdims", 0}})));
            return b.finish();
          }};
}

// Reductions big enough for the GPU's fold forms: a mean over H×W as
// squeeze-excitation takes it (more elements than a block has threads: a
// block per output element), over the outer axes of a tensor with few
// outputs (74 elements each: a warp per output element), and over
// everything; through a virtual (transposed) input too.
OpCase blockReduceCase(const std::string& op, DType dtype) {
  return {caseName(op + "_block", dtype), [=] {
            GraphBuilder b(op + "_block");
            const Shape nchw{2, 5, 37, 29};
            Value* x = withNegatives(b, b.input("x", dtype, nchw));
            b.output(b.op(op, {x, b.ints("axes_hw", {2, 3})}));
            b.output(b.op(op, {x, b.ints("axes_outer", {0, 2})}, attrs({{"keepdims", 0}})));
            b.output(b.op(op, {x}, attrs({{"keepdims", 0}})));
            Value* v = withNegatives(b, feed(b, "v", dtype, nchw, Feed::Transposed));
            b.output(b.op(op, {v, b.ints("axes_last", {-1})}));
            return b.finish();
          }};
}

// ArgMax and ArgMin along each kind of axis, both tie rules (integers tie
// often), the axis kept or dropped.
OpCase argCase(const std::string& op, DType dtype) {
  return {caseName(op, dtype), [=] {
            GraphBuilder b(op);
            Value* x = withNegatives(b, b.input("x", dtype, kRagged));
            b.output(b.op(op, {x}));
            b.output(b.op(op, {x}, attrs({{"axis", 1}, {"keepdims", 0}})));
            b.output(b.op(op, {x}, attrs({{"axis", -1}, {"select_last_index", 1}})));
            b.output(b.op(op, {x}, attrs({{"axis", 0}, {"keepdims", 0}, {"select_last_index", 1}})));
            b.output(b.op(op, {feed(b, "v", dtype, kRagged, Feed::Transposed)},
                          attrs({{"axis", -1}, {"keepdims", 0}, {"select_last_index", 1}})));
            return b.finish();
          }};
}

// Hardmax along each axis; over integers cast to the dtype, so that ties
// (first index wins) are common.
OpCase hardmaxCase(DType dtype) {
  return {caseName("Hardmax", dtype), [=] {
            GraphBuilder b("hardmax");
            Value* x = b.input("x", dtype, kRagged);
            b.output(b.op("Hardmax", {x}));
            b.output(b.op("Hardmax", {x}, attrs({{"axis", 0}})));
            b.output(b.op("Hardmax", {x}, attrs({{"axis", 1}})));
            Value* ties =
                b.op("Cast", {b.input("ints", DType::I32, kRagged)}, attrs({{"to", int64_t{dtypeToOnnx(dtype)}}}));
            b.output(b.op("Hardmax", {ties}, attrs({{"axis", -2}})));
            b.output(b.op("Hardmax", {feed(b, "v", dtype, kRagged, Feed::Padded)}));
            return b.finish();
          }};
}

// CumSum along each kind of axis (an i64 scalar, an i32 list), inclusive and
// exclusive, forward and reversed.
OpCase cumSumCase(DType dtype) {
  return {caseName("CumSum", dtype), [=] {
            GraphBuilder b("cumsum");
            Value* x = withNegatives(b, b.input("x", dtype, kRagged));
            Value* axis1 = b.constant("axis_1", Tensor::scalar<int64_t>(1));
            Value* last = b.constant("axis_last", Tensor::fromVector<int32_t>({1}, {-1}));
            b.output(b.op("CumSum", {x, axis1}));
            b.output(b.op("CumSum", {x, last}, attrs({{"exclusive", 1}})));
            b.output(b.op("CumSum", {x, b.constant("axis_0", Tensor::scalar<int64_t>(0))}, attrs({{"reverse", 1}})));
            b.output(b.op("CumSum", {x, last}, attrs({{"exclusive", 1}, {"reverse", 1}})));
            b.output(b.op("CumSum", {withNegatives(b, feed(b, "v", dtype, kRagged, Feed::Sliced)), axis1},
                          attrs({{"reverse", 1}})));
            return b.finish();
          }};
}

// Softmax and LogSoftmax along each kind of axis: rows for the GPU's warp
// per row (a row of 300 as attention scores have, the outer axis), rows
// long enough for its block per row, and short rows, which keep a thread per
// element.
OpCase softmaxCase(const std::string& op, DType dtype) {
  return {caseName(op, dtype), [=] {
            GraphBuilder b(op);
            const Shape scores{2, 3, 300};
            Value* x = b.op("Mul", {withNegatives(b, b.input("x", dtype, scores)),
                                    b.constant("eight", Tensor::filled(dtype, {}, 8.0))});
            b.output(b.op(op, {x}));
            b.output(b.op(op, {x}, attrs({{"axis", 1}})));
            b.output(b.op(op, {b.input("outer", dtype, {40, 3, 7})}, attrs({{"axis", 0}})));
            b.output(b.op(op, {feed(b, "v", dtype, scores, Feed::Transposed)}));
            b.output(b.op(op, {withNegatives(b, b.input("long", dtype, {2, 1500}))}));
            return b.finish();
          }};
}

} // namespace

std::vector<OpCase> reductionCases() {
  struct Reduce {
    const char* op;
    Prepare how;
    std::vector<DType> dtypes;
    Feed virtualFeed;
  };
  const std::vector<DType> floats{DType::F32, DType::F16};
  const std::vector<DType> numeric{DType::F32, DType::F16, DType::I32, DType::I8};
  const std::vector<DType> withBool{DType::F32, DType::F16, DType::I32, DType::I8, DType::U8, DType::Bool};
  const std::vector<Reduce> reduces = {
      {"ReduceSum", Prepare::None, {DType::F32, DType::F16, DType::I32, DType::I8, DType::U8}, Feed::Transposed},
      {"ReduceMean", Prepare::None, {DType::F32, DType::F16, DType::I32, DType::I8, DType::I64}, Feed::Sliced},
      {"ReduceMax", Prepare::None, withBool, Feed::Concatenated},
      {"ReduceMin", Prepare::None, withBool, Feed::Padded},
      {"ReduceProd", Prepare::NearOne, numeric, Feed::Transposed},
      {"ReduceL1", Prepare::None, numeric, Feed::Sliced},
      {"ReduceL2", Prepare::None, floats, Feed::Concatenated},
      {"ReduceSumSquare", Prepare::None, numeric, Feed::Padded},
      {"ReduceLogSum", Prepare::Positive, floats, Feed::Transposed},
      {"ReduceLogSumExp", Prepare::Large, floats, Feed::Sliced},
  };
  std::vector<OpCase> cases;
  for (const Reduce& r : reduces)
    for (DType dtype : r.dtypes) cases.push_back(reduceCase(r.op, dtype, r.how, r.virtualFeed));
  for (DType dtype : {DType::F32, DType::F16, DType::BF16}) cases.push_back(blockReduceCase("ReduceMean", dtype));
  cases.push_back(blockReduceCase("ReduceSum", DType::I32));
  cases.push_back(blockReduceCase("ReduceMax", DType::F32));
  cases.push_back(blockReduceCase("ReduceL2", DType::F32));
  for (const char* op : {"ArgMax", "ArgMin"})
    for (DType dtype : {DType::F32, DType::F16, DType::I32, DType::U8}) cases.push_back(argCase(op, dtype));
  for (DType dtype : floats) cases.push_back(hardmaxCase(dtype));
  for (const char* op : {"Softmax", "LogSoftmax"})
    for (DType dtype : {DType::F32, DType::F16}) cases.push_back(softmaxCase(op, dtype));
  for (DType dtype : {DType::F32, DType::F16, DType::I64, DType::I32, DType::I8}) cases.push_back(cumSumCase(dtype));
  return cases;
}

} // namespace tcx::test
